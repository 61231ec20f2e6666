/**
 * Compiles a vault manifest's rebalance policy: the drift trigger, the targets and every
 * fuse, as a reviewable document. It is never executable (`executable: false`) and always
 * needs the user's approval (`requiresUserApproval: true`); the chunked-rebalance lane is
 * inactive by owner policy in any case.
 */
import { hashCanonical } from '../canonical';
import { SvcError } from '../errors';
import { validateVaultManifest, vaultManifestHash, type VaultManifest } from './manifest';
import { REBALANCING_POLICY_REASON } from './v2-status';

export const REBALANCE_POLICY_VERSION = 'svc-vault-rebalance-policy-1.0.0';
export const DEFAULT_DRIFT_THRESHOLD_BPS = 500;

export interface CompileOptions {
  driftThresholdBps?: number;
  minTradeUsdg?: string;
}

export function compileRebalancePolicy(manifest: VaultManifest, options: CompileOptions, now: Date) {
  const validation = validateVaultManifest(manifest);
  if (!validation.valid) {
    throw new SvcError('VAULT_MANIFEST_INVALID', 'The manifest is invalid, so no rebalance policy is compiled from it', {
      issues: validation.issues
        .filter((i) => i.severity === 'error')
        .map((i) => ({ code: i.code, message: i.message, ...(i.path ? { path: i.path } : {}) })),
    });
  }
  const drift = options.driftThresholdBps ?? DEFAULT_DRIFT_THRESHOLD_BPS;
  if (!Number.isInteger(drift) || drift <= 0 || drift > 10_000) {
    throw new SvcError('DRIFT_THRESHOLD_INVALID', 'driftThresholdBps must be an integer in (0, 10000]', {
      issues: [
        {
          code: 'DRIFT_THRESHOLD_INVALID',
          message: 'driftThresholdBps must be an integer in (0, 10000]',
          path: 'options.driftThresholdBps',
        },
      ],
    });
  }
  const minTrade = options.minTradeUsdg ?? '10';
  if (!/^\d+(\.\d{1,6})?$/.test(minTrade)) {
    throw new SvcError('MIN_TRADE_INVALID', 'minTradeUsdg must be a decimal string with at most 6 decimal places', {
      issues: [{ code: 'MIN_TRADE_INVALID', message: 'decimal string expected', path: 'options.minTradeUsdg' }],
    });
  }
  const policy = {
    policyVersion: REBALANCE_POLICY_VERSION,
    vaultSlug: manifest.slug,
    manifestHash: vaultManifestHash(manifest),
    method: 'drift' as const,
    driftThresholdBps: drift,
    minTradeUsdg: minTrade,
    targets: manifest.allocations.map((a) => ({ ticker: a.ticker, tokenAddress: a.tokenAddress, targetWeightBps: a.targetWeightBps })),
    fuses: { ...manifest.fuses },
    status: 'preview' as const,
    executable: false as const,
    requiresUserApproval: true as const,
    lane: { name: 'chunked_rebalance' as const, state: 'inactive_by_owner_policy' as const, reason: REBALANCING_POLICY_REASON },
    abortConditions: [
      'The user has not approved this specific rebalance.',
      'Any fuse is breached (allocation caps, exposure caps, USDG reserve, slippage, drawdown stop).',
      'A price is stale or missing: an unknown price is never treated as live.',
    ],
    compiledAt: now.toISOString(),
  };
  const { compiledAt: _c, ...content } = policy;
  return { policy, policyHash: hashCanonical(content) };
}
