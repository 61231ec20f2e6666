/**
 * Output guard (interface 1, 7): a text that reads as a claim that an execution happened, without
 * proof, blocks the response (500 `OUTPUT_GUARD`). The rules live in output-guard-rules.ts;
 * guards/finish-answer.ts applies them to every answer.
 */
import {
  CLAIM_FILLERS,
  EXECUTED_OBJECTS,
  EXECUTION_SUBJECTS,
  EXECUTION_VERBS,
  HYPOTHETICAL_MARKERS,
  NEGATIONS,
  PASSIVE_AUXILIARIES,
  PROOF_QUALIFIERS,
} from './output-guard-rules';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alt = (words: readonly string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');

const VERBS = alt(EXECUTION_VERBS);
const ACTIVE_CLAIM = new RegExp(`\\b(?:${alt(EXECUTION_SUBJECTS)})\\b(?:\\s+(?:${alt(CLAIM_FILLERS)}))*\\s+(?:${VERBS})\\b`, 'i');
const PASSIVE_CLAIM = new RegExp(`\\b(?:${alt(EXECUTED_OBJECTS)})\\b(?:\\s+(?:${alt(PASSIVE_AUXILIARIES)}))?\\s+(?:${VERBS})\\b`, 'i');
/** "Executed your order", "Sold 10 NVDA": a sentence that opens with the verb. */
const LEADING_VERB_CLAIM = new RegExp(`^(?:successfully\\s+)?(?:${VERBS})\\s+(?:the|your|a|an|all|\\$?\\d)`, 'i');
/** Cheap pre-check: a text without any execution verb cannot hold a claim. */
const ANY_VERB = new RegExp(`\\b(?:${VERBS})\\b`, 'i');
const NEGATION = new RegExp(`(?:\\b(?:${alt(NEGATIONS.filter((n) => n !== "n't"))})\\b|n't\\b)`, 'i');
const HYPOTHETICAL = new RegExp(`\\b(?:${alt(HYPOTHETICAL_MARKERS)})\\b`, 'i');

/** How many words before a claim a negation may stand and still deny it. */
const NEGATION_WINDOW_WORDS = 4;

export interface ExecutionClaim {
  sentence: string;
}

/** The sentences the guard judges one by one. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Returns the first sentence of `text` that reads as an unproven execution claim. */
/**
 * Responses repeat the same texts (disclaimers, rationales), so verdicts are memoised; the
 * cache is bounded in entries and in the length of a text it keeps (a caller's long text is
 * scanned every time rather than held: at most 2000 x 2 KB), and starts over when full.
 */
const verdicts = new Map<string, ExecutionClaim | null>();
const VERDICT_CACHE_SIZE = 2000;
const VERDICT_CACHE_MAX_TEXT = 2048;

export function findExecutionClaim(text: string): ExecutionClaim | undefined {
  // The service's own texts (disclaimers, descriptions) repeat in every answer and most name a
  // verb ("no order is placed"): their verdict is looked up before any pattern runs.
  const known = verdicts.get(text);
  if (known !== undefined) return known ?? undefined;
  if (!ANY_VERB.test(text)) return undefined;
  const verdict = scanSentences(text);
  if (text.length <= VERDICT_CACHE_MAX_TEXT) {
    if (verdicts.size >= VERDICT_CACHE_SIZE) verdicts.clear();
    verdicts.set(text, verdict ?? null);
  }
  return verdict;
}

function scanSentences(text: string): ExecutionClaim | undefined {
  for (const sentence of splitSentences(text)) {
    if (sentence.endsWith('?') || !ANY_VERB.test(sentence)) continue;
    const match = ACTIVE_CLAIM.exec(sentence) ?? PASSIVE_CLAIM.exec(sentence) ?? LEADING_VERB_CLAIM.exec(sentence);
    if (!match) continue;
    const upToMatch = sentence.slice(0, match.index + match[0].length);
    // A negation counts only next to the claim ("No order was placed", "Neither the agent
    // nor the service sold"), not anywhere earlier in a long sentence.
    const nearBefore = sentence.slice(0, match.index).split(/\s+/).filter(Boolean).slice(-NEGATION_WINDOW_WORDS).join(' ');
    if (NEGATION.test(`${nearBefore} ${match[0]}`) || HYPOTHETICAL.test(upToMatch)) continue;
    if (PROOF_QUALIFIERS.some((q) => q.test(sentence))) continue;
    return { sentence };
  }
  return undefined;
}

/**
 * Scans every string of a JSON value; returns the path and claim of the first offender.
 * A plain scan: answers are finished by guards/finish-answer.ts, which also knows which
 * strings are the caller's own words.
 */
export function scanForExecutionClaims(value: unknown): { path: string; claim: ExecutionClaim } | undefined {
  const stack: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'string') {
      const claim = findExecutionClaim(node);
      if (claim) return { path, claim };
    } else if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push({ node: child, path: `${path}[${i}]` }));
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        stack.push({ node: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}
