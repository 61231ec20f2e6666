/**
 * `nowIso` is one rule on every route (issue 34): an instant whose UTC form has a four-digit
 * year, so one past 9999-12-31T23:59:59.999Z once converted to UTC (a +10000 year, or a zone
 * offset pushing the last day over) is 400 NOW_ISO_INVALID in the envelope instead of an answer
 * hashed with an expanded year; and the share card's SVG and PNG routes refuse a malformed
 * `nowIso` like every other route instead of ignoring it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let receiptId: string;
const NOW = '2026-03-01T12:00:00Z';

beforeAll(async () => {
  server = await startServer();
  receiptId = (await server.post('/api/tools/receipt', { coil: rawCoil(), nowIso: NOW })).json.receipt.receiptId;
});
afterAll(async () => {
  await server?.stop();
});

const PAST_THE_LAST_YEAR = [
  '+010000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '9999-12-31T23:00:00-01:00',
  '9999-12-31T20:00:00.000-05:00',
  '0000-01-01T00:30:00+01:00',
];

function expectNowIsoRefused(res: { status: number; json: any }) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe('NOW_ISO_INVALID');
  expect(res.json.error.issues[0]).toMatchObject({ code: 'NOW_ISO_INVALID', path: 'nowIso' });
}

describe('nowIso past 9999-12-31T23:59:59.999Z in UTC', () => {
  it.each(PAST_THE_LAST_YEAR)('POST /api/tools/validate-coil refuses %s with 400 NOW_ISO_INVALID', async (nowIso) => {
    const res = await server.post('/api/tools/validate-coil', { coil: rawCoil(), nowIso });
    expectNowIsoRefused(res);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('refuses it on a GET route and over tRPC too', async () => {
    expectNowIsoRefused(await server.get(`/api/health?nowIso=${encodeURIComponent('9999-12-31T23:00:00-01:00')}`));
    const trpc = await server.post('/trpc/tools.validateCoil', { coil: rawCoil(), nowIso: '9999-12-31T23:00:00-01:00' });
    expect(trpc.status).toBe(400);
    expect(trpc.json.error.data.svcCode).toBe('NOW_ISO_INVALID');
  });

  it.each(['9999-12-31T23:59:59.999Z', '9999-12-31T23:30:00+00:30', '0000-01-01T00:00:00Z'])(
    'accepts the edge %s, which stays within four-digit UTC years',
    async (nowIso) => {
      const res = await server.post('/api/tools/validate-coil', { coil: rawCoil(), nowIso });
      expect(res.status).toBe(200);
      expect(res.json.generatedAt).toBe(new Date(nowIso).toISOString());
      expect(res.json.generatedAt).toMatch(/^\d{4}-/);
    },
  );
});

describe('the share card images refuse a malformed nowIso like every route', () => {
  it.each(['svg', 'png'])('GET /api/share-card/{receiptId}.%s answers 200 without nowIso and with a good one', async (format) => {
    expect((await server.get(`/api/share-card/${receiptId}.${format}`)).status).toBe(200);
    expect((await server.get(`/api/share-card/${receiptId}.${format}?nowIso=${NOW}`)).status).toBe(200);
  });

  it.each([
    ['svg', 'yesterday'],
    ['png', 'yesterday'],
    ['svg', '2026-02-30T00:00:00Z'],
    ['png', '10000-01-01T00:00:00Z'],
  ])('GET /api/share-card/{receiptId}.%s?nowIso=%s is 400 NOW_ISO_INVALID in the envelope', async (format, nowIso) => {
    const res = await server.get(`/api/share-card/${receiptId}.${format}?nowIso=${encodeURIComponent(nowIso)}`);
    expectNowIsoRefused(res);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('declares the 400 in the OpenAPI document', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    for (const format of ['svg', 'png']) expect(doc.paths[`/share-card/{receiptId}.${format}`].get.responses['400']).toBeDefined();
  });
});
