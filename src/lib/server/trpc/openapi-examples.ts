/**
 * One valid request per REST route, written into the OpenAPI document as the request body's
 * `example` and each parameter's `example`: the `/docs` viewer's "Try it out" sends exactly
 * these, so each must be accepted as input on first press (no 400). A route whose answer needs
 * something this server does not have yet (a stored receipt, a session, a configured partner or
 * facilitator, a payment) answers its documented refusal (404, 401, 402, 409, 503) instead.
 * tests/api/openapi-contract.test.ts sends every one of them to the real server and validates
 * the answer against the document.
 */
import { coilSchema, type CoilInput } from '../coil/manifest';
import { resolveClock } from '../clock';
import { buildReceipt, manifestHashOf } from '../receipts/receipt';
import { findAssetByTicker, USDG } from '../registry';
import { createVaultManifest } from '../vaults/manifest';
import type { ReportedRebalance } from '../vaults/rebalance-audit';
import { V1_VAULT } from '../vaults/registry';

/** Every example pins the answer's timestamps to this instant (it never moves a check's clock). */
export const EXAMPLE_NOW_ISO = '2026-01-01T00:00:00.000Z';
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const UNKNOWN_HASH = 'f'.repeat(64);
const UNKNOWN_TX = `0x${'ab'.repeat(32)}`;
const addr = (ticker: string) => findAssetByTicker(ticker)!.address;

export interface OperationExample {
  /** Path parameters by name. */
  path?: Record<string, string>;
  /** Query parameters by name (a GET's input). */
  query?: Record<string, string | number>;
  /** A POST's JSON body. */
  body?: Record<string, unknown>;
}

function exampleCoil(overrides: Partial<CoilInput> = {}): CoilInput {
  return {
    schemaVersion: '1.0.0',
    slug: 'ai-chips-example',
    name: 'AI chips example basket',
    mode: 'readiness-check',
    assets: [
      { ticker: 'NVDA', tokenAddress: addr('NVDA'), weightBps: 4000, rationale: 'Leads data-center accelerators.' },
      { ticker: 'AMD', tokenAddress: addr('AMD'), weightBps: 3000, rationale: 'Second source of accelerators.' },
      { ticker: 'MSFT', tokenAddress: addr('MSFT'), weightBps: 3000, rationale: 'Cloud demand for AI compute.' },
    ],
    risk: {
      allowNonCanonicalAssets: false,
      notInvestmentAdvice: true,
      liveExecutionAllowed: false,
      oracleStalenessSeconds: 3600,
      notes: ['example basket'],
    },
    forkOf: null,
    ...overrides,
  };
}

/** Every mandatory autonomy fuse, so the autonomy path compiles (the tests' autonomy Coil uses it too). */
export const EXAMPLE_AUTONOMY_FUSES: NonNullable<CoilInput['fuses']> = [
  { kind: 'singleAssetCap', limit: 4000 },
  { kind: 'maxTotalNotional', limit: 500 },
  { kind: 'maxSingleOrderNotional', limit: 250 },
  { kind: 'maxSlippage', limit: 50 },
  { kind: 'maxDailyTurnover', limit: 2000 },
  { kind: 'humanConfirmation', limit: 100 },
  { kind: 'noOptions' },
  { kind: 'noMargin' },
  { kind: 'marketHoursOnly' },
  { kind: 'stopIfOracleUnhealthy' },
  { kind: 'stopIfReceiptMismatch' },
];

const autonomyCoil = () => exampleCoil({ mode: 'brokerage-mcp-plan', executionMode: 'agentic_mcp_enabled', fuses: EXAMPLE_AUTONOMY_FUSES });

/** A valid stock-token intent (the tests' intent builder starts from it). */
export function exampleStockIntent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mode: 'personal_partner_trade',
    side: 'buy',
    targetSymbol: 'NVDA',
    targetTokenAddress: addr('NVDA'),
    inputAsset: 'USDG',
    inputAmount: '25',
    maxSlippageBps: 100,
    maxNotionalUsd: 100,
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
    userAcknowledgedPartnerExecutesTrade: true,
    ...overrides,
  };
}

const VAULT_MANIFEST_INPUT = {
  slug: 'example-vault',
  name: 'Example vault',
  allocations: [
    { ticker: 'NVDA', tokenAddress: addr('NVDA'), targetWeightBps: 3000 },
    { ticker: 'SPY', tokenAddress: addr('SPY'), targetWeightBps: 3000 },
    { ticker: 'USDG', tokenAddress: USDG.address, targetWeightBps: 4000 },
  ],
};

/** A rebalance the operator reports after the fact for the example vault (the tests' report too). */
export const EXAMPLE_REBALANCE_REPORT: ReportedRebalance = {
  reportedAt: '2025-12-20T15:00:00Z',
  previousRebalanceAt: '2025-12-01T15:00:00Z',
  navUsdg: '10000',
  preWeights: [
    { tokenAddress: addr('NVDA'), weightBps: 3600 },
    { tokenAddress: addr('SPY'), weightBps: 2400 },
    { tokenAddress: USDG.address, weightBps: 4000 },
  ],
  postWeights: [
    { tokenAddress: addr('NVDA'), weightBps: 3000 },
    { tokenAddress: addr('SPY'), weightBps: 3000 },
    { tokenAddress: USDG.address, weightBps: 4000 },
  ],
  trades: [
    { tokenAddress: addr('NVDA'), side: 'sell', notionalUsdg: '600', slippageBps: 20 },
    { tokenAddress: addr('SPY'), side: 'buy', notionalUsdg: '600', slippageBps: 20 },
  ],
};

let cache: Record<string, OperationExample> | undefined;

/** The example of every operation, by operationId. */
export function operationExamples(): Record<string, OperationExample> {
  if (cache) return cache;
  const now = EXAMPLE_NOW_ISO;
  const coil = exampleCoil();
  const parsedCoil = coilSchema.parse(coil);
  const coilReceipt = buildReceipt(parsedCoil, 'coil_manifest', resolveClock(now));
  const manifestHash = manifestHashOf(parsedCoil);
  const vaultManifest = createVaultManifest(VAULT_MANIFEST_INPUT).manifest;
  const q = (extra: Record<string, string | number> = {}) => ({ query: { ...extra, nowIso: now } });
  const b = (body: Record<string, unknown> = {}, path?: Record<string, string>) => ({
    body: { ...body, nowIso: now },
    ...(path ? { path } : {}),
  });

  cache = {
    'system-health': q(),
    'system-readiness': q(),
    'system-registry': q(),
    'system-resolveAsset': b({ ticker: 'NVDA' }),
    'system-agentsSchema': q(),
    'system-mcpToolset': q(),

    'tools-generateCoil': b({ prompt: 'AI chips and data centers' }),
    'tools-validateCoil': b({ coil }),
    'tools-scoreCoil': b({ coil }),
    'tools-compileCapsule': b({ coil }),
    'tools-riskAudit': b({ coil }),
    'tools-driftCheck': b({ coil, currentWeightsBps: { NVDA: 4500, AMD: 2500, MSFT: 3000 } }),
    'tools-receipt': b({ coil }),
    'tools-shareCard': b({ coil }),
    'tools-verifyCoil': b({ coil, receipt: coilReceipt }),
    'tools-oraclePolicy': b(),
    'tools-verifyArtifactReceipt': b({ receipt: { kind: 'post_run_audit' }, subject: { example: 1 } }),
    'tools-provenance': { path: { manifestHash }, ...q() },
    'tools-storedCoil': { path: { manifestHash }, ...q() },
    'tools-passport': { path: { agentId: 'mock' }, ...q() },
    'tools-storedShareCard': { path: { receiptId: coilReceipt.receiptId }, ...q() },
    shareCardSvg: { path: { receiptId: coilReceipt.receiptId } },
    shareCardPng: { path: { receiptId: coilReceipt.receiptId } },

    'receiptLog-keys': q(),
    'receiptLog-head': q(),
    'receiptLog-inclusion': { path: { receiptId: coilReceipt.receiptId }, ...q() },
    'receiptLog-consistency': q({ first: 1, second: 1 }),
    receiptLogCheckpoint: q(),
    receiptLogTile: { path: { L: '0', N: '000.p/1' }, ...q() },
    receiptLogProof: { path: { receiptId: coilReceipt.receiptId }, ...q() },

    'strategist-status': q(),
    'strategist-generate': b({ prompt: 'AI chips and data centers' }),

    'stocks-partnerStatus': q(),
    'stocks-prepare': b({ intent: exampleStockIntent() }),
    'stocks-generateCommand': b({ intent: exampleStockIntent() }),
    'stocks-submitPreview': b({ intent: exampleStockIntent(), userConfirmedPlanHash: UNKNOWN_HASH }),
    'stocks-submit': b({ intent: exampleStockIntent(), userConfirmedPlanHash: UNKNOWN_HASH }),
    'stocks-partnerJob': { path: { jobId: 'job-example-1' }, ...q() },
    'stocks-reconcile': b({ planHash: UNKNOWN_HASH }),
    'stocks-receipt': { path: { planHash: UNKNOWN_HASH }, ...q() },
    'stocks-planBasket': b({
      coil,
      totalAmountUsdg: '100',
      maxSlippageBps: 50,
      userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
      userAcknowledgedPartnerExecutesTrade: true,
    }),
    'stocks-submitBasket': b({
      coil,
      totalAmountUsdg: '100',
      maxSlippageBps: 50,
      userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
      userAcknowledgedPartnerExecutesTrade: true,
      userConfirmedBasketHash: UNKNOWN_HASH,
    }),
    'stocks-basket': { path: { basketHash: UNKNOWN_HASH }, ...q() },

    'vaults-list': q(),
    'vaults-schema': q(),
    'vaults-assetRegistry': q(),
    'vaults-readiness': q({ vault: V1_VAULT.slug }),
    'vaults-v2Status': q(),
    'vaults-vault': { path: { slug: V1_VAULT.slug }, ...q() },
    'vaults-depositLink': { path: { slug: V1_VAULT.slug }, ...q({ amount: '10', receiver: RECEIVER }) },
    'vaults-figures': { path: { slug: V1_VAULT.slug }, ...q() },
    'vaults-depositAccount': { path: { slug: V1_VAULT.slug }, ...q({ owner: RECEIVER }) },
    'vaults-approvalStatus': { path: { slug: V1_VAULT.slug, txHash: UNKNOWN_TX }, ...q({ owner: RECEIVER, amount: '10' }) },
    'vaults-depositPartnerbotIntent': b({ amountUsdg: '25', receiver: RECEIVER }, { slug: V1_VAULT.slug }),
    'vaults-depositIntent': b({ amountUsdg: '10', receiver: RECEIVER }, { slug: V1_VAULT.slug }),
    'vaults-withdrawIntent': b({ shares: '1', receiver: RECEIVER }, { slug: V1_VAULT.slug }),
    'vaults-createManifest': b(VAULT_MANIFEST_INPUT),
    'vaults-validateManifest': b({ manifest: vaultManifest }),
    'vaults-compileRebalancePolicy': b({ manifest: vaultManifest, options: { driftThresholdBps: 300 } }),
    'vaults-receipt': b({ manifest: vaultManifest }),

    'partnerbot-schema': q(),
    'partnerbot-prepareCommand': b({ amountUsdg: '25', receiver: RECEIVER }),
    'partnerbot-depositCommand': b({ amountUsdg: '25', receiver: RECEIVER }),
    'partnerbot-importFeeClaim': b({
      claim: {
        partnerReference: 'inv-2025-11',
        amountUnits: '1250000',
        periodStart: '2025-11-01T00:00:00Z',
        periodEnd: '2025-12-01T00:00:00Z',
        vaultId: 'svc-vault-v2',
      },
    }),
    'partnerbot-submitIntent': b({ amountUsdg: '25', receiver: RECEIVER, confirmPlanHash: UNKNOWN_HASH, packGeneratedAt: now }),
    'partnerbot-depositStatus': { path: { jobId: UNKNOWN_TX }, ...q() },

    'autonomy-validateAutonomy': b({ coil: autonomyCoil() }),
    'autonomy-compileBrokerPath': b({ coil: autonomyCoil() }),
    'autonomy-generateCommandPack': b({ coil: autonomyCoil() }),
    'autonomy-brokerMcpInstructions': b({ coil: autonomyCoil() }),
    'autonomy-postRunAudit': b({ receipt: { kind: 'autonomy_path' }, activity: [] }),

    'vaultAnalysis-calculateFees': b({ highWaterMarkUsdg: '10000', navUsdg: '12500.5' }),
    'vaultAnalysis-riskScore': b({
      allocations: [
        { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
        { tokenAddress: USDG.address, weightBps: 5000 },
      ],
    }),
    'vaultAnalysis-compare': b({
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
    }),
    'vaultRail-rebalanceAudit': b({
      manifest: vaultManifest,
      report: EXAMPLE_REBALANCE_REPORT,
    }),
    'vaultRail-partnerRebalance': b({ intent: exampleStockIntent({ mode: 'vault_operator_rebalance', venue: 'broker' }) }),
    'vaultRail-providerRewards': b({ feeAmountUnits: '1000007', epochId: 'epoch-1' }),

    'x402-schema': q(),
    'x402-providers': q(),
    'x402-facilitatorStatus': q(),
    'x402-facilitatorSettle': b({ serviceName: 'vault-risk-score', paymentHeader: 'eyJ4NDAyVmVyc2lvbiI6Mn0=' }),
    'x402-serviceRequirements': b({}, { serviceName: 'vault-risk-score' }),
    'x402-paidCall': b(
      {
        allocations: [
          { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
          { tokenAddress: USDG.address, weightBps: 5000 },
        ],
      },
      { serviceName: 'vault-risk-score' },
    ),
    'x402-receipt': { path: { receiptId: `x402rcpt_${'0'.repeat(32)}` }, ...q() },
    'x402-authorization': { path: { payer: RECEIVER, nonce: `0x${'00'.repeat(32)}` }, ...q() },

    'auth-nonce': q(),
    'auth-verify': b({
      message:
        'localhost wants you to sign in with your Ethereum account:\n0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\nSign in to the Strategy Basket Service.\n\nURI: http://localhost\nVersion: 1\nChain ID: 4663\nNonce: examplenonce123\nIssued At: 2026-01-01T00:00:00.000Z',
      signature: `0x${'11'.repeat(65)}`,
    }),
    'auth-session': q(),
    'auth-logout': b(),
    'me-coils': q(),
    'me-coil': { path: { slug: 'ai-chips-example' }, ...q() },
    'me-receipts': q(),
    'me-claimableCoils': q(),
    'me-claimCoils': b({ manifestHashes: [manifestHash] }),
  };
  return cache;
}
