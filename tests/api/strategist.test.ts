/**
 * The strategist (interface 4.2) through the real server: only what crosses HTTP, the failure
 * body `{ error, code, prompt }` as sent (stamped with the invariants, nothing else) and REST
 * inputs never coerced. Provider selection, fallback and every failure code are tested in
 * process, in tests/inproc/strategist.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { withoutSignatures } from '../support/signatures';

let unconfigured: TestServer; // STRATEGIST_PROVIDER=partner, nothing configured
let local: TestServer; // STRATEGIST_PROVIDER=mock

beforeAll(async () => {
  [unconfigured, local] = await Promise.all([
    startServer({ env: { STRATEGIST_PROVIDER: 'partner' } }),
    startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([unconfigured?.stop(), local?.stop()]);
});

describe('POST /api/agent/svc over HTTP', () => {
  it('a failure is { error, code, prompt } with the invariants and nothing else, with its status', async () => {
    for (const path of ['/api/agent/svc', '/api/tools/generate-coil']) {
      const res = await unconfigured.post(path, { prompt: 'anything' });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({
        code: 'PARTNER_NOT_CONFIGURED',
        prompt: 'anything',
        notInvestmentAdvice: true,
        liveOrderSent: false,
      });
      expect(typeof res.json.error).toBe('string');
      expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'liveOrderSent', 'notInvestmentAdvice', 'prompt']);
    }
  });

  it('never coerces a preference given as a string', async () => {
    const cap = await unconfigured.post('/api/agent/svc', { prompt: 'x', userPreferences: { maxSingleAssetWeightBps: '3000' } });
    expect(cap.status).toBe(400);
    expect(cap.json.error.issues[0].path).toBe('userPreferences.maxSingleAssetWeightBps');
  });
});

describe('corrections over HTTP (issue 33)', () => {
  const NOW_ISO = '2026-06-01T00:00:00.000Z';
  const prompt = 'Dump Tesla and move into Nvidia and Microsoft';

  it('both routes take them, and the same thesis, corrections and nowIso answer the same receipt, byte for byte', async () => {
    const corrections = { included: ['TSLA'], excluded: ['MSFT'], riskTolerance: 'low' };
    for (const path of ['/api/tools/generate-coil', '/api/agent/svc']) {
      const a = await local.post(path, { prompt, corrections, nowIso: NOW_ISO });
      expect(a.status, a.text).toBe(200);
      const coil = a.json.coil ?? a.json.manifest;
      const tickers = coil.assets.map((x: { ticker: string }) => x.ticker);
      expect(tickers).toContain('TSLA');
      expect(tickers).not.toContain('MSFT');
      expect(a.json.reading.corrections).toEqual(corrections);
      expect(a.json.reading.included).toContainEqual({ ticker: 'TSLA', because: 'included by a correction', source: 'correction' });
      const b = await local.post(path, { prompt, corrections, nowIso: NOW_ISO });
      expect(JSON.stringify(withoutSignatures(b.json.receipt))).toBe(JSON.stringify(withoutSignatures(a.json.receipt)));
      const other = await local.post(path, { prompt, corrections: { excluded: ['NVDA'] }, nowIso: NOW_ISO });
      expect(other.json.receipt.receiptId).not.toBe(a.json.receipt.receiptId);
    }
  });

  it('a correction outside the registry, or a string for a number, is 400 with its path (never clamped or coerced)', async () => {
    const bad = await local.post('/api/tools/generate-coil', { prompt, corrections: { excluded: ['Tesla'] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe('corrections.excluded.0');
    const coerced = await local.post('/api/agent/svc', { prompt, corrections: { pinned: [{ ticker: 'NVDA', bps: '3000' }] } });
    expect(coerced.status).toBe(400);
    expect(coerced.json.error.issues[0].path).toBe('corrections.pinned.0.bps');
  });

  it('refuses a negative weight with the long-only explanation: 422 THESIS_NOT_EXPRESSIBLE', async () => {
    const res = await local.post('/api/tools/generate-coil', { prompt: '-30% TSLA, 130% NVDA' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'THESIS_NOT_EXPRESSIBLE',
      message: expect.stringMatching(/long-only/),
      issues: [expect.objectContaining({ code: 'NEGATIVE_WEIGHT', path: 'prompt' })],
    });
  });
});
