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

export interface StrategistResponse {
  manifest: Coil;
  memo: Memo;
  riskSummary: string;
  score: StrategistScore;
  providerMeta: ProviderMeta;
  disclaimers: string[];
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
