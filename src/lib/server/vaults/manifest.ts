/**
 * USDG vault manifests: a vault's identity, target allocations over canonical assets and
 * USDG cash, its rebalance fuses and its fee configuration. `createVaultManifest` fills the
 * documented defaults and returns the manifest with its validation and content hash;
 * `validateVaultManifest` returns `{ valid, issues[] }` and never throws for a semantic
 * problem (like Coil validation, an invalid manifest is an answer, not an error).
 */
import { hashCanonical } from '../canonical';
import { BROKER_CHAIN_ID, checkCanonical, findAssetByAddress, USDG } from '../registry';
import { z } from 'zod';

export const VAULT_MANIFEST_VERSION = 'vault-manifest-1.0.0';

/**
 * The manifest's shape, declared once: the routes validate and document it with these
 * schemas, and the domain types are their inferred types (no second declaration to drift,
 * no cast back from the routes' parse). The limits only bound the size of a caller's copy;
 * the rules a manifest must meet are `validateVaultManifest`'s, answered as issues.
 */
export const rebalanceFrequencySchema = z.enum(['daily', 'weekly', 'monthly']);
export type RebalanceFrequency = z.infer<typeof rebalanceFrequencySchema>;

export const vaultFusesSchema = z.object({
  maxAllocationPerAssetBps: z.number(),
  maxTokenizedEquityExposureBps: z.number(),
  maxEtfExposureBps: z.number(),
  minUsdgCashReserveBps: z.number(),
  maxRebalanceFrequency: rebalanceFrequencySchema,
  maxSlippageBps: z.number(),
  maxPriceStalenessSeconds: z.number(),
  maxDrawdownStopPct: z.number(),
  marketSessionPolicy: z.literal('feed-aware-24-5'),
  requireFreshFeeds: z.boolean(),
  emergencyPauseEnabled: z.boolean(),
  receiptLogging: z.boolean(),
  postRebalanceAuditRequired: z.boolean(),
});
export type VaultFuses = z.infer<typeof vaultFusesSchema>;

export const vaultAllocationSchema = z.object({
  ticker: z.string().max(16),
  tokenAddress: z.string().max(64),
  targetWeightBps: z.number(),
});
export type VaultAllocation = z.infer<typeof vaultAllocationSchema>;

export const vaultManifestSchema = z
  .object({
    manifestVersion: z.string().max(64),
    slug: z.string().max(100),
    name: z.string().max(200),
    description: z.string().max(4000),
    chainId: z.number(),
    baseAsset: z.string().max(16),
    baseAssetAddress: z.string().max(64),
    allocations: z.array(vaultAllocationSchema).max(64),
    fuses: vaultFusesSchema,
    feeConfig: z.object({ performanceFeeBps: z.number(), managementFeeBps: z.number() }),
    notInvestmentAdvice: z.boolean(),
    liveExecutionAllowed: z.boolean(),
  })
  .meta({ id: 'VaultManifest' });
export type VaultManifest = z.infer<typeof vaultManifestSchema>;

/** The operator's documented flagship fuse values. */
export const DEFAULT_VAULT_FUSES: VaultFuses = {
  maxAllocationPerAssetBps: 3000,
  maxTokenizedEquityExposureBps: 7000,
  maxEtfExposureBps: 6000,
  minUsdgCashReserveBps: 1000,
  maxRebalanceFrequency: 'weekly',
  maxSlippageBps: 50,
  maxPriceStalenessSeconds: 90_000,
  maxDrawdownStopPct: 25,
  marketSessionPolicy: 'feed-aware-24-5',
  requireFreshFeeds: true,
  emergencyPauseEnabled: true,
  receiptLogging: true,
  postRebalanceAuditRequired: true,
};

export const DEFAULT_PERFORMANCE_FEE_BPS = 1000;
export const PERFORMANCE_FEE_CAP_BPS = 2000;
export const MAX_VAULT_SLIPPAGE_BPS = 500;

export const manifestIssueSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
});
export type ManifestIssue = z.infer<typeof manifestIssueSchema>;

export const manifestValidationSchema = z
  .object({
    valid: z.boolean(),
    status: z.enum(['valid', 'valid-with-warnings', 'invalid']),
    issues: z.array(manifestIssueSchema),
  })
  .meta({ id: 'VaultManifestValidation' });
export type ManifestValidation = z.infer<typeof manifestValidationSchema>;

export function vaultManifestHash(manifest: VaultManifest): string {
  return hashCanonical(manifest);
}

const isBps = (n: number) => Number.isInteger(n) && n > 0 && n <= 10_000;

export function validateVaultManifest(m: VaultManifest): ManifestValidation {
  const issues: ManifestIssue[] = [];
  const err = (code: string, message: string, path?: string) =>
    issues.push({ severity: 'error', code, message, ...(path ? { path } : {}) });
  const warn = (code: string, message: string, path?: string) =>
    issues.push({ severity: 'warning', code, message, ...(path ? { path } : {}) });

  if (m.manifestVersion !== VAULT_MANIFEST_VERSION)
    err('MANIFEST_VERSION', `manifestVersion must be ${VAULT_MANIFEST_VERSION}`, 'manifestVersion');
  if (!/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(m.slug))
    err('SLUG_INVALID', 'slug: lowercase letters, digits and dashes, 1 to 64 characters', 'slug');
  if (!m.name.trim()) err('NAME_REQUIRED', 'the vault needs a name', 'name');
  if (m.chainId !== BROKER_CHAIN_ID) err('VAULT_CHAIN_INVALID', 'USDG vaults live on chain 4663 only', 'chainId');
  if (m.baseAsset !== 'USDG' || m.baseAssetAddress.toLowerCase() !== USDG.address.toLowerCase()) {
    err('BASE_ASSET_INVALID', `the base asset is USDG at ${USDG.address}`, 'baseAsset');
  }
  if (m.notInvestmentAdvice !== true) err('NOT_INVESTMENT_ADVICE_REQUIRED', 'notInvestmentAdvice must be true', 'notInvestmentAdvice');
  if (m.liveExecutionAllowed !== false)
    err('LIVE_EXECUTION_NOT_ALLOWED', 'a manifest is a plan: liveExecutionAllowed must be false', 'liveExecutionAllowed');

  const f = m.fuses;
  for (const key of ['maxAllocationPerAssetBps', 'maxTokenizedEquityExposureBps', 'maxEtfExposureBps', 'minUsdgCashReserveBps'] as const) {
    if (!isBps(f[key])) err('FUSE_BOUNDS', `${key} must be an integer in (0, 10000]`, `fuses.${key}`);
  }
  if (!Number.isInteger(f.maxSlippageBps) || f.maxSlippageBps <= 0 || f.maxSlippageBps > MAX_VAULT_SLIPPAGE_BPS) {
    err('FUSE_BOUNDS', `maxSlippageBps must be an integer in (0, ${MAX_VAULT_SLIPPAGE_BPS}]`, 'fuses.maxSlippageBps');
  }
  if (!Number.isInteger(f.maxPriceStalenessSeconds) || f.maxPriceStalenessSeconds <= 0)
    err('FUSE_BOUNDS', 'maxPriceStalenessSeconds must be a positive integer', 'fuses.maxPriceStalenessSeconds');
  if (!(f.maxDrawdownStopPct > 0 && f.maxDrawdownStopPct <= 100))
    err('FUSE_BOUNDS', 'maxDrawdownStopPct must be in (0, 100]', 'fuses.maxDrawdownStopPct');
  if (!f.requireFreshFeeds)
    err('FRESH_FEEDS_REQUIRED', 'requireFreshFeeds must be true: a stale price is unknown, never live', 'fuses.requireFreshFeeds');
  if (!f.receiptLogging || !f.postRebalanceAuditRequired)
    err('AUDIT_REQUIRED', 'receiptLogging and postRebalanceAuditRequired must be true', 'fuses');
  if (!f.emergencyPauseEnabled) warn('EMERGENCY_PAUSE_OFF', 'emergencyPauseEnabled is false', 'fuses.emergencyPauseEnabled');

  if (
    !Number.isInteger(m.feeConfig.performanceFeeBps) ||
    m.feeConfig.performanceFeeBps < 0 ||
    m.feeConfig.performanceFeeBps > PERFORMANCE_FEE_CAP_BPS
  ) {
    err('PERF_FEE_CAP', `performanceFeeBps must be an integer from 0 to ${PERFORMANCE_FEE_CAP_BPS}`, 'feeConfig.performanceFeeBps');
  }
  if (m.feeConfig.managementFeeBps !== 0)
    err('MANAGEMENT_FEE_NOT_SUPPORTED', 'vaults charge no management fee: managementFeeBps must be 0', 'feeConfig.managementFeeBps');

  if (m.allocations.length === 0) err('NO_ALLOCATIONS', 'at least one allocation (USDG cash counts) is needed', 'allocations');
  const seen = new Set<string>();
  let sum = 0;
  let equity = 0;
  let etf = 0;
  let cash = 0;
  m.allocations.forEach((a, i) => {
    const path = `allocations[${i}]`;
    const check = checkCanonical(a.ticker, a.tokenAddress);
    if (check.status === 'malformed_address')
      return err('ADDRESS_MALFORMED', 'tokenAddress is not a 20-byte hex address', `${path}.tokenAddress`);
    if (check.status === 'ticker_address_mismatch') {
      return err('TICKER_ADDRESS_MISMATCH', `${check.asset.ticker} is canonical only at ${check.asset.address}`, `${path}.tokenAddress`);
    }
    if (check.status === 'unknown_address')
      return err('NONCANONICAL_ASSET', 'no canonical asset lives at this address', `${path}.tokenAddress`);
    const asset = check.asset;
    if (asset.kind === 'wrapped_native') err('ASSET_NOT_VAULT_ELIGIBLE', 'WETH is not a vault asset', `${path}.tokenAddress`);
    const key = asset.address.toLowerCase();
    if (seen.has(key)) err('DUPLICATE_ALLOCATION', `${asset.ticker} appears more than once`, path);
    seen.add(key);
    if (!isBps(a.targetWeightBps)) {
      err('WEIGHT_INVALID', 'targetWeightBps must be a positive integer of at most 10000', `${path}.targetWeightBps`);
      return;
    }
    sum += a.targetWeightBps;
    if (asset.kind === 'stablecoin') cash += a.targetWeightBps;
    else {
      if (a.targetWeightBps > f.maxAllocationPerAssetBps) {
        err(
          'ALLOCATION_ABOVE_ASSET_CAP',
          `${asset.ticker} at ${a.targetWeightBps} bps exceeds maxAllocationPerAssetBps ${f.maxAllocationPerAssetBps}`,
          `${path}.targetWeightBps`,
        );
      }
      if (asset.kind === 'stock') equity += a.targetWeightBps;
      if (asset.kind === 'etf') etf += a.targetWeightBps;
    }
  });
  if (m.allocations.length > 0 && sum !== 10_000) err('WEIGHTS_SUM', `target weights sum to ${sum} bps, not exactly 10000`, 'allocations');
  if (equity > f.maxTokenizedEquityExposureBps)
    err('EQUITY_EXPOSURE_CAP', `stock exposure ${equity} bps exceeds ${f.maxTokenizedEquityExposureBps}`, 'allocations');
  if (etf > f.maxEtfExposureBps) err('ETF_EXPOSURE_CAP', `ETF exposure ${etf} bps exceeds ${f.maxEtfExposureBps}`, 'allocations');
  if (cash < f.minUsdgCashReserveBps)
    err('USDG_RESERVE_BELOW_MIN', `USDG cash ${cash} bps is below minUsdgCashReserveBps ${f.minUsdgCashReserveBps}`, 'allocations');

  const errors = issues.some((i) => i.severity === 'error');
  return {
    valid: !errors,
    status: errors ? 'invalid' : issues.length ? 'valid-with-warnings' : 'valid',
    issues,
  };
}

export const createManifestInputSchema = z.object({
  slug: z.string().max(100),
  name: z.string().max(200),
  description: z.string().max(4000).optional(),
  allocations: z.array(vaultAllocationSchema).max(64),
  fuses: vaultFusesSchema.partial().optional(),
  performanceFeeBps: z.number().optional(),
});
export type CreateManifestInput = z.infer<typeof createManifestInputSchema>;

/** Fills the documented defaults, checksums canonical addresses, and validates. */
export function createVaultManifest(input: CreateManifestInput) {
  const manifest: VaultManifest = {
    manifestVersion: VAULT_MANIFEST_VERSION,
    slug: input.slug,
    name: input.name,
    description: input.description ?? '',
    chainId: BROKER_CHAIN_ID,
    baseAsset: 'USDG',
    baseAssetAddress: USDG.address,
    allocations: input.allocations.map((a) => {
      const known = findAssetByAddress(a.tokenAddress);
      return { ticker: a.ticker, tokenAddress: known ? known.address : a.tokenAddress, targetWeightBps: a.targetWeightBps };
    }),
    fuses: { ...DEFAULT_VAULT_FUSES, ...(input.fuses ?? {}) },
    feeConfig: { performanceFeeBps: input.performanceFeeBps ?? DEFAULT_PERFORMANCE_FEE_BPS, managementFeeBps: 0 },
    notInvestmentAdvice: true,
    liveExecutionAllowed: false,
  };
  return { manifest, validation: validateVaultManifest(manifest), manifestHash: vaultManifestHash(manifest) };
}
