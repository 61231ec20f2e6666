/** The strategist's request (interface 2.1) and response (interface 2.2), shared by both providers. */
import { z } from 'zod';
import type { Coil, ExecutionMode, Memo } from '../coil/manifest';
import { HEX_ADDRESS, SLUG } from '../coil/manifest';
import { STOCK_TOKENS } from '../registry/data';

/** Which strategist answers (STRATEGIST_PROVIDER). */
export type StrategistProvider = 'mock' | 'partner' | 'partner_or_mock';

export const PROMPT_MAX_CHARS = 2000;

/** A thesis says something: an empty or whitespace-only prompt is refused (400 PROMPT_REQUIRED), never answered with a basket. */
export const THESIS_PRESENT = /\S/;

/** The `prompt` of POST /api/agent/svc and /api/tools/generate-coil. */
export const thesisPromptSchema = z
  .string()
  .max(PROMPT_MAX_CHARS)
  .regex(THESIS_PRESENT, 'the thesis is empty or only whitespace')
  .describe(
    `the thesis, 1 to ${PROMPT_MAX_CHARS} characters with at least one that is not whitespace (else 400 PROMPT_REQUIRED); one that names no recognised theme or ticker gets the labelled default basket`,
  );
export const STRATEGIST_MODES = ['paper', 'brokerage-mcp-plan'] as const;
export const RISK_TOLERANCES = ['low', 'medium', 'high'] as const;
export type RiskTolerance = (typeof RISK_TOLERANCES)[number];

/** An existing basket to refine: any part of a manifest (unknown fields are kept for hashing). */
export const basketContextSchema = z.looseObject({
  slug: z.string().regex(SLUG).optional(),
  name: z.string().max(120).optional(),
  assets: z
    .array(
      z.looseObject({
        ticker: z.string().max(16).optional(),
        tokenAddress: z.string().regex(HEX_ADDRESS, 'expected 0x followed by 40 hex digits'),
        weightBps: z.number().optional(),
        rationale: z.string().max(1000).optional(),
      }),
    )
    .max(50)
    .optional(),
});

export const userPreferencesSchema = z.object({
  maxSingleAssetWeightBps: z.number().int().min(1).max(10_000).optional(),
  riskTolerance: z.enum(RISK_TOLERANCES).optional(),
});

export type BasketContext = z.output<typeof basketContextSchema>;
export type UserPreferences = z.output<typeof userPreferencesSchema>;

export interface StrategistRequest {
  prompt: string;
  mode?: (typeof STRATEGIST_MODES)[number];
  basketContext?: BasketContext;
  userPreferences?: UserPreferences;
  /** generate-coil's `executionMode`; a paper Coil is always `paper_only`. */
  executionMode?: ExecutionMode;
  /** The parent's manifest hash when refining a stored basket (resolved by the caller). */
  parentManifestHash?: string;
  /** The person's corrections of the reading. */
  corrections?: Corrections;
}

export interface ProviderMeta {
  provider: 'mock' | 'partner';
  requested: StrategistProvider;
  usedFallback: boolean;
  fallbackReason?: string;
}

export interface StrategistScore {
  total: number;
  explanation: string;
  validity: number;
  canonicalAssets: number;
  diversification: number;
  riskPosture: number;
  documentation: number;
}

/** The version of the thesis reader whose reading an answer carries (bumped when a rule changes). */
export const READER_VERSION = 'svc-thesis-reader-2.0.0';

/** The tickers a strategist basket may hold: the registry's stock and ETF tokens. */
export const STRATEGIST_TICKERS = STOCK_TOKENS.map((t) => t.ticker) as [string, ...string[]];
const strategistTicker = z.enum(STRATEGIST_TICKERS).describe('a registry ticker (stock or ETF token), exactly as the registry writes it');

/**
 * The person's corrections of a reading (issue 33): the same thesis read again with these
 * decisions taken over from the reader. Each is optional; `pinned`, when present, replaces the
 * reading's pins (`[]` removes them all). Validation rejects, never clamps: a ticker outside the
 * registry, a ticker listed twice, a ticker both included and excluded, a pin on an excluded
 * ticker or pins that sum to more than 10000 bps are 400.
 */
export const correctionsSchema = z
  .object({
    included: z
      .array(strategistTicker)
      .max(STRATEGIST_TICKERS.length)
      .optional()
      .describe('tickers to hold even if the reading excluded them'),
    excluded: z.array(strategistTicker).max(STRATEGIST_TICKERS.length).optional().describe('tickers never to hold'),
    pinned: z
      .array(z.strictObject({ ticker: strategistTicker, bps: z.number().int().min(1).max(10_000) }))
      .max(STRATEGIST_TICKERS.length)
      .optional()
      .describe("when present, replaces the reading's pins ([] removes them all)"),
    riskTolerance: z.enum(RISK_TOLERANCES).optional().describe('the risk tolerance to build for, over the words of the thesis'),
  })
  .strict()
  .superRefine((c, ctx) => {
    const twice = (list: string[] | undefined, key: string) =>
      (list ?? []).forEach((t, i) => {
        if (list!.indexOf(t) !== i) ctx.addIssue({ code: 'custom', message: `${t} is listed twice`, path: [key, i] });
      });
    twice(c.included, 'included');
    twice(c.excluded, 'excluded');
    twice(
      c.pinned?.map((p) => p.ticker),
      'pinned',
    );
    (c.included ?? []).forEach((t, i) => {
      if (c.excluded?.includes(t)) ctx.addIssue({ code: 'custom', message: `${t} is both included and excluded`, path: ['included', i] });
    });
    (c.pinned ?? []).forEach((p, i) => {
      if (c.excluded?.includes(p.ticker))
        ctx.addIssue({ code: 'custom', message: `${p.ticker} is both pinned and excluded`, path: ['pinned', i, 'ticker'] });
    });
    const sum = (c.pinned ?? []).reduce((s, p) => s + p.bps, 0);
    if (sum > 10_000) ctx.addIssue({ code: 'custom', message: `the pinned weights sum to ${sum} bps, more than 10000`, path: ['pinned'] });
  })
  .describe("Corrections of the reading: included, excluded, pinned (replaces the reading's pins), riskTolerance");

export type Corrections = z.output<typeof correctionsSchema>;

const source = z.enum(['thesis', 'correction']).describe('what decided it: the words of the thesis, or a correction');

/**
 * How the thesis was read (docs/coil-tooling.md#how-a-thesis-is-read): one place in every
 * strategist answer, whichever provider built the basket, so a misreading is visible and can be
 * corrected (`corrections`).
 */
export const thesisReadingSchema = z
  .object({
    reader: z.literal(READER_VERSION),
    matched: z
      .array(
        z.object({
          text: z.string().describe('the words as written in the thesis'),
          kind: z.enum(['ticker', 'company', 'person', 'product', 'theme', 'no registry fit']),
          means: z.string().describe('what the words were read as: a ticker, a theme, or a theme no registry asset fits'),
          tickers: z.array(z.string()).describe('the registry tickers the words point at (none for a theme no asset fits)'),
          polarity: z
            .enum(['include', 'exclude', 'bearish', 'unsure'])
            .describe(
              'bearish: a view a long-only basket cannot hold; unsure: doubted, the reader cannot tell it is wanted; both are left out',
            ),
          cue: z.string().optional().describe('the words that made it excluded, bearish or unsure'),
          scope: z.enum(['only', 'mostly', 'a little']).optional(),
          readAs: z.string().optional().describe('a misspelling, read as this word'),
          pinnedBps: z.number().int().optional().describe('the weight the thesis asked for'),
          rest: z.boolean().optional().describe('it takes the weight the pins leave ("the rest in index funds")'),
        }),
      )
      .describe('every word or phrase the reader matched, in the order of the thesis'),
    included: z
      .array(z.object({ ticker: z.string(), because: z.string(), source }))
      .describe('the tickers the thesis asked for (or a correction added), after exclusions, and why'),
    excluded: z
      .array(z.object({ ticker: z.string(), because: z.string(), source }))
      .describe('the tickers the basket never holds, by any provider, and the words (or correction) that did it'),
    pinned: z
      .array(
        z.object({
          target: z.string(),
          tickers: z.array(z.string()),
          askedBps: z.number().int(),
          keptBps: z.number().int(),
          movedBy: z
            .enum(['cap', 'sum', 'excluded', 'rounding'])
            .optional()
            .describe(
              'the rule that moved the weight (absent when kept exactly): rounding only ever moves a residual of under 1% onto a named position',
            ),
          note: z.string().optional().describe('why it moved and how to keep it'),
          source,
        }),
      )
      .describe('weights the thesis (or a correction) pinned, as asked and as kept'),
    only: z.boolean().describe('the thesis asked for only what it names ("only", "just")'),
    stance: z.enum(['bullish', 'bearish', 'mixed', 'neutral']),
    riskWords: z.array(z.object({ text: z.string(), tolerance: z.enum(RISK_TOLERANCES) })),
    riskTolerance: z.object({
      value: z.enum(RISK_TOLERANCES),
      source: z.enum(['correction', 'userPreferences', 'thesis', 'default']),
    }),
    noRegistryFit: z.array(z.string()).describe('themes, companies or markets the thesis asked for that no registry asset fits'),
    notUnderstood: z.array(z.string()).describe('words the reader did not understand'),
    corrections: correctionsSchema.optional().describe('the corrections this reading applied, as sent'),
  })
  .describe(
    'How the thesis was read: matched words, included, excluded, pinned weights, stance, risk words, words not understood, each with its cause',
  );

export type ThesisReading = z.output<typeof thesisReadingSchema>;

export interface StrategistResponse {
  manifest: Coil;
  memo: Memo;
  riskSummary: string;
  score: StrategistScore;
  providerMeta: ProviderMeta;
  disclaimers: string[];
  reading: ThesisReading;
  /** Present for `brokerage-mcp-plan`: steps the user's own brokerage MCP could follow. */
  plan?: { compileOnly: true; steps: string[] };
}

/** What a provider decides; the service turns it into a Coil with its own guardrails. */
export interface BasketDraft {
  name: string;
  memoTitle: string;
  memoBody: string;
  assets: Array<{ ticker: string; weightBps: number; rationale: string }>;
  notes: string[];
  capBps: number;
  riskTolerance: RiskTolerance;
  isDefaultBasket: boolean;
}

export interface StrategistConfig {
  strategistProvider: StrategistProvider;
  partner: { apiUrl?: string; apiKey?: string; timeoutMs: number };
}
