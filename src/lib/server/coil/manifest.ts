/**
 * The Coil (basket manifest, interface 2.3) as a zod schema: the one definition the tools, the
 * strategist, the receipts and the MCP server share. The schema checks shape only (a value
 * that is not a Coil at all is a 400 `COIL_SHAPE`); the rules of interface 2.4 live in
 * validate.ts and report issues on a well-shaped Coil.
 */
import { z } from 'zod';
import { checksumAddress } from '../registry';
import { brokerTickerField, chainAddressField } from '../registry/symbol-space';
import { FUSE_KINDS } from './fuse-catalogue';

export const COIL_SCHEMA_VERSION = '1.0.0' as const;

/**
 * Coil modes. `paper` and `readiness-check` are planning modes: an address outside the
 * canonical registry is a warning (`UNKNOWN_ADDRESS`). `brokerage-mcp-plan` and `live`
 * describe a basket meant to be followed by the user's own execution tooling, so an unknown
 * address there is an error (`NONCANONICAL_ASSET`). The service itself executes in none.
 */
export const COIL_MODES = ['paper', 'readiness-check', 'brokerage-mcp-plan', 'live'] as const;
export type CoilMode = (typeof COIL_MODES)[number];
export const LIVE_COIL_MODES: ReadonlySet<CoilMode> = new Set<CoilMode>(['brokerage-mcp-plan', 'live']);
export const READINESS_COIL_MODES: ReadonlySet<CoilMode> = new Set<CoilMode>(['paper', 'readiness-check']);

export const EXECUTION_MODES = ['paper_only', 'preview_only', 'human_confirm', 'agentic_mcp_enabled'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export const REBALANCE_METHODS = ['drift', 'calendar', 'hybrid', 'manual'] as const;

/** Used when a Coil states no drift threshold of its own. */
export const DEFAULT_DRIFT_THRESHOLD_BPS = 500;

export const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;

const bps = () => z.number().int().min(1).max(10_000);

/**
 * `executionMode` is checked with a custom issue so a wrong value is reported as the field
 * issue `COIL_EXECUTION_MODE` (interface 7) rather than a generic enum error.
 */
export const executionModeSchema = z
  .string()
  .refine((v) => (EXECUTION_MODES as readonly string[]).includes(v), {
    message: `executionMode must be one of ${EXECUTION_MODES.join(', ')}`,
    params: { code: 'COIL_EXECUTION_MODE' },
  })
  .meta({
    enum: [...EXECUTION_MODES],
    description: 'How far a compiled capsule may go; the service itself never executes.',
  }) as unknown as z.ZodType<ExecutionMode, string>;

export const coilAssetSchema = z.object({
  ticker: brokerTickerField(16).describe('display metadata only (a ticker, never a chain address); the address is the identity'),
  tokenAddress: chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits').describe(
    'the identity (a chain address, never a ticker); must be canonical on chain 4663',
  ),
  // Checked here, before any arithmetic: a finite weight such as 1e308 overflowed the sums and
  // the scores into a 500 (issue 34). The rules between weights (the sum, the single-asset
  // cap) stay validate.ts's WEIGHTS_SUM issues.
  weightBps: bps().describe('positive integer basis points, at most 10000; all weights sum to exactly 10000'),
  rationale: z.string().max(1000),
});

export const coilRiskSchema = z.object({
  allowNonCanonicalAssets: z.boolean().describe('must be false'),
  notInvestmentAdvice: z.boolean().describe('must be true'),
  liveExecutionAllowed: z
    .boolean()
    .optional()
    .describe('a paper Coil must not set it; only a `live` Coil may, and the service still never executes'),
  oracleStalenessSeconds: z.number().int().min(1).max(604_800),
  notes: z.array(z.string().max(500)).max(50),
  maxSingleAssetWeightBps: bps().optional().describe('the single-asset cap; every weight must be at most this (10000 when absent)'),
});

export const rebalancePolicySchema = z.object({
  method: z.enum(REBALANCE_METHODS).default('drift'),
  driftThresholdBps: bps().describe('an entry breaches when |current - target| >= this'),
  maxSlippageBps: z.number().int().min(1).max(500).optional(),
  maxDailyTurnoverBps: bps().optional(),
});

export const fuseSchema = z.object({
  kind: z.enum(FUSE_KINDS),
  limit: z.number().nullable().optional().describe('the bound in the unit of the fuse kind; absent for on/off fuses'),
});

export const memoSchema = z.object({
  title: z.string().max(200),
  body: z.string().max(4000),
  disclaimer: z.string().max(1000),
});

export const coilSchema = z.object({
  schemaVersion: z.literal(COIL_SCHEMA_VERSION),
  slug: z.string().regex(SLUG, 'lowercase letters, digits and dashes, at most 80 characters'),
  name: z.string().min(1).max(120),
  mode: z
    .enum(COIL_MODES)
    .describe('paper and readiness-check are planning modes; brokerage-mcp-plan and live are live modes for NONCANONICAL_ASSET'),
  assets: z.array(coilAssetSchema).max(50),
  risk: coilRiskSchema,
  forkOf: z.string().max(80).nullable().default(null).describe('parent slug when forking, else null'),
  parentManifestHash: z.string().regex(SHA256_HEX).nullable().optional().describe('manifest hash of the parent when forking'),
  executionMode: executionModeSchema.default('paper_only'),
  rebalancePolicy: rebalancePolicySchema.default({ method: 'drift', driftThresholdBps: DEFAULT_DRIFT_THRESHOLD_BPS }),
  fuses: z.array(fuseSchema).max(32).optional(),
  memo: memoSchema.optional(),
  createdAt: z.string().max(40).optional().describe('a timestamp: never part of the manifest hash'),
});

export type Coil = z.output<typeof coilSchema>;
export type CoilInput = z.input<typeof coilSchema>;
export type CoilAsset = z.output<typeof coilAssetSchema>;
export type Fuse = z.output<typeof fuseSchema>;
export type Memo = z.output<typeof memoSchema>;

/** Fields that are timestamps: excluded from the manifest's identity content (interface 2.5). */
export const TIMESTAMP_FIELDS = ['createdAt'] as const;

/**
 * The identity content of a Coil: every field but the timestamps, with token addresses in
 * checksum form so that the case in which an address was written does not change the hash.
 */
export function identityContent(coil: Coil): Record<string, unknown> {
  const { createdAt: _createdAt, parentManifestHash, ...rest } = coil;
  return {
    ...rest,
    // "No parent" has one form: an explicit null and an absent field hash alike.
    ...(parentManifestHash ? { parentManifestHash } : {}),
    assets: coil.assets.map((a) => ({ ...a, tokenAddress: checksumAddress(a.tokenAddress) ?? a.tokenAddress })),
  };
}

/** The single-asset cap of a Coil (10000 bps when it states none). */
export function singleAssetCapOf(coil: Coil): number {
  return coil.risk.maxSingleAssetWeightBps ?? 10_000;
}

/** Parses an unknown value as a Coil, or returns the zod error (the router maps it to 400). */
export function parseCoil(value: unknown) {
  return coilSchema.safeParse(value);
}
