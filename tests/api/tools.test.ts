/**
 * The tools API (interface 4.3) through the real server: what crosses HTTP only (the stamped
 * error envelope, REST inputs never coerced, the share-card image, the OpenAPI document and
 * the typed client at /trpc). The procedures' logic is tested in process, in
 * tests/inproc/tools.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_FUSES, rawCoil } from '../support/coils';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
const NOW = '2026-03-01T12:00:00Z';

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
});
afterAll(async () => {
  await server?.stop();
});

function expectToolEnvelope(json: Record<string, unknown>, tool: string) {
  expect(json).toMatchObject({ tool, notInvestmentAdvice: true, liveOrderSent: false });
  expect(typeof json.generatedAt).toBe('string');
}

describe('POST /api/tools/validate-coil', () => {
  it('rejects a string where a number or a boolean is expected, never coercing it', async () => {
    const weight = rawCoil();
    (weight.assets[0] as { weightBps: unknown }).weightBps = '4000';
    const w = await server.post('/api/tools/validate-coil', { coil: weight });
    expect(w.status).toBe(400);
    expect(w.json.error).toMatchObject({ code: 'COIL_SHAPE' });
    expect(w.json.error.issues[0].path).toBe('coil.assets.0.weightBps');
    const flag = rawCoil();
    (flag.risk as { allowNonCanonicalAssets: unknown }).allowNonCanonicalAssets = 'false';
    const f = await server.post('/api/tools/validate-coil', { coil: flag });
    expect(f.status).toBe(400);
    expect(f.json.error.issues[0].path).toBe('coil.risk.allowNonCanonicalAssets');
    // Outside the Coil too: the REST dispatch hands the procedure the JSON as sent.
    const ack = await server.post('/api/tools/compile-capsule', {
      coil: rawCoil({ mode: 'brokerage-mcp-plan', fuses: FULL_FUSES }),
      options: { userAcknowledgedAgenticMode: 'false' },
    });
    expect(ack.status).toBe(400);
    expect(ack.json.error.issues[0].path).toBe('options.userAcknowledgedAgenticMode');
    const bps = await server.post('/api/tools/drift-check', { coil: rawCoil(), currentWeightsBps: { NVDA: '12abc' } });
    expect(bps.status).toBe(400);
    expect(bps.json.error.issues[0].path).toBe('currentWeightsBps.NVDA');
  });
});

describe('POST /api/tools/compile-capsule', () => {
  const coil = rawCoil({ fuses: FULL_FUSES });
  it('bounds maxTotalNotionalUsd and never coerces it', async () => {
    const over = await server.post('/api/tools/compile-capsule', { coil, options: { maxTotalNotionalUsd: 20_000 } });
    expect(over.status).toBe(422);
    expect(over.json.error.issues[0].code).toBe('NOTIONAL_CAP_EXCEEDED');
    const negative = await server.post('/api/tools/compile-capsule', { coil, options: { maxTotalNotionalUsd: -5 } });
    expect(negative.status).toBe(400);
    const text = await server.post('/api/tools/compile-capsule', { coil, options: { maxTotalNotionalUsd: '500' } });
    expect(text.status).toBe(400);
  });
});

describe('POST /api/tools/share-card and the SVG image', () => {
  it('returns a thesis card and serves it as an escaped SVG image', async () => {
    const coil = rawCoil({
      name: 'Chips <&> "AI"',
      memo: { title: '<script>alert(1)</script>', body: 'Accelerators keep scaling.', disclaimer: 'Not investment advice.' },
    });
    const res = await server.post('/api/tools/share-card', { coil, shareUrlBase: 'https://share.example/c', nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'share-card');
    const { card, receipt } = res.json;
    expect(card).toMatchObject({ kind: 'thesis', title: 'Chips <&> "AI"', receiptId: receipt.receiptId });
    expect(card.shareUrl).toBe(`https://share.example/c/${receipt.receiptId}.svg`);
    expect(card.imageUrl).toBe(`${server.url}/api/share-card/${receipt.receiptId}.svg`);
    expect(card.disclaimer).toMatch(/not a performance claim/);

    const img = await fetch(`${server.url}/api/share-card/${receipt.receiptId}.svg`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await img.text();
    expect(svg).toContain('<svg');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).toContain('Chips &lt;&amp;&gt; &quot;AI&quot;');
    expect(svg).toContain('NVDA');
    expect(svg).toContain(receipt.receiptId);
  });

  it('answers 404 for an unknown receipt image, in the envelope', async () => {
    const res = await server.get(`/api/share-card/hrcpt_${'0'.repeat(32)}.svg`);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('RECEIPT_NOT_FOUND');
    expect((await server.get('/api/share-card/not-a-receipt.svg')).status).toBe(404);
  });
});

describe("the caller's own words in tool answers: never a 500", () => {
  it('a share card whose asset rationale claims an execution is refused, and so is its SVG image (422, not 500)', async () => {
    const coil = rawCoil({ mode: 'brokerage-mcp-plan', executionMode: 'human_confirm', fuses: FULL_FUSES });
    coil.assets[0]!.rationale = 'The service executed the trade already.';
    const res = await server.post('/api/tools/share-card', { coil, nowIso: NOW });
    expect(res.status).toBe(422);
    expect(res.json.error.issues).toEqual([expect.objectContaining({ code: 'EXECUTION_CLAIM_TEXT', path: 'coil.assets[0].rationale' })]);
    const { receiptId } = (await server.post('/api/tools/receipt', { coil, nowIso: NOW })).json.receipt;
    const img = await server.get(`/api/share-card/${receiptId}.svg`);
    expect(img.status).toBe(422);
    expect(img.json.error.code).toBe('SHARE_CARD_REJECTED');
    expect(img.text).not.toContain('executed the trade');
  });
});

describe('documentation and the typed client', () => {
  it('lists every tools route, the image route and the passport caps in the OpenAPI document', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    for (const path of [
      '/tools/generate-coil',
      '/tools/validate-coil',
      '/tools/score-coil',
      '/tools/compile-capsule',
      '/tools/risk-audit',
      '/tools/drift-check',
      '/tools/receipt',
      '/tools/share-card',
      '/coil/verify',
      '/coil/provenance/{manifestHash}',
      '/agents/passport/{agentId}',
      '/agent/svc',
      '/share-card/{receiptId}.svg',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const passport = doc.paths['/agents/passport/{agentId}'].get.description as string;
    for (const text of ['x6 capped at 300', 'x5 capped at 250', 'x2 capped at 200', 'x2 capped at 250', 'strategist id'])
      expect(passport).toContain(text);
    expect(doc.paths['/share-card/{receiptId}.svg'].get.responses['200'].content['image/svg+xml']).toBeDefined();
  });

  it('serves the same procedures to the typed client at /trpc', async () => {
    const res = await server.post('/trpc/tools.validateCoil', { coil: rawCoil() });
    expect(res.status).toBe(200);
    expect(res.json.result.data.validation.valid).toBe(true);
    const bad = await server.post('/trpc/tools.compileCapsule', { coil: { ...rawCoil(), mode: 'paper' } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.data.svcCode).toBe('CAPSULE_COMPILE');
    const shape = await server.post('/trpc/tools.validateCoil', { coil: { name: 'half' } });
    expect(shape.status).toBe(400);
    expect(shape.json.error.data.svcCode).toBe('COIL_SHAPE');
    const prompt = await server.post('/trpc/tools.generateCoil', { prompt: 'x'.repeat(2001) });
    expect(prompt.json.error.data.svcCode).toBe('PROMPT_TOO_LONG');
  });
});

describe('refusals over HTTP', () => {
  it('are the stamped envelope with the mapped status, for an empty thesis and for something that is not a Coil', async () => {
    const prompt = await server.post('/api/tools/generate-coil', { prompt: '   ', nowIso: NOW });
    expect(prompt.status).toBe(400);
    expect(prompt.json).toMatchObject({ error: { code: 'PROMPT_REQUIRED' }, notInvestmentAdvice: true, liveOrderSent: false });
    const shape = await server.post('/api/tools/validate-coil', { coil: { name: 'half' } });
    expect(shape.status).toBe(400);
    expect(shape.json).toMatchObject({ error: { code: 'COIL_SHAPE' }, notInvestmentAdvice: true, liveOrderSent: false });
  });
});
