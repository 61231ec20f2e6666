/**
 * One valid request for each route the autonomy-path issue added, for the tests of the
 * shared HTTP behaviour (OpenAPI schemas, invariants, determinism, credentials, body cap,
 * rate limit). Every body pins `nowIso`.
 */
import { findAssetByTicker } from '../../src/lib/server/registry';
import type { ReportedRebalance } from '../../src/lib/server/vaults/rebalance-audit';
import { EXAMPLE_REBALANCE_REPORT } from '../../src/lib/server/trpc/openapi-examples';
import { autonomyCoil } from './autonomy';
import { intent } from './stock-intents';

export const NOW_ISO = '2026-01-01T00:00:00.000Z';
export const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const a = (t: string) => findAssetByTicker(t)!.address;

export const VAULT_MANIFEST_INPUT = {
  slug: 'test-vault',
  name: 'Test vault',
  allocations: [
    { ticker: 'NVDA', tokenAddress: a('NVDA'), targetWeightBps: 3000 },
    { ticker: 'SPY', tokenAddress: a('SPY'), targetWeightBps: 3000 },
    { ticker: 'USDG', tokenAddress: a('USDG'), targetWeightBps: 4000 },
  ],
};

export const REBALANCE_REPORT: ReportedRebalance = EXAMPLE_REBALANCE_REPORT;

export const FEE_CLAIM = {
  partnerReference: 'inv-2025-11',
  amountUnits: '1250000',
  periodStart: '2025-11-01T00:00:00Z',
  periodEnd: '2025-12-01T00:00:00Z',
  vaultId: 'svc-vault-v2',
};

export interface RouteCase {
  name: string;
  method: 'POST';
  path: string;
  /** A valid body; `manifest` is filled in by the test for the rebalance audit. */
  body: () => Record<string, unknown>;
  /** Family of the route: error bodies of stamped families carry the invariants too. */
  stampedErrors: boolean;
  /** Whether the same request always answers the same bytes (a server-clock classification may not). */
  deterministic: boolean;
}

export function newRouteCases(manifest: unknown): RouteCase[] {
  return [
    {
      name: 'validate-autonomy',
      method: 'POST',
      path: '/api/partnerbot/validate-autonomy',
      body: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'compile-broker-path',
      method: 'POST',
      path: '/api/partnerbot/compile-broker-path',
      body: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'generate-command-pack',
      method: 'POST',
      path: '/api/partnerbot/generate-command-pack',
      body: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'broker-mcp-instructions',
      method: 'POST',
      path: '/api/partnerbot/broker-mcp-instructions',
      body: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'post-run-audit',
      method: 'POST',
      path: '/api/partnerbot/post-run-audit',
      body: () => ({ receipt: { kind: 'autonomy_path' }, activity: [], nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'vault-deposit command',
      method: 'POST',
      path: '/api/partnerbot/vault-deposit/command',
      body: () => ({ amountUsdg: '25', receiver: RECEIVER, nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'fee-claims import',
      method: 'POST',
      path: '/api/partnerbot/fee-claims/import',
      body: () => ({ claim: FEE_CLAIM, nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'rebalance-audit',
      method: 'POST',
      path: '/api/vaults/rebalance-audit',
      body: () => ({ manifest, report: REBALANCE_REPORT, nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'partner-rebalance prepare',
      method: 'POST',
      path: '/api/vaults/partner-rebalance/prepare',
      body: () => ({ intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }), nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'provider-rewards plan',
      method: 'POST',
      path: '/api/vaults/provider-rewards/plan',
      body: () => ({ feeAmountUnits: '1000007', epochId: 'epoch-1', nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'generate-partner-command',
      method: 'POST',
      path: '/api/stocks/generate-partner-command',
      body: () => ({ intent: intent(), nowIso: NOW_ISO }),
      stampedErrors: false,
      deterministic: true,
    },
    {
      name: 'submit preview',
      method: 'POST',
      path: '/api/stocks/submit-partner-intent/preview',
      body: () => ({ intent: intent(), userConfirmedPlanHash: 'f'.repeat(64), nowIso: NOW_ISO }),
      stampedErrors: false,
      deterministic: true,
    },
    {
      name: 'oracle-policy',
      method: 'POST',
      path: '/api/tools/oracle-policy',
      body: () => ({ nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
    {
      name: 'receipts verify',
      method: 'POST',
      path: '/api/receipts/verify',
      body: () => ({ receipt: { kind: 'post_run_audit' }, subject: { a: 1 }, nowIso: NOW_ISO }),
      stampedErrors: true,
      deterministic: true,
    },
  ];
}
