/**
 * The strategist (interface 4.2) through the real server: only what crosses HTTP, the failure
 * body `{ error, code, prompt }` as sent (stamped with the invariants, nothing else) and REST
 * inputs never coerced. Provider selection, fallback and every failure code are tested in
 * process, in tests/inproc/strategist.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let unconfigured: TestServer; // STRATEGIST_PROVIDER=partner, nothing configured

beforeAll(async () => {
  unconfigured = await startServer({ env: { STRATEGIST_PROVIDER: 'partner' } });
});
afterAll(async () => {
  await unconfigured?.stop();
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
