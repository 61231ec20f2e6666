/**
 * The agent workflow index (spec 4.4 `GET /api/agents/schema`): each workflow with its
 * endpoints, the names (never values) of its environment gates, its truth rules, its MCP
 * tools (spec 4.9), its skill pack and its rail id.
 *
 * Endpoints are `METHOD /api/path` with the OpenAPI document's path templates: every one is a
 * route that exists (an API test checks each against `GET /api/openapi.json`, and that every
 * route of a workflow family is listed somewhere).
 */

export const RAIL_IDS = ['rail_a_vault_deposit', 'rail_b_partner_stock_token', 'rail_c_broker_wallet_external'] as const;
export type RailId = (typeof RAIL_IDS)[number];

/** The 34 MCP tools of spec 4.9, by group. */
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

export const TRUTH_RULES = [
  'No order is ever placed by this service; it prepares plans and command packs only.',
  'No key, seed phrase, password or custody is ever held; credential-shaped fields are rejected and never echoed.',
  'Every tool payload carries notInvestmentAdvice: true and liveOrderSent: false.',
  'A status advances only on proof: job completion is the partner\'s word, only an on-chain confirmed receipt counts.',
  'An unknown reading is reported as unknown, never as zero and never as live.',
  'Validation rejects instead of clamping.',
] as const;

export interface AgentWorkflow {
  id: string;
  title: string;
  railId: RailId | null;
  endpoints: string[];
  envGates: string[];
  mcpTools: string[];
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
      'POST /api/coil/verify',
      'GET /api/coil/provenance/{manifestHash}',
      'GET /api/coil/manifests/{manifestHash}',
      'GET /api/agents/passport/{agentId}',
      'GET /api/share-card/{receiptId}.svg',
      'GET /api/stocks/registry',
      'POST /api/stocks/registry/resolve',
    ],
    envGates: ['STRATEGIST_PROVIDER', 'PARTNER_API_URL', 'PARTNER_API_KEY', 'PARTNER_TIMEOUT_MS'],
    mcpTools: [...MCP_TOOLS.tooling],
    skillPack: 'svc-coil-tooling',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'partner_autonomy_path',
    title: 'Trading-agent autonomy path: compile, validate autonomy fuses, command packs, post-run audits',
    railId: null,
    // The autonomy services themselves are the partner cloud's x402 endpoints, listed (with
    // their lane) by the provider directory; the schema route describes the path.
    endpoints: ['GET /api/partnerbot/schema', 'GET /api/x402/providers'],
    envGates: ['PARTNER_API_URL', 'PARTNER_API_KEY'],
    mcpTools: [...MCP_TOOLS.autonomy],
    skillPack: 'svc-partnerbot-autonomy',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'usdg_vault_deposit',
    title: 'USDG vaults: deposit packs the user signs in their own wallet, completion only on chain; manifests, rebalance policies, receipts and fee/risk analysis',
    railId: 'rail_a_vault_deposit',
    endpoints: [
      'POST /api/partnerbot/vault-deposit/prepare-command',
      'POST /api/partnerbot/vault-deposit/submit-intent',
      'GET /api/partnerbot/vault-deposit/status/{jobId}',
      'GET /api/vaults',
      'GET /api/vaults/schema',
      'GET /api/vaults/asset-registry',
      'GET /api/vaults/readiness',
      'GET /api/vaults/v2/status',
      'GET /api/vaults/{slug}',
      'GET /api/vaults/{slug}/deposit-link',
      'POST /api/vaults/{slug}/deposit-partnerbot-intent',
      'POST /api/vaults/{slug}/deposit-intent',
      'POST /api/vaults/{slug}/withdraw-intent',
      'POST /api/vaults/manifests/create',
      'POST /api/vaults/manifests/validate',
      'POST /api/vaults/rebalance-policy/compile',
      'POST /api/vaults/receipt',
      'POST /api/vaults/fees/calculate',
      'POST /api/vaults/risk-score',
      'POST /api/vaults/compare',
    ],
    envGates: ['BROKER_CHAIN_RPC_URL', 'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED', 'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT', 'PARTNER_API_KEY', 'PARTNER_WALLET_ADDRESS'],
    mcpTools: [...MCP_TOOLS.vaults, 'svc_prepare_partnerbot_vault_deposit', 'svc_generate_partnerbot_deposit_command', 'svc_reconcile_partnerbot_deposit_receipt'],
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
      'POST /api/stocks/prepare-partner-command',
      'POST /api/stocks/submit-partner-intent',
      'GET /api/stocks/partner-job/{jobId}',
      'POST /api/stocks/reconcile-receipt',
      'GET /api/stocks/receipts/{planHash}',
      'POST /api/stocks/registry/resolve',
    ],
    envGates: ['PARTNER_AGENT_API_ENABLED', 'PARTNER_API_KEY', 'PARTNER_API_URL', 'PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD', 'BROKER_CHAIN_RPC_URL'],
    mcpTools: [
      'svc_prepare_partner_stock_token_trade',
      'svc_generate_partner_stock_token_command',
      'svc_submit_partner_stock_token_intent',
      'svc_reconcile_partner_stock_token_job',
      'svc_prepare_vault_partner_rebalance',
      'svc_import_partner_fee_claim',
      'svc_plan_provider_rewards',
    ],
    skillPack: 'svc-stock-tokens',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'x402_paid_vault_services',
    title: 'Paid vault services over x402: 402 challenge, EIP-3009 authorization signed in the buyer\'s own wallet, settlement by the facilitator',
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
    envGates: [
      'FACILITATOR_ENABLED',
      'FACILITATOR_API_KEY',
      'FACILITATOR_URL',
      'FACILITATOR_NETWORK',
      'FACILITATOR_CHAIN_ID',
      'FACILITATOR_USDG_ADDRESS',
      'FACILITATOR_ADDRESS',
      'FACILITATOR_PAYTO_ADDRESS',
      'FACILITATOR_TIMEOUT_MS',
    ],
    mcpTools: [],
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
    ],
    // ORIGIN fixes the SIWE domain; the RPC lets contract wallets (ERC-1271/6492) sign in.
    envGates: ['ORIGIN', 'BROKER_CHAIN_RPC_URL'],
    mcpTools: [],
    skillPack: 'svc-wallet-session',
    truthRules: TRUTH_RULES,
  },
  {
    id: 'broker_wallet_external',
    title: "The user's own broker wallet: outside this service; no tools, no credentials, no execution",
    railId: 'rail_c_broker_wallet_external',
    endpoints: [],
    envGates: [],
    mcpTools: [],
    skillPack: 'svc-broker-wallet-boundary',
    truthRules: TRUTH_RULES,
  },
];

export function agentsSchema() {
  return {
    schemaVersion: '1.0.0',
    rails: [...RAIL_IDS],
    mcpToolCount: Object.values(MCP_TOOLS).reduce((n, group) => n + group.length, 0),
    workflows: AGENT_WORKFLOWS.map((w) => ({ ...w, truthRules: [...w.truthRules] })),
  };
}
