/**
 * The agent workflow index (interface 4.4 `GET /api/agents/schema`): each workflow with its
 * endpoints, the names (never values) of its environment gates, its truth rules, its MCP
 * tools (interface 4.9), its skill pack and its rail id.
 *
 * Endpoints are `METHOD /api/path` with the OpenAPI document's path templates: every one is a
 * route that exists (an API test checks each against `GET /api/openapi.json`, and that every
 * route of a workflow family is listed somewhere). A workflow's MCP tools are not listed here:
 * they are the tools of its endpoints' procedures (the `tool` of their meta), so a tool
 * appears exactly where its route does.
 */
import { FACILITATOR_SETTING_NAMES } from '../../shared/setting-names';

export const RAIL_IDS = ['rail_a_vault_deposit', 'rail_b_partner_stock_token', 'rail_c_broker_wallet_external'] as const;
export type RailId = (typeof RAIL_IDS)[number];

/** The 34 MCP tools of interface 4.9, by group. Each is backed by exactly one procedure (its meta's `tool`). */
export const MCP_TOOLS = {
  tooling: [
    'svc_generate_coil',
    'svc_validate_coil',
    'svc_score_coil',
    'svc_create_receipt',
    'svc_compile_broker_capsule',
    'svc_risk_audit',
    'svc_drift_check',
    'svc_export_share_card',
    'svc_verify_receipt',
    'svc_explain_oracle_policy',
  ],
  autonomy: [
    'svc_compile_partnerbot_broker_path',
    'svc_validate_autonomy_fuses',
    'svc_generate_partnerbot_command_pack',
    'svc_generate_broker_mcp_instructions',
    'svc_post_run_audit',
  ],
  vaults: [
    'svc_validate_usdg_vault',
    'svc_create_vault_manifest',
    'svc_compile_vault_rebalance_policy',
    'svc_generate_vault_deposit_intent',
    'svc_generate_vault_receipt',
    'svc_post_vault_rebalance_audit',
    'svc_calculate_vault_fees',
    'svc_score_vault_risk',
    'svc_compare_vaults_without_recommendation',
  ],
  partnerRails: [
    'svc_prepare_partnerbot_vault_deposit',
    'svc_generate_partnerbot_deposit_command',
    'svc_reconcile_partnerbot_deposit_receipt',
    'svc_prepare_partner_stock_token_trade',
    'svc_generate_partner_stock_token_command',
    'svc_submit_partner_stock_token_intent',
    'svc_reconcile_partner_stock_token_job',
    'svc_prepare_vault_partner_rebalance',
    'svc_import_partner_fee_claim',
    'svc_plan_provider_rewards',
  ],
} as const;

export type McpToolName = (typeof MCP_TOOLS)[keyof typeof MCP_TOOLS][number];
export const MCP_TOOL_NAMES: readonly McpToolName[] = Object.values(MCP_TOOLS).flat();

export const TRUTH_RULES = [
  'No order is ever placed by this service; it prepares plans and command packs only.',
  'No key, seed phrase, password or custody is ever held; credential-shaped fields are rejected and never echoed.',
  'Every tool payload carries notInvestmentAdvice: true and liveOrderSent: false.',
  "A status advances only on proof: job completion is the partner's word, only an on-chain confirmed receipt counts.",
  'An unknown reading is reported as unknown, never as zero and never as live.',
  'Validation rejects instead of clamping.',
] as const;

export interface AgentWorkflow {
  id: string;
  title: string;
  railId: RailId | null;
  endpoints: string[];
  envGates: string[];
  skillPack: string;
  truthRules: readonly string[];
}

export const AGENT_WORKFLOWS: readonly AgentWorkflow[] = [
  {
    id: 'coil_tooling',
    title: 'Thesis to validated Coil: generate, validate, score, audit, drift-check, receipt, share',
    railId: null,
    endpoints: [
      'GET /api/agent/svc',
      'POST /api/agent/svc',
      'POST /api/tools/generate-coil',
      'POST /api/tools/validate-coil',
      'POST /api/tools/score-coil',
      'POST /api/tools/compile-capsule',
      'POST /api/tools/risk-audit',
      'POST /api/tools/drift-check',
      'POST /api/tools/receipt',
      'POST /api/tools/share-card',
      'POST /api/tools/oracle-policy',
      'POST /api/coil/verify',
      'POST /api/receipts/verify',
      'GET /api/coil/provenance/{manifestHash}',
      'GET /api/coil/manifests/{manifestHash}',
      'GET /api/agents/passport/{agentId}',
      'GET /api/share-card/{receiptId}.svg',
      'GET /api/share-card/{receiptId}.png',
      'GET /api/coil/share-cards/{receiptId}',
      'GET /api/stocks/registry',
      'POST /api/stocks/registry/resolve',
      'GET /api/receipts/keys',
      'GET /api/receipts/log/head',
      'GET /api/receipts/log/inclusion/{receiptId}',
      'GET /api/receipts/log/consistency',
      'GET /api/receipts/log/checkpoint',
      'GET /api/receipts/log/tile/{L}/{N}',
      'GET /api/receipts/log/proof/{receiptId}',
    ],
    envGates: ['STRATEGIST_PROVIDER', 'PARTNER_API_URL', 'PARTNER_API_KEY', 'PARTNER_TIMEOUT_MS'],
    skillPack: 'svc-coil-tooling',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'partner_autonomy_path',
    title: 'Trading-agent autonomy path: compile, validate autonomy fuses, command packs, post-run audits',
    railId: null,
    // Free and unauthenticated: every route compiles or audits, none sends anything.
    endpoints: [
      'GET /api/partnerbot/schema',
      'POST /api/partnerbot/validate-autonomy',
      'POST /api/partnerbot/compile-broker-path',
      'POST /api/partnerbot/generate-command-pack',
      'POST /api/partnerbot/broker-mcp-instructions',
      'POST /api/partnerbot/post-run-audit',
      'POST /api/receipts/verify',
    ],
    // The stock lane's notional cap bounds every partner command; ORIGIN builds the share card's links.
    envGates: ['PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD', 'ORIGIN'],
    skillPack: 'svc-partnerbot-autonomy',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'usdg_vault_deposit',
    title:
      'USDG vaults: deposit packs the user signs in their own wallet, completion only on chain; manifests, rebalance policies, receipts and fee/risk analysis',
    railId: 'rail_a_vault_deposit',
    endpoints: [
      'POST /api/partnerbot/vault-deposit/prepare-command',
      'POST /api/partnerbot/vault-deposit/command',
      'POST /api/partnerbot/vault-deposit/submit-intent',
      'GET /api/partnerbot/vault-deposit/status/{jobId}',
      'POST /api/partnerbot/fee-claims/import',
      'GET /api/vaults',
      'GET /api/vaults/schema',
      'GET /api/vaults/asset-registry',
      'GET /api/vaults/readiness',
      'GET /api/vaults/v2/status',
      'GET /api/vaults/{slug}',
      'GET /api/vaults/{slug}/deposit-link',
      'GET /api/vaults/{slug}/deposit-account',
      'GET /api/vaults/{slug}/approval-status/{txHash}',
      'POST /api/vaults/{slug}/deposit-partnerbot-intent',
      'POST /api/vaults/{slug}/deposit-intent',
      'POST /api/vaults/{slug}/withdraw-intent',
      'POST /api/vaults/manifests/create',
      'POST /api/vaults/manifests/validate',
      'POST /api/vaults/rebalance-policy/compile',
      'POST /api/vaults/rebalance-audit',
      'POST /api/vaults/partner-rebalance/prepare',
      'POST /api/vaults/receipt',
      'POST /api/vaults/fees/calculate',
      'POST /api/vaults/provider-rewards/plan',
      'POST /api/vaults/risk-score',
      'POST /api/vaults/compare',
    ],
    envGates: [
      'BROKER_CHAIN_RPC_URL',
      'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED',
      'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
      'PARTNER_API_KEY',
      'PARTNER_WALLET_ADDRESS',
    ],
    skillPack: 'svc-vault-agent-kit',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'partner_stock_token',
    title: 'Stock-token command packs an external partner executes; reconciled only from on-chain proof',
    railId: 'rail_b_partner_stock_token',
    endpoints: [
      'GET /api/stocks/registry',
      'GET /api/stocks/partner-status',
      'POST /api/stocks/generate-partner-command',
      'POST /api/stocks/prepare-partner-command',
      'POST /api/stocks/plan-basket',
      'POST /api/stocks/submit-basket',
      'GET /api/stocks/baskets/{basketHash}',
      'POST /api/stocks/submit-partner-intent/preview',
      'POST /api/stocks/submit-partner-intent',
      'GET /api/stocks/partner-job/{jobId}',
      'POST /api/stocks/reconcile-receipt',
      'GET /api/stocks/receipts/{planHash}',
      'POST /api/stocks/registry/resolve',
      'POST /api/vaults/partner-rebalance/prepare',
    ],
    envGates: [
      'PARTNER_AGENT_API_ENABLED',
      'PARTNER_API_KEY',
      'PARTNER_API_URL',
      'PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD',
      'BROKER_CHAIN_RPC_URL',
    ],
    skillPack: 'svc-stock-tokens',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'x402_paid_vault_services',
    title:
      "Paid vault services over x402: 402 challenge, EIP-3009 authorization signed in the buyer's own wallet, settlement by the facilitator",
    railId: null,
    endpoints: [
      'GET /api/x402/schema',
      'GET /api/x402/providers',
      'GET /api/x402/facilitator/status',
      'POST /api/x402/facilitator/settle',
      'POST /api/vaults/x402/{serviceName}/requirements',
      'POST /api/vaults/x402/{serviceName}',
      'GET /api/x402/receipts/{receiptId}',
      'GET /api/x402/authorizations/{payer}/{nonce}',
    ],
    envGates: [...FACILITATOR_SETTING_NAMES],
    skillPack: 'svc-x402-payments',
    truthRules: [
      ...TRUTH_RULES,
      "A payment receipt records the facilitator's report, not on-chain proof; an unknown settlement outcome is kept for reconciliation and never charged twice.",
    ],
  },
  {
    id: 'wallet_session',
    title: "Sign-In with Ethereum and the caller's saved Coils and receipts",
    railId: null,
    endpoints: [
      'GET /api/auth/nonce',
      'POST /api/auth/verify',
      'GET /api/auth/session',
      'POST /api/auth/logout',
      'GET /api/me/coils',
      'GET /api/me/coils/{slug}',
      'GET /api/me/receipts',
      'GET /api/me/claimable-coils',
      'POST /api/me/claim-coils',
    ],
    // ORIGIN fixes the SIWE domain; the RPC lets contract wallets (ERC-1271/6492) sign in.
    envGates: ['ORIGIN', 'BROKER_CHAIN_RPC_URL'],
    skillPack: 'svc-wallet-session',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'broker_wallet_external',
    title: "The user's own broker wallet: outside this service; no tools, no credentials, no execution",
    railId: 'rail_c_broker_wallet_external',
    endpoints: [],
    envGates: [],
    skillPack: 'svc-broker-wallet-boundary',
    truthRules: TRUTH_RULES,
  },
];

/**
 * The index. `toolOfEndpoint` maps `METHOD /api/path` to the MCP tool its procedure backs
 * (built from the procedures' meta by the router layer), so each workflow lists the tools of
 * its own endpoints.
 */
export function agentsSchema(toolOfEndpoint: ReadonlyMap<string, McpToolName>) {
  return {
    schemaVersion: '1.0.0',
    rails: [...RAIL_IDS],
    mcpToolCount: MCP_TOOL_NAMES.length,
    workflows: AGENT_WORKFLOWS.map((w) => ({
      ...w,
      mcpTools: [...new Set(w.endpoints.map((e) => toolOfEndpoint.get(e)).filter((t): t is McpToolName => t !== undefined))],
      truthRules: [...w.truthRules],
    })),
  };
}
