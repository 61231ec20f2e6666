/**
 * The vault and partner-rail functions behind the MCP tools: the reward split and its
 * remainders, the oracle policy (stale or missing → unknown), the rebalance audit, the fee
 * claim, the partner rebalance plan and the stock lane's preview and command.
 */
import { describe, expect, it } from 'vitest';
import { classifyPriceReading, explainOraclePolicy, MODEL_ACCRUAL_MAX_AGE_SECONDS } from '../../src/lib/server/registry/oracle-policy';
import { findAssetByTicker, ORACLE_POLICY } from '../../src/lib/server/registry';
import { planProviderRewards, REWARD_SPLIT, splitByBps } from '../../src/lib/server/vaults/rewards';
import { importPartnerFeeClaim } from '../../src/lib/server/vaults/fee-claim';
import { createVaultManifest } from '../../src/lib/server/vaults/manifest';
import { auditVaultRebalance, type ReportedRebalance } from '../../src/lib/server/vaults/rebalance-audit';
import { prepareVaultPartnerRebalance } from '../../src/lib/server/vaults/partner-rebalance';
import { generateStockCommand } from '../../src/lib/server/stocks/generate';
import type { StockLaneConfig } from '../../src/lib/server/stocks/lane-config';
import { checkSubmitGates, previewStockSubmit } from '../../src/lib/server/stocks/submit-gates';
import { computePlanHash } from '../../src/lib/server/stocks/plan';
import { normalizeIntent } from '../../src/lib/server/stocks/intent';
import { scanForExecutionClaims } from '../../src/lib/server/guards/output-guard';
import { verifyArtifactReceipt } from '../../src/lib/server/receipts/artifact';
import { intent } from '../support/stock-intents';
import { svcError } from '../support/svc-error';
import { REBALANCE_REPORT, VAULT_MANIFEST_INPUT } from '../support/new-routes';
import { serverTimeAt } from '../support/clocks';

const NOW = new Date('2026-01-01T00:00:00Z');
const SERVER = serverTimeAt('2026-03-04T15:00:00Z');

describe('reward split', () => {
  it('floors each leg and gives the treasury exactly the remainder, so the legs sum to the amount', () => {
    // 7 units: 50% → 3, 30% → 2, 10% → 0, 10% → 0 (+ remainder 2).
    const { plan } = planProviderRewards({ feeAmountUnits: '7' }, { now: NOW });
    expect(plan.legs.map((l) => [l.cohort, l.amount.units, l.remainderAbsorbed.units])).toEqual([
      ['stakers', '3', '0'],
      ['depositors', '2', '0'],
      ['providers', '0', '0'],
      ['treasury', '2', '2'],
    ]);
    expect(plan.sumsExactly).toBe(true);
  });

  it('sums exactly for any amount, with the provider components floored and their remainder rolled over', () => {
    for (const amount of [1n, 9n, 10_001n, 123_456_789n, 10n ** 20n + 7n]) {
      const { plan } = planProviderRewards({ feeAmountUnits: amount.toString() }, { now: NOW });
      expect(plan.legs.reduce((n, l) => n + BigInt(l.amount.units), 0n)).toBe(amount);
      const provider = BigInt(plan.legs.find((l) => l.cohort === 'providers')!.amount.units);
      const components = plan.providerComponents.reduce((n, c) => n + BigInt(c.amount.units), 0n);
      expect(components + BigInt(plan.providerRollover.units)).toBe(provider);
      expect(BigInt(plan.providerRollover.units)).toBeLessThan(BigInt(REWARD_SPLIT.providerComponents.length));
    }
    expect(splitByBps(101n, [5000, 5000])).toEqual({ parts: [50n, 50n], remainder: 1n });
  });

  it('says planned, not funded, not claimable, with no recipient, and stamps the split version', () => {
    const { plan, receipt } = planProviderRewards({ feeAmountUnits: '1000000', epochId: 'e1' }, { now: NOW });
    expect(plan.splitVersion).toBe('svc-reward-split-1.0.0');
    for (const leg of plan.legs) expect(leg).toMatchObject({ state: 'planned', recipient: null, funded: false, claimable: false });
    expect(plan.state).toMatchObject({ planned: true, funded: false, claimable: false });
    expect(verifyArtifactReceipt(receipt as never, plan).ok).toBe(true);
  });
});

describe('oracle policy', () => {
  const nvda = findAssetByTicker('NVDA')!;
  const sgov = findAssetByTicker('SGOV')!;
  const ago = (s: number) => new Date(SERVER.getTime() - s * 1000);

  it('a fresh price is live; a stale, missing or future-stamped one is unknown and never shown', () => {
    expect(classifyPriceReading(nvda, { updatedAt: ago(60), price: '181.5' }, SERVER)).toMatchObject({
      state: 'live',
      reason: 'FRESH',
      price: '181.5',
      ageSeconds: 60,
    });
    expect(classifyPriceReading(nvda, { updatedAt: ago(ORACLE_POLICY.maxStalenessSeconds + 1), price: '181.5' }, SERVER)).toMatchObject({
      state: 'unknown',
      reason: 'STALE',
      price: null,
    });
    expect(classifyPriceReading(nvda, undefined, SERVER)).toMatchObject({ state: 'unknown', reason: 'MISSING', price: null });
    expect(classifyPriceReading(nvda, { updatedAt: new Date(SERVER.getTime() + 3_600_000), price: '1' }, SERVER)).toMatchObject({
      state: 'unknown',
      reason: 'TIMESTAMP_IN_FUTURE',
      price: null,
    });
  });

  it('a once-daily accruing price has its own bound', () => {
    expect(classifyPriceReading(sgov, { updatedAt: ago(ORACLE_POLICY.maxStalenessSeconds + 1) }, SERVER).state).toBe('live');
    expect(classifyPriceReading(sgov, { updatedAt: ago(MODEL_ACCRUAL_MAX_AGE_SECONDS + 1) }, SERVER).reason).toBe('STALE');
  });

  it('classifies every stock and ETF token, missing ones included, and never a foreign address as known', () => {
    const { policy, readings } = explainOraclePolicy(
      [
        { tokenAddress: nvda.address.toLowerCase(), updatedAt: ago(10), price: '2' },
        { tokenAddress: '0x' + '11'.repeat(20), updatedAt: ago(10) },
      ],
      SERVER,
    );
    expect(policy).toMatchObject({ oraclePolicyVersion: ORACLE_POLICY.version, whenStale: 'unknown', whenMissing: 'unknown' });
    expect(readings!.filter((r) => r.state === 'live').map((r) => r.ticker)).toEqual(['NVDA']);
    expect(readings!.filter((r) => r.reason === 'MISSING')).toHaveLength(14);
    expect(readings!.at(-1)).toMatchObject({ reason: 'NOT_IN_REGISTRY', state: 'unknown', ticker: null });
    expect(explainOraclePolicy(undefined, SERVER).readings).toBeNull();
  });
});

describe('vault rebalance audit', () => {
  const { manifest } = createVaultManifest(VAULT_MANIFEST_INPUT);
  const a = (t: string) => findAssetByTicker(t)!.address;
  const report = (o: Partial<ReportedRebalance> = {}): ReportedRebalance => ({
    ...REBALANCE_REPORT,
    reportedAt: '2026-03-03T15:00:00Z',
    previousRebalanceAt: '2026-02-20T15:00:00Z',
    ...o,
  });
  const deps = { now: NOW, serverTime: SERVER };

  it('finds no breach in a rebalance that followed the policy, and labels every trade reported_unverified', () => {
    const { audit } = auditVaultRebalance(manifest, {}, report(), deps);
    expect(audit.verdict).toMatchObject({ status: 'no_breach_found', breachCount: 0, unknowns: [] });
    expect(audit.trades.map((t) => [t.status, t.txHashVerified])).toEqual([
      ['reported_unverified', false],
      ['reported_unverified', false],
    ]);
    expect(audit.turnoverBps).toBe(1200);
    expect(audit.requiredTurnoverBps).toBe(1200);
  });

  it('names each breach: untriggered, excess turnover, unknown asset, small trade, slippage, caps, frequency', () => {
    const { audit } = auditVaultRebalance(
      manifest,
      {},
      report({
        previousRebalanceAt: '2026-03-01T15:00:00Z',
        preWeights: [
          { tokenAddress: a('NVDA'), weightBps: 3100 },
          { tokenAddress: a('SPY'), weightBps: 2900 },
          { tokenAddress: a('USDG'), weightBps: 4000 },
        ],
        postWeights: [
          { tokenAddress: a('NVDA'), weightBps: 3500 },
          { tokenAddress: a('SPY'), weightBps: 2500 },
          { tokenAddress: a('USDG'), weightBps: 4000 },
        ],
        trades: [
          { tokenAddress: a('AAPL'), side: 'buy', notionalUsdg: '2000', slippageBps: 90 },
          { tokenAddress: a('SPY'), side: 'buy', notionalUsdg: '5' },
        ],
      }),
      deps,
    );
    const found = audit.verdict.breaches.map((b) => b.code);
    for (const code of [
      'REBALANCE_NOT_TRIGGERED',
      'EXCESS_TURNOVER',
      'ASSET_NOT_IN_POLICY',
      'SLIPPAGE_ABOVE_FUSE',
      'TRADE_BELOW_MIN',
      'TARGET_NOT_REACHED',
      'ALLOCATION_ABOVE_ASSET_CAP',
      'FREQUENCY_EXCEEDED',
    ]) {
      expect(found).toContain(code);
    }
    expect(audit.verdict.unknowns.map((u) => u.code)).toEqual(['SLIPPAGE_NOT_REPORTED']);
  });

  it('reports what was left out as unknown, never as a pass', () => {
    const { audit } = auditVaultRebalance(manifest, {}, { reportedAt: '2026-03-03T15:00:00Z', navUsdg: '10000', trades: [] }, deps);
    expect(audit.verdict.status).toBe('no_breach_found');
    expect(audit.verdict.unknowns.map((u) => u.code)).toEqual([
      'PRE_WEIGHTS_NOT_REPORTED',
      'POST_WEIGHTS_NOT_REPORTED',
      'PREVIOUS_REBALANCE_NOT_REPORTED',
    ]);
    expect(audit.requiredTurnoverBps).toBeNull();
  });

  it('quotes a note that claims a rebalance happened, and refuses an invalid manifest', () => {
    const { audit } = auditVaultRebalance(
      manifest,
      {},
      report({
        trades: [
          { tokenAddress: a('NVDA'), side: 'sell', notionalUsdg: '600', slippageBps: 10, note: 'The vault rebalanced and sold NVDA.' },
        ],
      }),
      deps,
    );
    expect(audit.trades[0]!.reportedNote).toEqual({
      claimsExecution: true,
      quoted: ['Unconfirmed, in the reporter\'s words: "The vault rebalanced and sold NVDA."'],
    });
    expect(scanForExecutionClaims(audit)).toBeUndefined();
    expect(svcError(() => auditVaultRebalance({ ...manifest, liveExecutionAllowed: true }, {}, report(), deps)).code).toBe(
      'VAULT_MANIFEST_INVALID',
    );
  });
});

describe('partner fee claim', () => {
  const claim = {
    partnerReference: 'inv-2026-02',
    amountUnits: '1250000',
    periodStart: '2026-02-01T00:00:00Z',
    periodEnd: '2026-03-01T00:00:00Z',
    vaultId: 'svc-vault-v2',
  };
  const deps = { now: NOW, serverTime: SERVER };

  it("records the partner's word as a receipt, never as proof of payment", () => {
    const out = importPartnerFeeClaim(claim, deps);
    expect(out.claim).toMatchObject({
      amount: { units: '1250000', usdg: '1.25' },
      status: 'imported_unverified',
      proofOfPayment: false,
      source: 'partner_reported',
      subject: { kind: 'vault', slug: 'svc-vault-v2' },
    });
    expect(verifyArtifactReceipt(out.receipt as never, out.claim).ok).toBe(true);
    expect(importPartnerFeeClaim(claim, deps).receipt).toEqual(out.receipt);
  });

  it('refuses each broken rule with its own issue, against the server clock', () => {
    const e = svcError(() =>
      importPartnerFeeClaim(
        {
          ...claim,
          amountUnits: '0',
          currency: 'USDC',
          periodStart: 'yesterday',
          periodEnd: '2026-12-01T00:00:00Z',
          tokenAddress: findAssetByTicker('NVDA')!.address,
        },
        deps,
      ),
    );
    expect(e.code).toBe('FEE_CLAIM_INVALID');
    expect(e.issues.map((i) => i.code)).toEqual([
      'AMOUNT_UNITS_INVALID',
      'CURRENCY_UNSUPPORTED',
      'PERIOD_START_INVALID',
      'PERIOD_NOT_ENDED',
      'SUBJECT_AMBIGUOUS',
    ]);
    expect(svcError(() => importPartnerFeeClaim({ ...claim, vaultId: undefined }, deps)).issues.map((i) => i.code)).toEqual([
      'SUBJECT_REQUIRED',
    ]);
    expect(svcError(() => importPartnerFeeClaim({ ...claim, periodEnd: claim.periodStart }, deps)).issues.map((i) => i.code)).toEqual([
      'PERIOD_EMPTY',
    ]);
    expect(svcError(() => importPartnerFeeClaim({ ...claim, vaultId: 'nope' }, deps)).issues.map((i) => i.code)).toEqual(['VAULT_UNKNOWN']);
    expect(
      svcError(() => importPartnerFeeClaim({ ...claim, vaultId: undefined, tokenAddress: '0x' + '22'.repeat(20) }, deps)).issues.map(
        (i) => i.code,
      ),
    ).toEqual(['TOKEN_NOT_CANONICAL']);
  });
});

describe('stock lane: preview, command, vault partner rebalance', () => {
  const cfg = (o: Partial<StockLaneConfig['partner']> = {}): StockLaneConfig => ({
    partner: {
      apiUrl: 'http://partner.test',
      apiKey: 'k'.repeat(20),
      agentApiEnabled: true,
      stockTradeMaxNotionalUsd: 500,
      timeoutMs: 1000,
      ...o,
    },
  });
  const planHash = (i: Record<string, unknown>) => computePlanHash(normalizeIntent(i as never), NOW);

  it('previews what submit would send after the same gates, with transmitted false and no key', () => {
    const i = intent();
    const preview = previewStockSubmit({ intent: i as never, userConfirmedPlanHash: planHash(i), planGeneratedAt: NOW }, cfg());
    expect(preview).toMatchObject({
      transmitted: false,
      planHash: planHash(i),
      wouldSend: { body: { prompt: 'buy $25 of NVDA on broker' }, url: 'http://partner.test/agent/prompt' },
    });
    expect(JSON.stringify(preview)).not.toContain('k'.repeat(20));
    expect(preview.gatesPassed).toEqual(['LANE_ENABLED', 'PLAN_HASH_CONFIRMED', 'INTENT_REVALIDATED', 'NOT_VAULT_REBALANCE']);
  });

  it('refuses in the gate order of spec 4.5, exactly as the transmitting submit does', () => {
    const i = intent();
    const gate = (c: StockLaneConfig, body: Record<string, unknown>, hash = planHash(body)) =>
      svcError(() => previewStockSubmit({ intent: body as never, userConfirmedPlanHash: hash, planGeneratedAt: NOW }, c)).code;
    expect(gate(cfg({ agentApiEnabled: false }), i, 'f'.repeat(64))).toBe('LANE_NOT_ENABLED');
    expect(gate(cfg(), i, 'f'.repeat(64))).toBe('PLAN_HASH_MISMATCH');
    expect(gate(cfg({ stockTradeMaxNotionalUsd: 50 }), i)).toBe('STOCK_INTENT_INVALID');
    const rebalance = intent({ mode: 'vault_operator_rebalance', venue: 'broker' });
    expect(gate(cfg(), rebalance)).toBe('VAULT_REBALANCE_NOT_ALLOWED_HERE');
    expect(
      svcError(() =>
        checkSubmitGates({ intent: rebalance as never, userConfirmedPlanHash: planHash(rebalance), planGeneratedAt: NOW }, cfg()),
      ).code,
    ).toBe('VAULT_REBALANCE_NOT_ALLOWED_HERE');
  });

  it('generates the command of a valid intent and records nothing', () => {
    const out = generateStockCommand(intent({ side: 'swap' }) as never, cfg({ agentApiEnabled: false }));
    expect(out).toMatchObject({ command: 'swap $25 of USDG to NVDA on broker', recorded: false, partnerContacted: false });
    expect(svcError(() => generateStockCommand(intent({ maxSlippageBps: 501 }) as never, cfg())).code).toBe('STOCK_INTENT_INVALID');
  });

  it('plans a vault_operator_rebalance with its venue, never submittable', () => {
    const plan = prepareVaultPartnerRebalance(
      { intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }) as never },
      { now: NOW, notionalCapUsd: 500 },
    );
    expect(plan).toMatchObject({
      submittable: false,
      submitRefusal: { status: 403, code: 'VAULT_REBALANCE_NOT_ALLOWED_HERE' },
      vault: { slug: 'svc-vault-v2' },
      executable: false,
    });
    expect(plan.commandPack.social).toBe('@partnerbot buy $25 of NVDA on broker');
    const noVenue = svcError(() =>
      prepareVaultPartnerRebalance({ intent: intent({ mode: 'vault_operator_rebalance' }) as never }, { now: NOW, notionalCapUsd: 500 }),
    );
    expect(noVenue.issues.map((i) => i.code)).toEqual(['VENUE_REQUIRED_FOR_VAULT_REBALANCE']);
    expect(svcError(() => prepareVaultPartnerRebalance({ intent: intent() as never }, { now: NOW, notionalCapUsd: 500 })).code).toBe(
      'VAULT_REBALANCE_MODE_REQUIRED',
    );
    expect(
      svcError(() =>
        prepareVaultPartnerRebalance(
          { intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }) as never, vaultId: 'nope' },
          { now: NOW, notionalCapUsd: 500 },
        ),
      ).code,
    ).toBe('VAULT_UNKNOWN');
  });
});
