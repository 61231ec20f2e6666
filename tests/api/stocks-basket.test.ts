/**
 * A basket acted on as one (issue 35, item 1): POST /api/stocks/plan-basket gives one basket
 * hash over the ordered legs, POST /api/stocks/submit-basket hands every leg to the partner with
 * that one confirmation, and GET /api/stocks/baskets/{basketHash} follows each leg's proof with a
 * summary never stronger than the weakest leg. Through the real server, the local chain 4663
 * and the fake partner (tests/support/fake-partner.ts).
 */
import { parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { ADDR, rawCoil } from '../support/coils';
import { startFakePartner, stockLaneEnv, type FakePartner } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { freshNowIso } from '../support/stock-intents';

const apiKey = secretMarker('partner');
const TRADER = 4;
const SIX = (['NVDA', 'AMD', 'MSFT', 'SPY', 'SGOV', 'AAPL'] as const).map((ticker, i) => ({
  ticker,
  tokenAddress: ADDR[ticker],
  weightBps: i === 0 ? 2000 : 1600,
  rationale: 'test leg',
}));
const sixAssetCoil = (fuses?: unknown[]) => rawCoil({ assets: SIX, ...(fuses ? { fuses } : {}) } as never);

let chain: LocalChain;
let partner: FakePartner;
let server: TestServer;
let route: Address;

beforeAll(async () => {
  [chain, partner] = await Promise.all([startLocalChain(), startFakePartner({ apiKey })]);
  server = await startServer({
    env: stockLaneEnv(partner, apiKey, chain.rpcUrl),
  });
  route = await chain.deploy('TestSwapRoute');
  for (const a of SIX)
    await chain.send(a.tokenAddress as Address, chain.artifact('TestToken').abi, 'mint', [route, parseUnits('1000', 18)]);
  await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'mint', [
    chain.accounts[TRADER]!.address,
    parseUnits('100000', 6),
  ]);
  await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'approve', [route, 2n ** 255n], TRADER);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([chain?.stop(), partner?.stop()]);
});

function basketBody(total: string, coil = sixAssetCoil(), extra: Record<string, unknown> = {}) {
  return {
    coil,
    totalAmountUsdg: total,
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
    userAcknowledgedPartnerExecutesTrade: true,
    nowIso: freshNowIso(),
    ...extra,
  };
}

async function plan(body: ReturnType<typeof basketBody>) {
  const res = await server.post('/api/stocks/plan-basket', body);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

const submit = (body: ReturnType<typeof basketBody>, basketHash: string) =>
  server.post('/api/stocks/submit-basket', { ...body, userConfirmedBasketHash: basketHash });
const status = async (basketHash: string) => {
  const res = await server.get(`/api/stocks/baskets/${basketHash}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
};
const promptsFor = (ticker: string) => partner.submissions().filter((r) => JSON.parse(r.body).prompt.includes(` of ${ticker} `)).length;

async function trade(token: string, usdg: string) {
  const receipt = await chain.send(
    route,
    chain.artifact('TestSwapRoute').abi,
    'swap',
    [USDG.address, token, parseUnits(usdg, 6), parseUnits('0.1', 18)],
    TRADER,
  );
  return receipt.transactionHash;
}

describe('a basket with one confirmation (issue 35, item 1)', () => {
  it('a six-asset basket is submitted with one confirmation; a refused leg is reported and the others proceed; a repeated submit sends nothing twice', async () => {
    const body = basketBody('600');
    const planned = await plan(body);
    expect(planned.basketHash).toMatch(/^[0-9a-f]{64}$/);
    expect(planned).toMatchObject({ totalAmountUsdg: '600', plannedCount: 6, notPlannedCount: 0 });
    expect(planned.confirmation).toContain('600 USDG in total');
    const before = partner.submissions().length;

    partner.refusePrompts(/ of SGOV /);
    const first = await submit(body, planned.basketHash);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ basketHash: planned.basketHash, submittedCount: 5, replayedCount: 0, refusedCount: 1 });
    const refused = first.json.legs.find((l: { ticker: string }) => l.ticker === 'SGOV');
    expect(refused).toMatchObject({ outcome: 'refused', jobId: null, receiptStatus: 'prepared', refusal: { code: 'PARTNER_HTTP_ERROR' } });
    expect(first.json.legs.filter((l: { outcome: string }) => l.outcome === 'submitted').map((l: { ticker: string }) => l.ticker)).toEqual([
      'NVDA',
      'AMD',
      'MSFT',
      'SPY',
      'AAPL',
    ]);
    expect(partner.submissions().length - before).toBe(6);

    partner.refusePrompts(null);
    const again = await submit(body, planned.basketHash);
    expect(again.json).toMatchObject({ submittedCount: 1, replayedCount: 5, refusedCount: 0 });
    const third = await submit(body, planned.basketHash);
    expect(third.json).toMatchObject({ submittedCount: 0, replayedCount: 6, refusedCount: 0 });
    for (const a of SIX) expect(promptsFor(a.ticker), a.ticker).toBe(a.ticker === 'SGOV' ? 2 : 1);
    expect(partner.submissions().length - before).toBe(7);
  });

  it("the basket status follows each leg's proof and is never stronger than its weakest leg; a stopped leg makes it incomplete", async () => {
    const body = basketBody('300');
    const planned = await plan(body);
    expect((await status(planned.basketHash)).summary).toBe('prepared');
    const sub = await submit(body, planned.basketHash);
    expect(sub.json.submittedCount).toBe(6);
    for (const leg of sub.json.legs) partner.setJob(leg.jobId, { statuses: ['completed'], reads: 0 });
    const completed = await status(planned.basketHash);
    expect(completed.summary).toBe('job_completed_unconfirmed');
    expect(completed.legs.map((l: { status: string }) => l.status)).toEqual(Array(6).fill('job_completed_unconfirmed'));

    const legs = sub.json.legs as Array<{ tokenAddress: string; amountUsdg: string; planHash: string; ticker: string }>;
    for (const leg of legs.slice(0, 5)) {
      const res = await server.post('/api/stocks/reconcile-receipt', {
        planHash: leg.planHash,
        txHash: await trade(leg.tokenAddress, leg.amountUsdg),
      });
      expect(res.json.receipt.status, leg.ticker).toBe('onchain_confirmed');
      expect((await status(planned.basketHash)).summary, 'never stronger than the weakest leg').toBe('job_completed_unconfirmed');
    }
    const last = legs[5]!;
    await server.post('/api/stocks/reconcile-receipt', {
      planHash: last.planHash,
      txHash: await trade(last.tokenAddress, last.amountUsdg),
    });
    const proven = await status(planned.basketHash);
    expect(proven.summary).toBe('onchain_confirmed');
    expect(proven.legs.every((l: { proofBinding: string }) => l.proofBinding === 'caller_claim')).toBe(true);
    expect(JSON.stringify(proven)).not.toMatch(/fill/i);

    const other = basketBody('120');
    const second = await plan(other);
    const handed = await submit(other, second.basketHash);
    partner.setJob(handed.json.legs[2].jobId, { statuses: ['failed'], reads: 0 });
    const stopped = await status(second.basketHash);
    expect(stopped.summary).toBe('incomplete');
    expect(stopped.stoppedLegs.map((l: { ticker: string; status: string }) => [l.ticker, l.status])).toEqual([['MSFT', 'job_failed']]);
    expect(stopped.legs).toHaveLength(5);
  });

  it('a gate failing on one leg sends no leg, and the answer names that leg', async () => {
    const body = basketBody('180');
    const planned = await plan(body);
    // One leg already holds on-chain proof without a job: it can no longer be submitted.
    const spy = planned.legs.find((l: { ticker: string }) => l.ticker === 'SPY');
    const proof = await server.post('/api/stocks/reconcile-receipt', {
      planHash: spy.planHash,
      txHash: await trade(spy.tokenAddress, spy.amountUsdg),
    });
    expect(proof.json.receipt.status).toBe('onchain_confirmed');
    const before = partner.submissions().length;
    const res = await submit(body, planned.basketHash);
    expect(res.status, res.text).toBe(409);
    expect(res.json.error.code).toBe('BASKET_GATES_FAILED');
    expect(res.json.error.issues).toEqual([expect.objectContaining({ code: 'RECEIPT_NOT_SUBMITTABLE', path: 'legs.3' })]);
    expect(res.json.error.message).toContain('SPY');
    expect(partner.submissions().length).toBe(before);

    // An asset the Coil's own per-order limit leaves unplanned fails its gate the same way.
    const capped = basketBody('600', sixAssetCoil([{ kind: 'maxSingleOrderNotional', limit: 110 }]));
    const cappedPlan = await plan(capped);
    expect(cappedPlan.riskLimits).toMatchObject({ perLegNotionalCapUsd: 110, notionalCapSource: 'coil' });
    expect(cappedPlan.legs.find((l: { ticker: string }) => l.ticker === 'NVDA')).toMatchObject({ status: 'not_planned' });
    const refused = await submit(capped, cappedPlan.basketHash);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error.issues).toEqual([expect.objectContaining({ code: 'LEG_NOT_PLANNED', path: 'legs.0' })]);
    expect(partner.submissions().length).toBe(before);
  });

  it("slippage defaults to the Coil's own risk limit and is never planned above it; a changed intent is 409 BASKET_HASH_MISMATCH", async () => {
    const coil = sixAssetCoil([{ kind: 'maxSlippage', limit: 50 }]);
    const planned = await plan(basketBody('60', coil));
    expect(planned.riskLimits).toMatchObject({ maxSlippageBps: 50, slippageSource: 'coil' });
    expect(planned.legs[0].plan.intent.maxSlippageBps).toBe(50);
    const above = await server.post('/api/stocks/plan-basket', basketBody('60', coil, { maxSlippageBps: 100 }));
    expect(above.status).toBe(422);
    expect(above.json.error.issues[0]).toMatchObject({ code: 'BASKET_SLIPPAGE_ABOVE_COIL_LIMIT', path: 'maxSlippageBps' });

    const body = basketBody('60');
    const mine = await plan(body);
    const before = partner.submissions().length;
    const changed = await submit({ ...body, totalAmountUsdg: '61' }, mine.basketHash);
    expect(changed.status, changed.text).toBe(409);
    expect(changed.json.error.code).toBe('BASKET_HASH_MISMATCH');
    const unknown = await submit(body, 'e'.repeat(64));
    expect(unknown.status).toBe(404);
    expect(partner.submissions().length).toBe(before);
  });
});
