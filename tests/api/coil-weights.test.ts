/**
 * A Coil's weights are checked as integers in their range (1 to 10000 bps) by the one Coil
 * schema, before any arithmetic, on every route that takes a Coil (issue 34): a finite weight
 * such as 1e308 overflowed the sums into a 500 INTERNAL (the fuzzer's plain profile, seed 4242).
 * Through the real server, over REST, tRPC and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { connectHttp, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let mcp: McpTestClient;
const NOW = '2026-03-01T12:00:00Z';

beforeAll(async () => {
  server = await startServer();
  mcp = await connectHttp(server);
});
afterAll(async () => {
  await mcp?.client.close();
  await server?.stop();
});

/** The test Coil with its first asset weighing `weight` (a JSON number text, so 1e+308 stays one). */
function coilBody(weight: string, extra: Record<string, unknown> = {}): string {
  const coil = rawCoil();
  const marker = 424242;
  (coil.assets[0] as { weightBps: number }).weightBps = marker;
  return JSON.stringify({ coil, nowIso: NOW, ...extra }).replace(String(marker), weight);
}

const WEIGHTS = ['1e+308', '1.7976931348623157e308', '-1e308', '10001', '0', '2500.5'];

function expectWeightRefused(status: number, error: { code?: string; issues?: { path: string }[] }, path = 'coil.assets.0.weightBps') {
  expect(status).toBe(400);
  expect(error.code).toBe('COIL_SHAPE');
  expect(error.issues?.map((i) => i.path)).toContain(path);
}

describe('a weight out of its integer range is a 400 before any arithmetic', () => {
  it.each(WEIGHTS)('REST score-coil refuses weightBps %s with 400 COIL_SHAPE naming the weight', async (weight) => {
    const res = await server.request('POST', '/api/tools/score-coil', {
      rawBody: coilBody(weight),
      headers: { 'content-type': 'application/json' },
    });
    expectWeightRefused(res.status, res.json.error);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it.each([
    '/api/tools/validate-coil',
    '/api/tools/risk-audit',
    '/api/tools/receipt',
    '/api/tools/share-card',
    '/api/tools/compile-capsule',
    '/api/partnerbot/validate-autonomy',
  ])('every REST route that takes a Coil refuses weightBps 1e+308: %s', async (path) => {
    const res = await server.request('POST', path, { rawBody: coilBody('1e+308'), headers: { 'content-type': 'application/json' } });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('weightBps');
  });

  it('REST drift-check refuses it too', async () => {
    const res = await server.request('POST', '/api/tools/drift-check', {
      rawBody: coilBody('1e+308', { currentWeightsBps: {} }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, res.text).toBe(400);
  });

  it('tRPC tools.scoreCoil refuses it with 400 COIL_SHAPE', async () => {
    const res = await server.request('POST', '/trpc/tools.scoreCoil', {
      rawBody: coilBody('1e+308'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.data.svcCode).toBe('COIL_SHAPE');
  });

  it('MCP svc_score_coil refuses it as a tool error with COIL_SHAPE, never INTERNAL', async () => {
    const coil = rawCoil();
    (coil.assets[0] as { weightBps: number }).weightBps = 1e308;
    const answer = await mcp.call('svc_score_coil', { coil, nowIso: NOW });
    expect(answer.isError).toBe(true);
    expect(answer.body.error.code).toBe('COIL_SHAPE');
    expect(answer.body).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('a Coil whose weights are in range but do not add up still gets its WEIGHTS_SUM issue', async () => {
    const res = await server.request('POST', '/api/tools/validate-coil', {
      rawBody: coilBody('3999'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.json.validation.issues.map((i: { code: string }) => i.code)).toContain('WEIGHTS_SUM');
  });
});
