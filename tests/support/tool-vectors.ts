/**
 * One valid input per MCP tool (the REST body of its route; every one pins `nowIso`), and
 * the REST request that carries the same input. Inputs that need a stored object (a Coil
 * receipt, a prepared stock plan) take it from `ToolFixtures`, made through REST first.
 */
import type { McpToolName } from '../../src/lib/server/registry/agents';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { createVaultManifest } from '../../src/lib/server/vaults/manifest';
import { autonomyCoil } from './autonomy';
import { rawCoil } from './coils';
import { FEE_CLAIM, NOW_ISO, REBALANCE_REPORT, RECEIVER, VAULT_MANIFEST_INPUT } from './new-routes';
import type { ApiResponse, TestServer } from './server';
import { intent } from './stock-intents';

export { NOW_ISO };

const addr = (t: string) => findAssetByTicker(t)!.address;
export const VAULT_MANIFEST = createVaultManifest(VAULT_MANIFEST_INPUT).manifest;
/** A transaction hash no chain knows: reconciliation reads and reports it unknown. */
export const UNKNOWN_TX = `0x${'ab'.repeat(32)}`;

export interface ToolFixtures {
  /** A Coil receipt issued for `rawCoil()` (POST /api/tools/receipt). */
  coilReceipt: unknown;
  /** The plan hash of `intent()` prepared at NOW_ISO (POST /api/stocks/prepare-partner-command). */
  planHash: string;
  /** The autonomy_path receipt of `autonomyCoil()` (POST /api/partnerbot/broker-mcp-instructions). */
  autonomyReceipt: unknown;
}

export const TOOL_INPUTS: Record<McpToolName, (f: ToolFixtures) => Record<string, unknown>> = {
  svc_generate_coil: () => ({ prompt: 'AI chips and data centers', nowIso: NOW_ISO }),
  svc_validate_coil: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_score_coil: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_create_receipt: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_compile_broker_capsule: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_risk_audit: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_drift_check: () => ({ coil: rawCoil(), currentWeightsBps: { NVDA: 4500, AMD: 2500, MSFT: 3000 }, nowIso: NOW_ISO }),
  svc_export_share_card: () => ({ coil: rawCoil(), nowIso: NOW_ISO }),
  svc_verify_receipt: (f) => ({ coil: rawCoil(), receipt: f.coilReceipt, nowIso: NOW_ISO }),
  svc_explain_oracle_policy: () => ({ nowIso: NOW_ISO }),

  svc_compile_partnerbot_broker_path: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
  svc_validate_autonomy_fuses: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
  svc_generate_partnerbot_command_pack: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
  svc_generate_broker_mcp_instructions: () => ({ coil: autonomyCoil(), nowIso: NOW_ISO }),
  svc_post_run_audit: (f) => ({
    receipt: f.autonomyReceipt,
    activity: [
      {
        symbol: 'NVDA',
        side: 'buy',
        notionalUsd: 80,
        at: '2026-01-06T15:00:00Z',
        brokerOrderId: 'ord-1',
        note: 'I bought 0.4 NVDA. Order filled.',
      },
    ],
    nowIso: NOW_ISO,
  }),

  svc_validate_usdg_vault: () => ({ manifest: VAULT_MANIFEST, nowIso: NOW_ISO }),
  svc_create_vault_manifest: () => ({ ...VAULT_MANIFEST_INPUT, nowIso: NOW_ISO }),
  svc_compile_vault_rebalance_policy: () => ({ manifest: VAULT_MANIFEST, options: { driftThresholdBps: 300 }, nowIso: NOW_ISO }),
  svc_generate_vault_deposit_intent: () => ({ slug: V1_VAULT.slug, amountUsdg: '10', receiver: RECEIVER, nowIso: NOW_ISO }),
  svc_generate_vault_receipt: () => ({ manifest: VAULT_MANIFEST, nowIso: NOW_ISO }),
  svc_post_vault_rebalance_audit: () => ({ manifest: VAULT_MANIFEST, report: REBALANCE_REPORT, nowIso: NOW_ISO }),
  svc_calculate_vault_fees: () => ({ highWaterMarkUsdg: '10000', navUsdg: '12500.5', nowIso: NOW_ISO }),
  svc_score_vault_risk: () => ({
    allocations: [
      { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
      { tokenAddress: USDG.address, weightBps: 5000 },
    ],
    nowIso: NOW_ISO,
  }),
  svc_compare_vaults_without_recommendation: () => ({
    vaults: [
      { label: 'B', allocations: [{ tokenAddress: addr('TSLA'), weightBps: 10000 }] },
      {
        label: 'A',
        allocations: [
          { tokenAddress: addr('SPY'), weightBps: 9000 },
          { tokenAddress: USDG.address, weightBps: 1000 },
        ],
      },
    ],
    nowIso: NOW_ISO,
  }),

  svc_prepare_partnerbot_vault_deposit: () => ({ amountUsdg: '25', receiver: RECEIVER, nowIso: NOW_ISO }),
  svc_generate_partnerbot_deposit_command: () => ({ amountUsdg: '25', receiver: RECEIVER, nowIso: NOW_ISO }),
  svc_reconcile_partnerbot_deposit_receipt: () => ({ jobId: UNKNOWN_TX, nowIso: NOW_ISO }),
  svc_prepare_partner_stock_token_trade: () => ({ intent: intent(), nowIso: NOW_ISO }),
  svc_generate_partner_stock_token_command: () => ({ intent: intent(), nowIso: NOW_ISO }),
  svc_submit_partner_stock_token_intent: (f) => ({ intent: intent(), userConfirmedPlanHash: f.planHash, nowIso: NOW_ISO }),
  svc_reconcile_partner_stock_token_job: (f) => ({ planHash: f.planHash, nowIso: NOW_ISO }),
  svc_prepare_vault_partner_rebalance: () => ({ intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }), nowIso: NOW_ISO }),
  svc_import_partner_fee_claim: () => ({ claim: FEE_CLAIM, nowIso: NOW_ISO }),
  svc_plan_provider_rewards: () => ({ feeAmountUnits: '1000007', epochId: 'epoch-1', nowIso: NOW_ISO }),
};

/** Calls the tool's REST route with the tool's input: path parameters in the path, the rest as the body (or the query of a GET). */
export function restCall(server: TestServer, endpoint: string, input: Record<string, unknown>): Promise<ApiResponse> {
  const [method, template] = endpoint.split(' ') as ['GET' | 'POST', string];
  const rest = { ...input };
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (method === 'GET') {
    const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString();
    return server.get(query ? `${path}?${query}` : path);
  }
  return server.post(path, rest);
}

/** The stored objects some inputs refer to, made through REST. */
export async function makeFixtures(server: TestServer): Promise<ToolFixtures> {
  const receipt = await server.post('/api/tools/receipt', { coil: rawCoil(), nowIso: NOW_ISO });
  const prepared = await server.post('/api/stocks/prepare-partner-command', { intent: intent(), nowIso: NOW_ISO });
  const instructions = await server.post('/api/partnerbot/broker-mcp-instructions', { coil: autonomyCoil(), nowIso: NOW_ISO });
  if ([receipt, prepared, instructions].some((r) => r.status !== 200))
    throw new Error(`fixtures: ${receipt.status} ${prepared.status} ${instructions.status}`);
  return { coilReceipt: receipt.json.receipt, planHash: prepared.json.planHash, autonomyReceipt: instructions.json.receipt };
}
