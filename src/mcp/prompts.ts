/**
 * The MCP prompts: the common workflow as a message an agent host can offer its user.
 * "Thesis to Coil" walks the Coil tools in the order the service expects them (generate,
 * validate, score, audit, receipt), with the truth rules the tools themselves hold to.
 */
import type { CompleteResult, GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { SvcError } from '$lib/server/errors';
import { TRUTH_RULES } from '$lib/server/registry/agents';
import { LEXICON } from '$lib/server/strategist/lexicon';
import { thesisPromptSchema } from '$lib/server/strategist/types';
import { promptErrorCode } from '$lib/server/trpc/procedure-kit/input-error-codes';

export const THESIS_TO_COIL = 'thesis_to_coil';

const PROMPTS: readonly Prompt[] = [
  {
    name: THESIS_TO_COIL,
    title: 'Thesis to Coil',
    description:
      "Turn an investment thesis into a validated, scored, audited and receipted Coil (a strategy basket) with this server's tools. Planning only: nothing is bought or sent, and nothing here is investment advice.",
    arguments: [{ name: 'thesis', description: thesisPromptSchema.description, required: true }],
  },
];

export function mcpPrompts(): Prompt[] {
  return PROMPTS.map((p) => ({ ...p }));
}

/**
 * The thesis as svc_generate_coil would take it, or its refusal with that tool's codes
 * (PROMPT_REQUIRED, PROMPT_TOO_LONG), so the prompt never offers a call the tool refuses.
 */
function checkedThesis(value: string | undefined): string {
  const parsed = thesisPromptSchema.safeParse(value ?? '');
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const code = promptErrorCode(issue.code === 'too_big' ? { code: 'TOO_BIG', message: issue.message } : undefined);
  throw new SvcError(code, 'The thesis is not one svc_generate_coil takes', {
    issues: [{ code, message: issue.message, path: 'thesis' }],
    invariants: true,
  });
}

/** The `prompts/get` answer, or undefined for a name this server does not offer. Throws SvcError on a bad argument. */
export function getMcpPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult | undefined {
  if (name !== THESIS_TO_COIL) return undefined;
  const thesis = checkedThesis(args?.thesis);
  const text = [
    'Build a Coil (a strategy basket) from this thesis with the Strategy Basket Service tools:',
    '',
    thesis,
    '',
    'Steps:',
    '1. Call svc_generate_coil with { "prompt": <the thesis above> }. Read `reading` to see how the thesis was understood, and `providerMeta` for which strategist answered.',
    '2. Call svc_validate_coil with { "coil": <the generated coil> }. If validationStatus is "invalid", fix the issues it names (or ask the user) and validate again; never drop an issue silently.',
    '3. Call svc_score_coil and svc_risk_audit with the same coil: report the health (structure and readiness only, never returns) and every fuse that is not ok.',
    '4. Call svc_create_receipt with the coil and give the user its receiptId and manifestHash (a content fingerprint, not on-chain anchoring).',
    '',
    'Rules every answer follows:',
    ...TRUTH_RULES.map((rule) => `- ${rule}`),
    '- This is a plan, not investment advice: say so, and never describe a plan as an order that was placed or filled.',
  ].join('\n');
  return {
    description: 'Thesis to Coil: generate, validate, score, audit and receipt a Coil. Not investment advice; no order is placed.',
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}

/** The MCP spec's cap on one completion's values. */
const MAX_COMPLETION_VALUES = 100;

let themeWords: readonly string[] | undefined;

/** Every theme keyword the strategist reads (lexicon/themes.json), shortest first; prefix entries (`*`) left out. */
function thesisWords(): readonly string[] {
  themeWords ??= [...new Set(LEXICON.themes.themes.flatMap((t) => t.keywords).filter((k) => !k.endsWith('*')))].sort(
    (a, b) => a.length - b.length || a.localeCompare(b),
  );
  return themeWords;
}

/**
 * `completion/complete` for a prompt's argument: the thesis so far with its last word
 * completed from the words the strategist reads as themes (`semi` → `semiconductors`), so a
 * host suggests what the reader will understand. Anything else (another prompt, another
 * argument, a resource template: this server has none) completes to nothing: an empty list,
 * the answer the MCP conformance suite expects for a reference a server does not know.
 */
export function completeMcpPromptArgument(prompt: string, argument: string, value: string): Complete {
  const none: Complete = { values: [], total: 0, hasMore: false };
  if (prompt !== THESIS_TO_COIL || argument !== 'thesis') return none;
  const fragment = /\S*$/u.exec(value)![0].toLowerCase();
  if (!fragment) return none;
  const head = value.slice(0, value.length - fragment.length);
  const words = thesisWords().filter((w) => w.length > fragment.length && w.startsWith(fragment));
  return {
    values: words.slice(0, MAX_COMPLETION_VALUES).map((w) => head + w),
    total: words.length,
    hasMore: words.length > MAX_COMPLETION_VALUES,
  };
}

export type Complete = CompleteResult['completion'];
