/**
 * Acting on a basket (stocks.planBasket, POST /api/stocks/plan-basket): a total USDG amount
 * split over a Coil's assets by weight, one stock plan per asset through the lane's own
 * prepare, and the assets the lane refuses named with its reasons. Nothing is placed and the
 * partner is never contacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePlanHash } from '../../src/lib/server/stocks/plan';
import { USDG } from '../../src/lib/server/registry';
import { inProcess } from '../support/caller';
import { ADDR, rawCoil, UNKNOWN_ADDRESS } from '../support/coils';
import { startFakePartner, type FakePartner } from '../support/fake-partner';

const acks = { userAcknowledgedTokenizedExposureNotDirectStockOwnership: true, userAcknowledgedPartnerExecutesTrade: true };
const NOW_ISO = '2026-03-01T12:00:00.000Z';
const laneOff = inProcess();
let partner: FakePartner;
let laneOn: ReturnType<typeof inProcess>;

beforeAll(async () => {
  partner = await startFakePartner({ apiKey: 'svc-test-partner-key-basket-01' });
  laneOn = inProcess({
    env: { PARTNER_API_URL: partner.url, PARTNER_API_KEY: 'svc-test-partner-key-basket-01', PARTNER_AGENT_API_ENABLED: 'true' },
  });
});
afterAll(async () => {
  await partner?.stop();
});

describe('stocks.planBasket', () => {
  it('plans every asset with its share of the total, each with its plan hash and command pack, and contacts nobody', async () => {
    const res = await laneOn.call('stocks.planBasket', {
      coil: rawCoil(),
      totalAmountUsdg: '100',
      maxSlippageBps: 100,
      ...acks,
      nowIso: NOW_ISO,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      totalAmountUsdg: '100',
      plannedAmountUsdg: '100',
      notPlannedAmountUsdg: '0',
      plannedCount: 3,
      notPlannedCount: 0,
      partnerContacted: false,
      svcExecutesTrade: false,
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(res.json.legs.map((l: any) => [l.ticker, l.amountUsdg, l.status])).toEqual([
      ['NVDA', '40', 'planned'],
      ['AMD', '30', 'planned'],
      ['MSFT', '30', 'planned'],
    ]);
    for (const leg of res.json.legs) {
      // The plan hash is the lane's own: recomputable from the plan's intent and generatedAt.
      expect(leg.planHash).toBe(computePlanHash(leg.plan.intent, new Date(NOW_ISO)));
      expect(leg.plan.intent).toMatchObject({
        side: 'buy',
        inputAsset: 'USDG',
        inputAmount: leg.amountUsdg,
        targetTokenAddress: leg.tokenAddress,
      });
      expect(leg.commandPack.social).toBe(`@partnerbot buy $${leg.amountUsdg} of ${leg.ticker} on broker`);
      expect(leg.commandPack.handOver).toMatchObject({ runsTheTrade: 'partner', throughThisService: true });
      expect(leg.receipt.status).toBe('prepared');
      // The same plan through the single-asset route answers the same hash.
      const single = await laneOn.call('stocks.prepare', { intent: leg.plan.intent, nowIso: NOW_ISO });
      expect(single.json.planHash).toBe(leg.planHash);
    }
    expect(partner.requests.length).toBe(0);
  });

  it('gives the units left over to the largest remainders, so the shares add up to the total exactly', async () => {
    const coil = rawCoil({
      assets: [
        { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 3333, rationale: 'a' },
        { ticker: 'AMD', tokenAddress: ADDR.AMD, weightBps: 3333, rationale: 'b' },
        { ticker: 'MSFT', tokenAddress: ADDR.MSFT, weightBps: 3334, rationale: 'c' },
      ],
    });
    const res = await laneOff.call('stocks.planBasket', { coil, totalAmountUsdg: '0.00001', maxSlippageBps: 50, ...acks, nowIso: NOW_ISO });
    expect(res.status).toBe(200);
    // 10 units: 3.333 / 3.333 / 3.334 → floors 3, 3, 3 and one unit left, to MSFT (largest remainder).
    expect(res.json.legs.map((l: any) => l.amountUsdg)).toEqual(['0.000003', '0.000003', '0.000004']);
  });

  it('names the assets that cannot be planned and why, without moving their share to another asset', async () => {
    const coil = rawCoil({
      mode: 'paper',
      assets: [
        { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 5000, rationale: 'a' },
        { ticker: 'USDG', tokenAddress: USDG.address, weightBps: 2000, rationale: 'cash' },
        { ticker: 'XYZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 3000, rationale: 'not in the registry' },
      ],
    });
    const res = await laneOff.call('stocks.planBasket', { coil, totalAmountUsdg: '1200', maxSlippageBps: 100, ...acks, nowIso: NOW_ISO });
    expect(res.status).toBe(200);
    const [nvda, usdg, xyz] = res.json.legs;
    // 600 USDG is above the default 500 USD notional cap: refused, not reduced.
    expect(nvda).toMatchObject({ status: 'not_planned', amountUsdg: '600', reasonCode: 'STOCK_INTENT_INVALID' });
    expect(nvda.reasons.map((r: any) => r.code)).toContain('INPUT_AMOUNT_ABOVE_MAX_NOTIONAL');
    expect(usdg).toMatchObject({ status: 'not_planned', amountUsdg: '240' });
    expect(usdg.reasons.map((r: any) => r.code)).toContain('TARGET_NOT_STOCK_TOKEN');
    expect(xyz).toMatchObject({ status: 'not_planned', amountUsdg: '360' });
    expect(xyz.reasons.map((r: any) => r.code)).toContain('NON_CANONICAL_ADDRESS');
    expect(res.json).toMatchObject({ plannedAmountUsdg: '0', notPlannedAmountUsdg: '1200', plannedCount: 0, notPlannedCount: 3 });
  });

  it('reports a missing acknowledgment on every leg, and the pack names no placeholder address as one', async () => {
    const res = await laneOff.call('stocks.planBasket', { coil: rawCoil(), totalAmountUsdg: '10', maxSlippageBps: 100, nowIso: NOW_ISO });
    expect(res.status).toBe(200);
    for (const leg of res.json.legs) expect(leg.reasons.map((r: any) => r.code)).toContain('ACK_TOKENIZED_EXPOSURE_REQUIRED');
    const planned = await laneOff.call('stocks.planBasket', {
      coil: rawCoil(),
      totalAmountUsdg: '10',
      maxSlippageBps: 100,
      ...acks,
      nowIso: NOW_ISO,
    });
    const handOver = planned.json.legs[0].commandPack.handOver;
    expect(handOver.throughThisService).toBe(false);
    expect(handOver.steps.join(' ')).not.toContain('{partner_api_url}');
    expect(handOver.steps.join(' ')).toContain('no partner API address is configured on this deployment');
  });

  it('refuses a total that is not a positive amount, and weights that do not add up, naming the field', async () => {
    for (const totalAmountUsdg of ['0', '-5', '1.1234567', 'ten', '']) {
      const res = await laneOff.call('stocks.planBasket', { coil: rawCoil(), totalAmountUsdg, maxSlippageBps: 100, ...acks });
      expect(res.status).toBe(422);
      expect(res.json.error.code).toBe('BASKET_INVALID');
      expect(res.json.error.issues[0]).toMatchObject({ code: 'BASKET_AMOUNT_INVALID', path: 'totalAmountUsdg' });
    }
    const uneven = rawCoil();
    uneven.assets[0]!.weightBps = 3999;
    const res = await laneOff.call('stocks.planBasket', { coil: uneven, totalAmountUsdg: '10', maxSlippageBps: 100, ...acks });
    expect(res.status).toBe(422);
    expect(res.json.error.issues[0].code).toBe('BASKET_WEIGHTS_INVALID');
    const shape = await laneOff.call('stocks.planBasket', {
      coil: { assets: 'none' },
      totalAmountUsdg: '10',
      maxSlippageBps: 100,
      ...acks,
    });
    expect(shape.status).toBe(400);
    expect(shape.json.error.code).toBe('COIL_SHAPE');
  });
});
