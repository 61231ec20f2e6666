/** The free vault analysis routes through the real server: fees, risk score, comparison. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

const addr = (t: string) => findAssetByTicker(t)!.address;

function expectChainBlocks(json: any) {
  expect(json.vaultChain).toEqual({
    name: 'broker_chain',
    chainId: 4663,
    baseAsset: 'USDG',
    baseAssetAddress: USDG.address,
    baseAssetDecimals: 6,
    role: expect.any(String),
  });
  // Without the facilitator the x402 lane is the partner cloud on base: reported apart from the vault chain.
  expect(json.x402PaymentChain).toMatchObject({
    lane: 'partnerCloud',
    paymentChain: 'base',
    chainId: 8453,
    asset: 'USDC',
    settlesHere: false,
  });
  expect(json.sourceVerification.every((b: any) => /^\d{4}-\d{2}-\d{2}$/.test(b.lastVerified))).toBe(true);
  expect(json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
}

describe('POST /api/vaults/fees/calculate', () => {
  it('answers the fee split with the schedule, byte-identical under a pinned nowIso', async () => {
    const body = { highWaterMarkUsdg: '10000', navUsdg: '12500.5', nowIso: '2026-11-01T00:00:00Z' };
    const a = await server.post('/api/vaults/fees/calculate', body);
    expect(a.status).toBe(200);
    expect(a.json.calculation).toMatchObject({
      profitAboveHighWaterMark: { usdg: '2500.5', units: '2500500000' },
      performanceFee: { usdg: '250.05' },
      protocolShare: { usdg: '25.005' },
      creatorShare: { usdg: '225.045' },
      managementFee: { units: '0' },
    });
    expect(a.json.feeSchedule.performanceFee).toMatchObject({ defaultBps: 1000, capBps: 1000, verifiedCreatorCapBps: 2000 });
    expect(a.json.generatedAt).toBe('2026-11-01T00:00:00.000Z');
    expectChainBlocks(a.json);
    const b = await server.post('/api/vaults/fees/calculate', body);
    expect(b.text).toBe(a.text);
  });

  it('refuses a fee above its cap (422) and a malformed amount (400) without clamping', async () => {
    const cap = await server.post('/api/vaults/fees/calculate', { highWaterMarkUsdg: '1', navUsdg: '2', performanceFeeBps: 1500 });
    expect(cap.status).toBe(422);
    expect(cap.json.error.code).toBe('PERF_FEE_CAP');
    expect(cap.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    const share = await server.post('/api/vaults/fees/calculate', { highWaterMarkUsdg: '1', navUsdg: '2', protocolShareBps: 2500 });
    expect(share.json.error.code).toBe('PROTOCOL_SHARE_CAP');
    const shape = await server.post('/api/vaults/fees/calculate', { highWaterMarkUsdg: '1.1234567', navUsdg: 2 });
    expect(shape.status).toBe(400);
    expect(shape.json.error.code).toBe('FEE_CONFIG_SHAPE');
    expect(shape.json.error.issues.map((i: any) => i.path).sort()).toEqual(['highWaterMarkUsdg', 'navUsdg']);
  });
});

describe('POST /api/vaults/risk-score', () => {
  it('scores a canonical composition', async () => {
    const res = await server.post('/api/vaults/risk-score', {
      allocations: [
        { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
        { tokenAddress: USDG.address, weightBps: 5000 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.riskScore.score.total).toBeGreaterThan(0);
    expect(res.json.riskScore.assets[0]).toMatchObject({ ticker: 'AAPL', tokenAddress: addr('AAPL'), kind: 'stock' });
    expectChainBlocks(res.json);
  });

  it('refuses a look-alike token (canonical ticker at another address) with 422 and issues', async () => {
    const res = await server.post('/api/vaults/risk-score', {
      allocations: [{ tokenAddress: '0x2222222222222222222222222222222222222222', ticker: 'NVDA', weightBps: 10000 }],
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VAULT_COMPOSITION_INVALID');
    expect(res.json.error.issues[0]).toMatchObject({ code: 'TICKER_ADDRESS_MISMATCH', path: 'allocations.0.tokenAddress' });
  });
});

describe('POST /api/vaults/compare', () => {
  it('puts vaults side by side in the given order, never ranked, never recommended', async () => {
    const res = await server.post('/api/vaults/compare', {
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
    });
    expect(res.status).toBe(200);
    expect(res.json.comparison.columns.map((c: any) => c.label)).toEqual(['B', 'A']);
    expect(res.json.comparison).toMatchObject({ ranked: false, recommendation: null, order: 'as_given' });
    expectChainBlocks(res.json);
  });

  it('needs two to five vaults', async () => {
    const res = await server.post('/api/vaults/compare', {
      vaults: [{ label: 'solo', allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('VAULT_COMPARISON_SHAPE');
  });
});
