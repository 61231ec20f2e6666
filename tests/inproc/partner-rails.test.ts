/**
 * The vault and partner-rail routes behind the MCP tools, in process (tRPC's server-side
 * caller; tests/api/new-routes-http.test.ts covers their HTTP behaviour): the
 * stock lane's command and submit preview (with the fake partner recording that nothing is
 * sent), the vault partner rebalance plan, the partnerbot deposit command, the partner fee
 * claim, the provider reward plan, the vault rebalance audit, the oracle policy and the
 * verification of artifact receipts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVaultManifest } from '../../src/lib/server/vaults/manifest';
import { findAssetByTicker } from '../../src/lib/server/registry';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { inProcess } from '../support/caller';
import { freshNowIso, intent, NVDA, planHashOf } from '../support/stock-intents';
import { FEE_CLAIM, NOW_ISO, REBALANCE_REPORT, RECEIVER, VAULT_MANIFEST_INPUT } from '../support/new-routes';

const apiKey = 'svc-test-partner-key-autonomy-01';
let partner: FakePartner;
let server: ReturnType<typeof inProcess>; // partner lane enabled
const laneOff = inProcess();
const manifest = createVaultManifest(VAULT_MANIFEST_INPUT).manifest;
const a = (t: string) => findAssetByTicker(t)!.address;

beforeAll(async () => {
  partner = await startFakePartner({ apiKey });
  server = inProcess({
    env: {
      PARTNER_API_URL: partner.url,
      PARTNER_API_KEY: apiKey,
      PARTNER_AGENT_API_ENABLED: 'true',
      PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD: '200',
    },
  });
});
afterAll(async () => {
  await partner?.stop();
});

async function sentDuring(fn: () => Promise<unknown>) {
  const before = partner.requests.length;
  await fn();
  return partner.requests.slice(before);
}

const verify = async (receipt: unknown, subject?: unknown) =>
  (await server.call('tools.verifyArtifactReceipt', { receipt, ...(subject === undefined ? {} : { subject }) })).json.verification;

describe('stock lane: the partner command and the submit preview', () => {
  it('generates the command of a valid intent, records nothing and contacts nobody', async () => {
    const nowIso = freshNowIso();
    const sent = await sentDuring(async () => {
      const res = await server.call('stocks.generateCommand', { intent: intent({ side: 'sell' }), nowIso });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        command: 'sell $25 of NVDA on broker',
        recorded: false,
        partnerContacted: false,
        svcExecutesTrade: false,
        notInvestmentAdvice: true,
        liveOrderSent: false,
      });
      expect(res.json.commandPack.cli).toBe('partner --ni "sell $25 of NVDA on broker"');
      // The artifact as answered, less the fields no request may carry (agentApi.apiKeyEnvVar names a setting).
      const { receipt, generatedAt: _g, notInvestmentAdvice: _n, liveOrderSent: _l, ...artifact } = res.json;
      const { apiKeyEnvVar: _e, ...agentApi } = artifact.commandPack.agentApi;
      expect((await verify(receipt, { ...artifact, commandPack: { ...artifact.commandPack, agentApi } })).ok).toBe(true);
      // Sent back whole, the artifact names a setting (apiKeyEnvVar): the hook refuses it as a
      // credential field before any procedure runs (tests/api/partner-rails.test.ts).
    });
    expect(sent).toEqual([]);
    // No receipt was recorded under the plan this intent would have at this clock.
    expect((await server.call('stocks.receipt', { planHash: planHashOf(intent({ side: 'sell' }), nowIso) })).status).toBe(404);
  });

  it('refuses a broken intent (422 STOCK_INTENT_INVALID) and a wrong type (400 STOCK_INTENT_SHAPE), never clamping', async () => {
    const res = await server.call('stocks.generateCommand', { intent: intent({ maxSlippageBps: 800, targetTokenAddress: a('AAPL') }) });
    expect(res.status).toBe(422);
    expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['TICKER_ADDRESS_MISMATCH', 'SLIPPAGE_ABOVE_CAP']);
    expect((await server.call('stocks.generateCommand', { intent: intent({ maxSlippageBps: '50' }) })).json.error.code).toBe(
      'STOCK_INTENT_SHAPE',
    );
  });

  it('previews the one request submit would send, transmitted false: nothing reaches the partner and the receipt stays prepared', async () => {
    const nowIso = freshNowIso();
    const prep = await server.call('stocks.prepare', { intent: intent(), nowIso });
    const sent = await sentDuring(async () => {
      const res = await server.call('stocks.submitPreview', { intent: intent(), userConfirmedPlanHash: prep.json.planHash, nowIso });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        transmitted: false,
        partnerContacted: false,
        planHash: prep.json.planHash,
        gatesPassed: ['LANE_ENABLED', 'PLAN_HASH_CONFIRMED', 'INTENT_REVALIDATED', 'NOT_VAULT_REBALANCE'],
        // The configured partner address, as the prepared command pack names it (never the key).
        wouldSend: {
          method: 'POST',
          url: `${partner.url}/agent/prompt`,
          authHeaderName: 'X-API-Key',
          body: { prompt: 'buy $25 of NVDA on broker' },
        },
        notInvestmentAdvice: true,
        liveOrderSent: false,
      });
      expect(res.json.wouldSend.url).toBe(prep.json.commandPack.agentApi.url);
    });
    expect(sent).toEqual([]);
    expect((await server.call('stocks.receipt', { planHash: prep.json.planHash })).json.receipt).toMatchObject({
      status: 'prepared',
      jobId: null,
    });
    // The transmitting route, with the same body, runs the same gates and sends exactly that prompt once.
    const real = await sentDuring(() =>
      server.call('stocks.submit', { intent: intent(), userConfirmedPlanHash: prep.json.planHash, nowIso }),
    );
    expect(real.map((r) => JSON.parse(r.body))).toEqual([{ prompt: 'buy $25 of NVDA on broker' }]);
  });

  it('refuses in the order of spec 4.5: 503 LANE_NOT_ENABLED, 409 PLAN_HASH_MISMATCH, 422 STOCK_INTENT_INVALID, 403 VAULT_REBALANCE_NOT_ALLOWED_HERE', async () => {
    const nowIso = freshNowIso();
    const off = await laneOff.call('stocks.submitPreview', { intent: intent(), userConfirmedPlanHash: 'f'.repeat(64), nowIso });
    expect([off.status, off.json.error.code]).toEqual([503, 'LANE_NOT_ENABLED']);
    const sent = await sentDuring(async () => {
      const mismatch = await server.call('stocks.submitPreview', { intent: intent(), userConfirmedPlanHash: 'f'.repeat(64), nowIso });
      expect([mismatch.status, mismatch.json.error.code]).toEqual([409, 'PLAN_HASH_MISMATCH']);
      const big = intent({ maxNotionalUsd: 300 });
      const overCap = await server.call('stocks.submitPreview', { intent: big, userConfirmedPlanHash: planHashOf(big, nowIso), nowIso });
      expect([overCap.status, overCap.json.error.code]).toEqual([422, 'STOCK_INTENT_INVALID']);
      const vault = intent({ mode: 'vault_operator_rebalance', venue: 'broker' });
      const forbidden = await server.call('stocks.submitPreview', {
        intent: vault,
        userConfirmedPlanHash: planHashOf(vault, nowIso),
        nowIso,
      });
      expect([forbidden.status, forbidden.json.error.code]).toEqual([403, 'VAULT_REBALANCE_NOT_ALLOWED_HERE']);
    });
    expect(sent).toEqual([]);
  });
});

describe('POST /api/vaults/partner-rebalance/prepare', () => {
  it('plans a vault_operator_rebalance that submit refuses with 403, as the plan says', async () => {
    const nowIso = freshNowIso();
    const body = intent({ mode: 'vault_operator_rebalance', venue: 'broker' });
    const res = await server.call('vaultRail.partnerRebalance', { intent: body, nowIso });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      planHash: planHashOf({ ...body, targetSymbol: 'NVDA' }, nowIso),
      submittable: false,
      submitRefusal: { status: 403, code: 'VAULT_REBALANCE_NOT_ALLOWED_HERE' },
      rebalanceLane: { state: 'inactive_by_owner_policy' },
      vault: { slug: 'svc-vault-v2' },
      vaultChain: { chainId: 4663 },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    const sent = await sentDuring(async () => {
      const submit = await server.call('stocks.submit', { intent: body, userConfirmedPlanHash: res.json.planHash, nowIso });
      expect([submit.status, submit.json.error.code]).toEqual([403, res.json.submitRefusal.code]);
    });
    expect(sent).toEqual([]);
  });

  it('refuses without the explicit venue (422), a personal trade (422 VAULT_REBALANCE_MODE_REQUIRED) and an unknown vault (404)', async () => {
    const noVenue = await server.call('vaultRail.partnerRebalance', { intent: intent({ mode: 'vault_operator_rebalance' }) });
    expect(noVenue.status).toBe(422);
    expect(noVenue.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['VENUE_REQUIRED_FOR_VAULT_REBALANCE']);
    expect((await server.call('vaultRail.partnerRebalance', { intent: intent() })).json.error.code).toBe('VAULT_REBALANCE_MODE_REQUIRED');
    const unknown = await server.call('vaultRail.partnerRebalance', {
      intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }),
      vaultId: 'no-such-vault',
    });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'VAULT_UNKNOWN']);
  });
});

describe('POST /api/partnerbot/vault-deposit/command', () => {
  it('answers the social command of the same pack prepare-command builds, with Mode C beside it', async () => {
    const body = { amountUsdg: '125.5', receiver: RECEIVER, nowIso: NOW_ISO };
    const res = await server.call('partnerbot.depositCommand', body);
    expect(res.status).toBe(200);
    const pack = (await server.call('partnerbot.prepareCommand', body)).json.pack;
    expect(res.json).toMatchObject({
      command: { social: pack.partnerbotSocialCommand, venuePhrase: 'on broker', executionVerifiable: false },
      planHash: pack.planHash,
      amountUnits: '125500000',
      modes: { C: { available: true, recommended: true } },
      svcExecutesDeposit: false,
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(res.json.command.social.endsWith(', on broker')).toBe(true);
    expect(res.json).not.toHaveProperty('depositCalldata');
    expect(res.json.receipt.kind).toBe('vault_deposit_command');
  });

  it('refuses like the pack: amount, receiver, vault and lifetime rules, each with its own code', async () => {
    const post = (b: Record<string, unknown>) => server.call('partnerbot.depositCommand', { amountUsdg: '10', receiver: RECEIVER, ...b });
    expect((await post({ amountUsdg: '1.0000001' })).json.error.code).toBe('AMOUNT_TOO_MANY_DECIMALS');
    expect((await post({ amountUsdg: '10001' })).json.error.code).toBe('AMOUNT_ABOVE_PACK_MAX');
    expect((await post({ receiver: '0x0000000000000000000000000000000000000000' })).json.error.code).toBe('RECEIVER_ZERO_ADDRESS');
    const unknown = await post({ vaultId: 'svc-vault-v2' });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'VAULT_UNKNOWN']);
    expect((await post({ expiresInSeconds: 5 })).json.error.code).toBe('EXPIRY_OUT_OF_BOUNDS');
  });
});

describe('POST /api/partnerbot/fee-claims/import', () => {
  it("records the partner's claim as a receipt: imported_unverified, never proof of payment", async () => {
    const res = await server.call('partnerbot.importFeeClaim', { claim: FEE_CLAIM, nowIso: NOW_ISO });
    expect(res.status).toBe(200);
    expect(res.json.claim).toMatchObject({
      amount: { units: '1250000', usdg: '1.25' },
      status: 'imported_unverified',
      proofOfPayment: false,
      paymentVerified: false,
      subject: { kind: 'vault', slug: 'svc-vault-v2' },
    });
    expect((await verify(res.json.receipt, res.json.claim)).ok).toBe(true);
    expect((await verify(res.json.receipt, { ...res.json.claim, amount: { units: '9250000', usdg: '9.25' } })).mismatches).toEqual([
      'subjectHash',
      'receiptId',
    ]);
  });

  it('refuses each broken rule (422 FEE_CLAIM_INVALID), a wrong type (400) and a ticker as the token (400 SYMBOL_SPACE_CONFUSION)', async () => {
    const bad = await server.call('partnerbot.importFeeClaim', {
      claim: { ...FEE_CLAIM, amountUnits: '0', periodEnd: '2099-01-01T00:00:00Z' },
      nowIso: '2100-01-01T00:00:00Z',
    });
    expect(bad.status).toBe(422);
    // A period that has not ended on the server's clock stays refused whatever nowIso says.
    expect(bad.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['AMOUNT_UNITS_INVALID', 'PERIOD_NOT_ENDED']);
    const type = await server.call('partnerbot.importFeeClaim', { claim: { ...FEE_CLAIM, amountUnits: 1250000 } });
    expect([type.status, type.json.error.code]).toEqual([400, 'FEE_CLAIM_SHAPE']);
    const confused = await server.call('partnerbot.importFeeClaim', { claim: { ...FEE_CLAIM, vaultId: undefined, tokenAddress: 'NVDA' } });
    expect([confused.status, confused.json.error.code]).toEqual([400, 'SYMBOL_SPACE_CONFUSION']);
    const token = await server.call('partnerbot.importFeeClaim', { claim: { ...FEE_CLAIM, vaultId: undefined, tokenAddress: NVDA } });
    expect(token.json.claim.subject).toMatchObject({ kind: 'token', ticker: 'NVDA' });
  });
});

describe('POST /api/vaults/provider-rewards/plan', () => {
  it('splits the amount exactly over the cohorts, planned and never funded or claimable', async () => {
    const res = await server.call('vaultRail.providerRewards', { feeAmountUnits: '1000007', epochId: 'epoch-1', nowIso: NOW_ISO });
    expect(res.status).toBe(200);
    const { plan } = res.json;
    expect(plan.legs.map((l: { cohort: string; amount: { units: string } }) => [l.cohort, l.amount.units])).toEqual([
      ['stakers', '500003'],
      ['depositors', '300002'],
      ['providers', '100000'],
      ['treasury', '100002'],
    ]);
    expect(
      plan.legs.every(
        (l: { state: string; funded: boolean; claimable: boolean; recipient: null }) =>
          l.state === 'planned' && !l.funded && !l.claimable && l.recipient === null,
      ),
    ).toBe(true);
    expect(plan).toMatchObject({
      splitVersion: 'svc-reward-split-1.0.0',
      sumsExactly: true,
      state: { planned: true, funded: false, claimable: false },
    });
    expect((await verify(res.json.receipt, plan)).ok).toBe(true);
  });

  it('refuses an amount that is not a positive integer (400 REWARD_PLAN_SHAPE) or above the maximum (422)', async () => {
    for (const feeAmountUnits of ['0', '1.5', '-3'])
      expect((await server.call('vaultRail.providerRewards', { feeAmountUnits })).json.error.code).toBe('REWARD_PLAN_SHAPE');
    const big = await server.call('vaultRail.providerRewards', { feeAmountUnits: '9'.repeat(30) });
    expect([big.status, big.json.error.code]).toEqual([422, 'FEE_AMOUNT_ABOVE_MAX']);
  });
});

describe('POST /api/vaults/rebalance-audit', () => {
  it('audits a reported rebalance against the compiled policy, every trade reported_unverified', async () => {
    const res = await server.call('vaultRail.rebalanceAudit', {
      manifest,
      report: { ...REBALANCE_REPORT, trades: REBALANCE_REPORT.trades.map((t) => ({ ...t, txHash: '0x' + 'ab'.repeat(32) })) },
      nowIso: NOW_ISO,
    });
    expect(res.status).toBe(200);
    expect(res.json.audit.verdict).toMatchObject({ status: 'no_breach_found', breachCount: 0 });
    expect(res.json.audit.trades.map((t: { status: string; txHashVerified: boolean }) => [t.status, t.txHashVerified])).toEqual([
      ['reported_unverified', false],
      ['reported_unverified', false],
    ]);
    expect(res.json).toMatchObject({ vaultChain: { chainId: 4663 }, notInvestmentAdvice: true, liveOrderSent: false });
    expect((await verify(res.json.receipt, res.json.audit)).ok).toBe(true);
  });

  it('names the breaches and quotes a claimed execution', async () => {
    const res = await server.call('vaultRail.rebalanceAudit', {
      manifest,
      report: {
        ...REBALANCE_REPORT,
        trades: [{ tokenAddress: a('AAPL'), side: 'buy', notionalUsdg: '5000', slippageBps: 90, note: 'The vault bought AAPL.' }],
      },
    });
    const found = res.json.audit.verdict.breaches.map((b: { code: string }) => b.code);
    expect(found).toEqual(expect.arrayContaining(['ASSET_NOT_IN_POLICY', 'SLIPPAGE_ABOVE_FUSE', 'EXCESS_TURNOVER']));
    expect(res.json.audit.trades[0].reportedNote.quoted).toEqual(['Unconfirmed, in the reporter\'s words: "The vault bought AAPL."']);
  });

  it('refuses an invalid manifest (422), a broken report (400) and a ticker as a token address (400 SYMBOL_SPACE_CONFUSION)', async () => {
    const invalid = await server.call('vaultRail.rebalanceAudit', {
      manifest: { ...manifest, liveExecutionAllowed: true },
      report: REBALANCE_REPORT,
    });
    expect([invalid.status, invalid.json.error.code]).toEqual([422, 'VAULT_MANIFEST_INVALID']);
    const broken = await server.call('vaultRail.rebalanceAudit', { manifest, report: { ...REBALANCE_REPORT, navUsdg: 'lots' } });
    expect([broken.status, broken.json.error.code]).toEqual([400, 'REBALANCE_REPORT_SHAPE']);
    const confused = await server.call('vaultRail.rebalanceAudit', {
      manifest,
      report: { ...REBALANCE_REPORT, trades: [{ tokenAddress: 'NVDA', side: 'buy', notionalUsdg: '10' }] },
    });
    expect([confused.status, confused.json.error.code]).toEqual([400, 'SYMBOL_SPACE_CONFUSION']);
    const threshold = await server.call('vaultRail.rebalanceAudit', {
      manifest,
      policyOptions: { driftThresholdBps: 0 },
      report: REBALANCE_REPORT,
    });
    expect([threshold.status, threshold.json.error.code]).toEqual([400, 'DRIFT_THRESHOLD_INVALID']);
  });
});

describe('POST /api/tools/oracle-policy', () => {
  it('states the policy in force, and classifies readings against the server clock: stale or missing is unknown', async () => {
    const now = Date.now();
    const res = await server.call('tools.oraclePolicy', {
      readings: [
        { tokenAddress: NVDA, updatedAt: new Date(now - 60_000).toISOString(), price: '181.25' },
        { tokenAddress: a('AAPL'), updatedAt: new Date(now - 2 * 3600_000).toISOString(), price: '230.1' },
      ],
      nowIso: '2020-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      tool: 'oracle-policy',
      policy: { whenStale: 'unknown', whenMissing: 'unknown', defaultMaxStalenessSeconds: 3600 },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    const by = new Map(res.json.readings.map((r: { ticker: string }) => [r.ticker, r]));
    expect(by.get('NVDA')).toMatchObject({ state: 'live', reason: 'FRESH', price: '181.25' });
    expect(by.get('AAPL')).toMatchObject({ state: 'unknown', reason: 'STALE', price: null });
    expect(by.get('MSFT')).toMatchObject({ state: 'unknown', reason: 'MISSING', price: null });
    expect(res.text).not.toContain('230.1');
  });

  it('refuses a ticker as a token address (400 SYMBOL_SPACE_CONFUSION) and a reading without a zone (400)', async () => {
    const confused = await server.call('tools.oraclePolicy', { readings: [{ tokenAddress: 'NVDA', updatedAt: new Date().toISOString() }] });
    expect([confused.status, confused.json.error.code]).toEqual([400, 'SYMBOL_SPACE_CONFUSION']);
    const zone = await server.call('tools.oraclePolicy', { readings: [{ tokenAddress: NVDA, updatedAt: '2026-01-01T00:00:00' }] });
    expect(zone.status).toBe(400);
  });
});

describe('POST /api/receipts/verify', () => {
  it('names every mismatch, and cannot recompute a receipt without its artifact', async () => {
    const { receipt, plan } = (await server.call('vaultRail.providerRewards', { feeAmountUnits: '5', nowIso: NOW_ISO })).json;
    expect(await verify({ ...receipt, kind: 'nonsense', anchoring: 'onchain', liveOrderSent: true }, plan)).toMatchObject({
      ok: false,
      mismatches: ['kind', 'receiptId', 'anchoring', 'liveOrderSent', 'signature'],
    });
    // Every field is under the service's signature: a changed byte also breaks it.
    expect(await verify({ ...receipt, generatedAt: '2026-01-02T00:00:00.000Z' }, plan)).toMatchObject({
      ok: false,
      mismatches: ['receiptId', 'signature'],
    });
    expect((await verify(receipt, plan)).signature.status).toBe('valid');
    expect((await verify(receipt)).mismatches).toEqual(['subjectHash', 'receiptId']);
  });
});
