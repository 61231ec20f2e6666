/** The strategist's request (interface 2.1) and response (interface 2.2), shared by both providers. */
import { z } from 'zod';
import type { Coil, ExecutionMode, Memo } from '../coil/manifest';
import { HEX_ADDRESS, SLUG } from '../coil/manifest';

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
export const READER_VERSION = 'svc-thesis-reader-1.0.0';

/**
 * How the thesis was read (docs/coil-tooling.md#how-a-thesis-is-read): one place in every
 * strategist answer, whichever provider built the basket, so a misreading is visible.
 */
export const thesisReadingSchema = z
  .object({
    reader: z.literal(READER_VERSION),
    matched: z
      .array(
        z.object({
          text: z.string().describe('the words as written in the thesis'),
          kind: z.enum(['ticker', 'company', 'product', 'theme', 'no registry fit']),
          means: z.string().describe('what the words were read as: a ticker, a theme, or a theme no registry asset fits'),
          tickers: z.array(z.string()).describe('the registry tickers the words point at (none for a theme no asset fits)'),
          polarity: z.enum(['include', 'exclude', 'bearish']).describe('bearish: a view a long-only basket cannot hold, so it is left out'),
          cue: z.string().optional().describe('the words that made it excluded or bearish'),
          scope: z.enum(['only', 'mostly', 'a little']).optional(),
          readAs: z.string().optional().describe('a misspelling, read as this word'),
          pinnedBps: z.number().int().optional().describe('the weight the thesis asked for'),
        }),
      )
      .describe('every word or phrase the reader matched, in the order of the thesis'),
    included: z.array(z.string()).describe('the tickers the thesis asked for, after exclusions'),
    excluded: z.array(z.object({ ticker: z.string(), because: z.string() })).describe('the tickers the basket never holds, and why'),
    pinned: z
      .array(
        z.object({
          target: z.string(),
          tickers: z.array(z.string()),
          askedBps: z.number().int(),
          keptBps: z.number().int(),
          movedBy: z.enum(['cap', 'sum', 'excluded']).optional().describe('the rule that moved the weight (absent when kept exactly)'),
        }),
      )
      .describe('weights the thesis pinned, as asked and as kept'),
    only: z.boolean().describe('the thesis asked for only what it names ("only", "just")'),
    stance: z.enum(['bullish', 'bearish', 'mixed', 'neutral']),
    riskWords: z.array(z.object({ text: z.string(), tolerance: z.enum(RISK_TOLERANCES) })),
    riskTolerance: z.object({ value: z.enum(RISK_TOLERANCES), source: z.enum(['userPreferences', 'thesis', 'default']) }),
    noRegistryFit: z.array(z.string()).describe('themes or companies the thesis asked for that no registry asset fits'),
    notUnderstood: z.array(z.string()).describe('words the reader did not understand'),
  })
  .describe('How the thesis was read: matched words, included, excluded, pinned weights, stance, risk words, words not understood');

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
