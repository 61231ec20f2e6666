/**
 * The strategist (spec 4.2) through the real server, against the fake partner API: provider
 * selection, fallback, and every failure answered as `{ error, code, prompt }`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDR, UNKNOWN_ADDRESS } from '../support/coils';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';

const partnerKey = secretMarker('partner');
let partner: FakePartner;
let partnerOnly: TestServer; // STRATEGIST_PROVIDER=partner
let fallback: TestServer; // partner_or_mock, partner configured
let unconfigured: TestServer; // partner, nothing configured
let plain: TestServer; // defaults: partner_or_mock, nothing configured
const NOW = '2026-04-01T00:00:00Z';

const BASKET = {
  name: 'Partner accelerator basket',
  memo: { title: 'Accelerators', body: 'Demand for accelerators keeps growing across clouds.' },
  assets: [
    { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 4000, rationale: 'GPU leader.' },
    { ticker: 'AMD', tokenAddress: ADDR.AMD, weightBps: 3000, rationale: 'Second source.' },
    { ticker: 'MSFT', tokenAddress: ADDR.MSFT, weightBps: 3000, rationale: 'Cloud buyer.' },
  ],
  riskNotes: ['Concentrated in one theme.'],
};

function script(prompt: string) {
  if (prompt.includes('CASE:claim')) return { statuses: ['processing' as const, 'completed' as const], response: `Done! I bought 10 NVDA for you.\n${JSON.stringify(BASKET)}` };
  if (prompt.includes('CASE:noncanonical')) return { response: JSON.stringify({ ...BASKET, assets: [{ ...BASKET.assets[0], tokenAddress: UNKNOWN_ADDRESS }, BASKET.assets[1], BASKET.assets[2]] }) };
  if (prompt.includes('CASE:garbage')) return { response: 'Sure, here are some thoughts about chips without any JSON.' };
  if (prompt.includes('CASE:weights')) return { response: JSON.stringify({ ...BASKET, assets: [{ ...BASKET.assets[0], weightBps: 3999 }, BASKET.assets[1], BASKET.assets[2]] }) };
  if (prompt.includes('CASE:failed')) return { statuses: ['processing' as const, 'failed' as const] };
  if (prompt.includes('CASE:slow')) return { statuses: ['processing' as const] };
  return { statuses: ['pending' as const, 'completed' as const], response: '```json\n' + JSON.stringify(BASKET) + '\n```' };
}

beforeAll(async () => {
  partner = await startFakePartner({ apiKey: partnerKey, script });
  const partnerEnv = { PARTNER_API_URL: partner.url, PARTNER_API_KEY: partnerKey, PARTNER_TIMEOUT_MS: '2500' };
  [partnerOnly, fallback, unconfigured, plain] = await Promise.all([
    startServer({ env: { ...partnerEnv, STRATEGIST_PROVIDER: 'partner' } }),
    startServer({ env: { ...partnerEnv, STRATEGIST_PROVIDER: 'partner_or_mock' } }),
    startServer({ env: { STRATEGIST_PROVIDER: 'partner' } }),
    startServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([partnerOnly, fallback, unconfigured, plain].map((s) => s?.stop()));
  await partner?.stop();
});

function expectFailure(res: { status: number; json: any }, status: number, code: string, prompt: string) {
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({ code, prompt, notInvestmentAdvice: true, liveOrderSent: false });
  expect(typeof res.json.error).toBe('string');
  expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'liveOrderSent', 'notInvestmentAdvice', 'prompt']);
}

describe('GET /api/agent/svc', () => {
  it('reports the provider, whether the partner is configured, and planning only', async () => {
    expect((await partnerOnly.get('/api/agent/svc')).json).toMatchObject({ aiProvider: 'partner', requested: 'partner', partnerConfigured: true, planningOnly: true });
    expect((await fallback.get('/api/agent/svc')).json).toMatchObject({ aiProvider: 'partner', requested: 'partner_or_mock', partnerConfigured: true });
    expect((await unconfigured.get('/api/agent/svc')).json).toMatchObject({ aiProvider: 'partner', partnerConfigured: false });
    const res = await plain.get('/api/agent/svc');
    expect(res.json).toMatchObject({ aiProvider: 'mock', requested: 'partner_or_mock', partnerConfigured: false, planningOnly: true, notInvestmentAdvice: true, liveOrderSent: false });
  });
});

describe('POST /api/agent/svc with the partner', () => {
  it('asks the partner with X-API-Key, checks its basket and answers the common shape', async () => {
    const before = partner.submissions().length;
    const res = await partnerOnly.post('/api/agent/svc', { prompt: 'AI accelerators thesis', nowIso: NOW });
    expect(res.status).toBe(200);
    const sent = partner.submissions().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-api-key']).toBe(partnerKey);
    expect(JSON.parse(sent[0]!.body).prompt).toContain('AI accelerators thesis');
    expect(res.json.providerMeta).toEqual({ provider: 'partner', requested: 'partner', usedFallback: false });
    expect(res.json.manifest.assets.map((a: { ticker: string; weightBps: number }) => [a.ticker, a.weightBps])).toEqual([
      ['NVDA', 4000],
      ['AMD', 3000],
      ['MSFT', 3000],
    ]);
    expect(res.json.manifest.name).toBe('Partner accelerator basket');
    expect(res.json.memo.disclaimer).toMatch(/Not investment advice/);
    expect(res.json.receipt.validationStatus).toBe('valid');
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });

    const mock = await plain.post('/api/agent/svc', { prompt: 'AI accelerators thesis', nowIso: NOW });
    expect(Object.keys(res.json).sort()).toEqual(Object.keys(mock.json).sort());
    expect(Object.keys(res.json.manifest).sort()).toEqual(Object.keys(mock.json.manifest).sort());
    expect(Object.keys(res.json.score).sort()).toEqual(Object.keys(mock.json.score).sort());
  });

  it('a timeout is 502 PARTNER_TIMEOUT with the prompt echoed', async () => {
    partner.failNextSubmit({ kind: 'hang' });
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'hang please' }), 502, 'PARTNER_TIMEOUT', 'hang please');
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:slow thesis' }), 502, 'PARTNER_TIMEOUT', 'CASE:slow thesis');
  });

  it('a 5xx is 502 PARTNER_HTTP_ERROR, and so is a failed job', async () => {
    partner.failNextSubmit({ kind: 'status', status: 500 });
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'five hundred' }), 502, 'PARTNER_HTTP_ERROR', 'five hundred');
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:failed' }), 502, 'PARTNER_HTTP_ERROR', 'CASE:failed');
  });

  it('bad JSON, an answer without the basket, or broken weights are 502 PARTNER_INVALID_OUTPUT', async () => {
    partner.failNextJobRead({ kind: 'bad_json' });
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'bad json' }), 502, 'PARTNER_INVALID_OUTPUT', 'bad json');
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:garbage' }), 502, 'PARTNER_INVALID_OUTPUT', 'CASE:garbage');
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:weights' }), 502, 'PARTNER_INVALID_OUTPUT', 'CASE:weights');
  });

  it('an execution claim or a non-canonical asset in the answer is 502 GUARDRAIL_REJECTED', async () => {
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:claim' }), 502, 'GUARDRAIL_REJECTED', 'CASE:claim');
    const res = await partnerOnly.post('/api/agent/svc', { prompt: 'CASE:noncanonical' });
    expectFailure(res, 502, 'GUARDRAIL_REJECTED', 'CASE:noncanonical');
    expect(res.text).not.toContain(UNKNOWN_ADDRESS);
  });

  it('echoes the caller\'s prompt even when it reads like a claim (the output guard exempts the echo)', async () => {
    partner.failNextSubmit({ kind: 'status', status: 503 });
    const prompt = 'The partner sold my NVDA yesterday, rebuild the basket';
    expectFailure(await partnerOnly.post('/api/agent/svc', { prompt }), 502, 'PARTNER_HTTP_ERROR', prompt);
  });

  it('the same failure body on generate-coil', async () => {
    partner.failNextSubmit({ kind: 'status', status: 502 });
    expectFailure(await partnerOnly.post('/api/tools/generate-coil', { prompt: 'via tools' }), 502, 'PARTNER_HTTP_ERROR', 'via tools');
    const ok = await partnerOnly.post('/api/tools/generate-coil', { prompt: 'via tools' });
    expect(ok.status).toBe(200);
    expect(ok.json.providerMeta.provider).toBe('partner');
  });

  it('never sends an empty or whitespace-only thesis to the partner: 400 PROMPT_REQUIRED on both routes', async () => {
    const before = partner.requests.length;
    for (const path of ['/api/agent/svc', '/api/tools/generate-coil']) {
      const res = await partnerOnly.post(path, { prompt: '  \n ' });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('PROMPT_REQUIRED');
    }
    expect(partner.requests.length).toBe(before);
  });

  it('an unconfigured partner is 503 PARTNER_NOT_CONFIGURED', async () => {
    expectFailure(await unconfigured.post('/api/agent/svc', { prompt: 'anything' }), 503, 'PARTNER_NOT_CONFIGURED', 'anything');
    expectFailure(await unconfigured.post('/api/tools/generate-coil', { prompt: 'anything' }), 503, 'PARTNER_NOT_CONFIGURED', 'anything');
  });
});

describe('partner_or_mock', () => {
  it('uses the partner when it answers', async () => {
    const res = await fallback.post('/api/agent/svc', { prompt: 'AI accelerators thesis' });
    expect(res.json.providerMeta).toEqual({ provider: 'partner', requested: 'partner_or_mock', usedFallback: false });
  });

  it.each([
    ['a 5xx', () => partner.failNextSubmit({ kind: 'status', status: 500 }), 'AI chips', 'PARTNER_HTTP_ERROR'],
    ['a timeout', () => partner.failNextSubmit({ kind: 'hang' }), 'AI chips', 'PARTNER_TIMEOUT'],
    ['bad JSON', () => partner.failNextSubmit({ kind: 'bad_json' }), 'AI chips', 'PARTNER_INVALID_OUTPUT'],
    ['an execution claim', () => undefined, 'CASE:claim AI chips', 'GUARDRAIL_REJECTED'],
    ['a non-canonical asset', () => undefined, 'CASE:noncanonical AI chips', 'GUARDRAIL_REJECTED'],
  ])('falls back to the mock on %s and says why', async (_, arrange, prompt, code) => {
    arrange();
    const res = await fallback.post('/api/agent/svc', { prompt, nowIso: NOW });
    expect(res.status).toBe(200);
    expect(res.json.providerMeta).toMatchObject({ provider: 'mock', requested: 'partner_or_mock', usedFallback: true });
    expect(res.json.providerMeta.fallbackReason).toMatch(new RegExp(`^${code}: `));
    expect(res.json.manifest.assets.map((a: { ticker: string }) => a.ticker)).toContain('NVDA');
    expect(res.json.manifest.assets.some((a: { tokenAddress: string }) => a.tokenAddress === UNKNOWN_ADDRESS)).toBe(false);
  });

  it('answers with the mock when no partner is configured, and says so', async () => {
    const res = await plain.post('/api/agent/svc', { prompt: 'AI chips' });
    expect(res.status).toBe(200);
    expect(res.json.providerMeta).toMatchObject({ provider: 'mock', requested: 'partner_or_mock', usedFallback: true });
    expect(res.json.providerMeta.fallbackReason).toMatch(/^PARTNER_NOT_CONFIGURED/);
  });
});

describe('the local strategist through the server', () => {
  it('is byte-identical for the same request and nowIso, and refines a basket into a fork', async () => {
    const body = { prompt: 'semiconductors plus some treasuries', userPreferences: { riskTolerance: 'low', maxSingleAssetWeightBps: 3000 }, nowIso: NOW };
    const a = await plain.post('/api/agent/svc', body);
    const b = await plain.post('/api/agent/svc', body);
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    expect(a.json.manifest.assets.every((x: { weightBps: number }) => x.weightBps <= 3000)).toBe(true);

    const refined = await plain.post('/api/agent/svc', { prompt: 'add crypto', basketContext: a.json.manifest, nowIso: NOW });
    expect(refined.json.manifest).toMatchObject({ forkOf: a.json.manifest.slug, parentManifestHash: a.json.receipt.manifestHash });
    expect(refined.json.receipt.parentManifestHash).toBe(a.json.receipt.manifestHash);
    const bySlug = await plain.post('/api/agent/svc', { prompt: 'more energy', basketContext: { slug: refined.json.manifest.slug, assets: [{ tokenAddress: ADDR.SPY }] } });
    expect(bySlug.json.manifest.parentManifestHash).toBe(refined.json.receipt.manifestHash);
    const provenance = await plain.get(`/api/coil/provenance/${bySlug.json.receipt.manifestHash}`);
    expect(provenance.json.provenance.forkDepth).toBe(2);
  });

  it('answers each mode: paper, brokerage-mcp-plan, readiness check', async () => {
    const paper = await plain.post('/api/agent/svc', { prompt: 'AI chips', mode: 'paper' });
    expect(paper.json.manifest).toMatchObject({ mode: 'paper', executionMode: 'paper_only' });
    expect(paper.json.manifest.risk.liveExecutionAllowed).not.toBe(true);
    const plan = await plain.post('/api/agent/svc', { prompt: 'AI chips', mode: 'brokerage-mcp-plan' });
    expect(plan.json.plan.compileOnly).toBe(true);
    expect(plan.json.manifest.mode).toBe('brokerage-mcp-plan');
    expect((await plain.post('/api/agent/svc', { prompt: 'AI chips' })).json.manifest.mode).toBe('readiness-check');
    expect((await plain.post('/api/agent/svc', { prompt: 'AI chips', mode: 'live' })).status).toBe(400);
  });

  it('validates its input: PROMPT_REQUIRED, PROMPT_TOO_LONG, preferences never coerced', async () => {
    expect((await plain.post('/api/agent/svc', {})).json.error.code).toBe('PROMPT_REQUIRED');
    for (const prompt of ['', ' \t\n ']) {
      const blank = await plain.post('/api/agent/svc', { prompt, nowIso: NOW });
      expect(blank.status, blank.text).toBe(400);
      expect(blank.json.error).toMatchObject({ code: 'PROMPT_REQUIRED', issues: [expect.objectContaining({ path: 'prompt' })] });
      expect(blank.text).not.toMatch(/Default diversified basket/);
    }
    expect((await plain.post('/api/agent/svc', { prompt: 'y'.repeat(2001) })).json.error.code).toBe('PROMPT_TOO_LONG');
    const cap = await plain.post('/api/agent/svc', { prompt: 'x', userPreferences: { maxSingleAssetWeightBps: '3000' } });
    expect(cap.status).toBe(400);
    expect(cap.json.error.issues[0].path).toBe('userPreferences.maxSingleAssetWeightBps');
    const infeasible = await plain.post('/api/agent/svc', { prompt: 'x', userPreferences: { maxSingleAssetWeightBps: 600 } });
    expect(infeasible.status).toBe(400);
    expect(infeasible.json.error.code).toBe('PREFERENCES_INFEASIBLE');
  });
});
