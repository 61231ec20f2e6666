/**
 * The strategist (interface 4.2) in process, against the fake partner API: provider selection,
 * fallback, and every failure answered as `{ error, code, prompt }`. The failure body as sent
 * over HTTP (stamped with the invariants) and REST inputs never coerced are in
 * tests/api/strategist.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadThesisNlp } from '../../src/lib/server/strategist';
import { inProcess, type InProcessAnswer } from '../support/caller';
import { ADDR, UNKNOWN_ADDRESS } from '../support/coils';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { secretMarker } from '../support/server';

const partnerKey = secretMarker('partner');
let partner: FakePartner;
type Door = ReturnType<typeof inProcess>;
let partnerOnly: Door; // STRATEGIST_PROVIDER=partner
let fallback: Door; // partner_or_mock, partner configured
const unconfigured = inProcess({ env: { STRATEGIST_PROVIDER: 'partner' } });
const plain = inProcess(); // defaults: partner_or_mock, nothing configured
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
  if (prompt.includes('CASE:claim'))
    return {
      statuses: ['processing' as const, 'completed' as const],
      response: `Done! I bought 10 NVDA for you.\n${JSON.stringify(BASKET)}`,
    };
  if (prompt.includes('CASE:noncanonical'))
    return {
      response: JSON.stringify({
        ...BASKET,
        assets: [{ ...BASKET.assets[0], tokenAddress: UNKNOWN_ADDRESS }, BASKET.assets[1], BASKET.assets[2]],
      }),
    };
  if (prompt.includes('CASE:garbage')) return { response: 'Sure, here are some thoughts about chips without any JSON.' };
  if (prompt.includes('CASE:weights'))
    return {
      response: JSON.stringify({ ...BASKET, assets: [{ ...BASKET.assets[0], weightBps: 3999 }, BASKET.assets[1], BASKET.assets[2]] }),
    };
  // A well-formed basket that ignores the thesis's reading: it holds AMD and NVDA at 4000 and 3000.
  if (prompt.includes('CASE:ignores-reading')) return { response: JSON.stringify(BASKET) };
  if (prompt.includes('CASE:failed')) return { statuses: ['processing' as const, 'failed' as const] };
  if (prompt.includes('CASE:slow')) return { statuses: ['processing' as const] };
  return { statuses: ['pending' as const, 'completed' as const], response: '```json\n' + JSON.stringify(BASKET) + '\n```' };
}

beforeAll(async () => {
  // The reader's language model loads on the first thesis; loaded here, no test's clock pays it.
  await loadThesisNlp();
  partner = await startFakePartner({ apiKey: partnerKey, script });
  const partnerEnv = { PARTNER_API_URL: partner.url, PARTNER_API_KEY: partnerKey, PARTNER_TIMEOUT_MS: '2500' };
  partnerOnly = inProcess({ env: { ...partnerEnv, STRATEGIST_PROVIDER: 'partner' } });
  fallback = inProcess({ env: { ...partnerEnv, STRATEGIST_PROVIDER: 'partner_or_mock' } });
});
afterAll(async () => {
  await partner?.stop();
});

/** The strategist's own failure body; the invariants stamped on it over HTTP are tested there. */
function expectFailure(res: InProcessAnswer, status: number, code: string, prompt: string) {
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({ code, prompt });
  expect(typeof res.json.error).toBe('string');
  expect(Object.keys(res.json).sort()).toEqual(['code', 'error', 'prompt']);
}

describe('strategist status', () => {
  it('reports the provider, whether the partner is configured, and planning only', async () => {
    expect((await partnerOnly.call('strategist.status')).json).toMatchObject({
      aiProvider: 'partner',
      requested: 'partner',
      partnerConfigured: true,
      planningOnly: true,
    });
    expect((await fallback.call('strategist.status')).json).toMatchObject({
      aiProvider: 'partner',
      requested: 'partner_or_mock',
      partnerConfigured: true,
    });
    expect((await unconfigured.call('strategist.status')).json).toMatchObject({ aiProvider: 'partner', partnerConfigured: false });
    const res = await plain.call('strategist.status');
    expect(res.json).toMatchObject({
      aiProvider: 'mock',
      requested: 'partner_or_mock',
      partnerConfigured: false,
      planningOnly: true,
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
  });
});

describe('the strategist with the partner', () => {
  it('asks the partner with X-API-Key, checks its basket and answers the common shape', async () => {
    const before = partner.submissions().length;
    const res = await partnerOnly.call('strategist.generate', { prompt: 'AI accelerators thesis', nowIso: NOW });
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

    const mock = await plain.call('strategist.generate', { prompt: 'AI accelerators thesis', nowIso: NOW });
    expect(Object.keys(res.json).sort()).toEqual(Object.keys(mock.json).sort());
    expect(Object.keys(res.json.manifest).sort()).toEqual(Object.keys(mock.json.manifest).sort());
    expect(Object.keys(res.json.score).sort()).toEqual(Object.keys(mock.json.score).sort());
  });

  it('a timeout is 502 PARTNER_TIMEOUT with the prompt echoed', async () => {
    partner.failNextSubmit({ kind: 'hang' });
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'hang please' }), 502, 'PARTNER_TIMEOUT', 'hang please');
    expectFailure(
      await partnerOnly.call('strategist.generate', { prompt: 'CASE:slow thesis' }),
      502,
      'PARTNER_TIMEOUT',
      'CASE:slow thesis',
    );
  });

  it('a 5xx is 502 PARTNER_HTTP_ERROR, and so is a failed job', async () => {
    partner.failNextSubmit({ kind: 'status', status: 500 });
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'five hundred' }), 502, 'PARTNER_HTTP_ERROR', 'five hundred');
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'CASE:failed' }), 502, 'PARTNER_HTTP_ERROR', 'CASE:failed');
  });

  it('bad JSON, an answer without the basket, or broken weights are 502 PARTNER_INVALID_OUTPUT', async () => {
    partner.failNextJobRead({ kind: 'bad_json' });
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'bad json' }), 502, 'PARTNER_INVALID_OUTPUT', 'bad json');
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'CASE:garbage' }), 502, 'PARTNER_INVALID_OUTPUT', 'CASE:garbage');
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'CASE:weights' }), 502, 'PARTNER_INVALID_OUTPUT', 'CASE:weights');
  });

  it('an execution claim or a non-canonical asset in the answer is 502 GUARDRAIL_REJECTED', async () => {
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: 'CASE:claim' }), 502, 'GUARDRAIL_REJECTED', 'CASE:claim');
    const res = await partnerOnly.call('strategist.generate', { prompt: 'CASE:noncanonical' });
    expectFailure(res, 502, 'GUARDRAIL_REJECTED', 'CASE:noncanonical');
    expect(res.text).not.toContain(UNKNOWN_ADDRESS);
  });

  it("echoes the caller's prompt even when it reads like a claim (the output guard exempts the echo)", async () => {
    partner.failNextSubmit({ kind: 'status', status: 503 });
    const prompt = 'The partner sold my NVDA yesterday, rebuild the basket';
    expectFailure(await partnerOnly.call('strategist.generate', { prompt }), 502, 'PARTNER_HTTP_ERROR', prompt);
  });

  it('the same failure body on generate-coil', async () => {
    partner.failNextSubmit({ kind: 'status', status: 502 });
    expectFailure(await partnerOnly.call('tools.generateCoil', { prompt: 'via tools' }), 502, 'PARTNER_HTTP_ERROR', 'via tools');
    const ok = await partnerOnly.call('tools.generateCoil', { prompt: 'via tools' });
    expect(ok.status).toBe(200);
    expect(ok.json.providerMeta.provider).toBe('partner');
  });

  it('never sends an empty or whitespace-only thesis to the partner: 400 PROMPT_REQUIRED on both routes', async () => {
    const before = partner.requests.length;
    for (const path of ['strategist.generate', 'tools.generateCoil']) {
      const res = await partnerOnly.call(path, { prompt: '  \n ' });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('PROMPT_REQUIRED');
    }
    expect(partner.requests.length).toBe(before);
  });

  it('an unconfigured partner is 503 PARTNER_NOT_CONFIGURED', async () => {
    expectFailure(await unconfigured.call('strategist.generate', { prompt: 'anything' }), 503, 'PARTNER_NOT_CONFIGURED', 'anything');
    expectFailure(await unconfigured.call('tools.generateCoil', { prompt: 'anything' }), 503, 'PARTNER_NOT_CONFIGURED', 'anything');
  });
});

describe('partner_or_mock', () => {
  it('uses the partner when it answers', async () => {
    const res = await fallback.call('strategist.generate', { prompt: 'AI accelerators thesis' });
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
    const res = await fallback.call('strategist.generate', { prompt, nowIso: NOW });
    expect(res.status).toBe(200);
    expect(res.json.providerMeta).toMatchObject({ provider: 'mock', requested: 'partner_or_mock', usedFallback: true });
    expect(res.json.providerMeta.fallbackReason).toMatch(new RegExp(`^${code}: `));
    expect(res.json.manifest.assets.map((a: { ticker: string }) => a.ticker)).toContain('NVDA');
    expect(res.json.manifest.assets.some((a: { tokenAddress: string }) => a.tokenAddress === UNKNOWN_ADDRESS)).toBe(false);
  });

  it('answers with the mock when no partner is configured, and says so', async () => {
    const res = await plain.call('strategist.generate', { prompt: 'AI chips' });
    expect(res.status).toBe(200);
    expect(res.json.providerMeta).toMatchObject({ provider: 'mock', requested: 'partner_or_mock', usedFallback: true });
    expect(res.json.providerMeta.fallbackReason).toMatch(/^PARTNER_NOT_CONFIGURED/);
  });
});

describe('the partner is held to the same reading as the local strategist', () => {
  const excludesAmd = 'CASE:ignores-reading AI chips, but avoid AMD';
  const pinsNvda = 'CASE:ignores-reading AI chips with 25% in Nvidia';

  it('a partner basket holding an excluded asset or moving a pinned weight is refused (partner: 502 GUARDRAIL_REJECTED)', async () => {
    expectFailure(await partnerOnly.call('strategist.generate', { prompt: excludesAmd }), 502, 'GUARDRAIL_REJECTED', excludesAmd);
    expectFailure(await partnerOnly.call('tools.generateCoil', { prompt: pinsNvda }), 502, 'GUARDRAIL_REJECTED', pinsNvda);
    // The partner was told what the thesis excludes and pins.
    const asked = partner.submissions().map((r) => JSON.parse(r.body).prompt as string);
    expect(asked.some((p) => p.includes('must not hold: AMD'))).toBe(true);
    expect(asked.some((p) => p.includes('Keep these weights exactly: NVDA 2500 bps'))).toBe(true);
  });

  it('... or replaced by the local basket (partner_or_mock), labelled in providerMeta with the reason', async () => {
    const res = await fallback.call('strategist.generate', { prompt: excludesAmd, nowIso: NOW });
    expect(res.status).toBe(200);
    expect(res.json.providerMeta).toMatchObject({ provider: 'mock', requested: 'partner_or_mock', usedFallback: true });
    expect(res.json.providerMeta.fallbackReason).toMatch(/^GUARDRAIL_REJECTED: The partner basket holds AMD, which the thesis excludes/);
    expect(res.json.manifest.assets.map((a: { ticker: string }) => a.ticker)).not.toContain('AMD');
    expect(res.json.reading.excluded).toEqual([{ ticker: 'AMD', because: 'excluded ("avoid")', source: 'thesis' }]);
    const pinned = await fallback.call('tools.generateCoil', { prompt: pinsNvda, nowIso: NOW });
    expect(pinned.json.providerMeta.fallbackReason).toMatch(
      /^GUARDRAIL_REJECTED: The partner basket does not keep the pinned weight of NVDA \(2500 bps\)/,
    );
    expect(pinned.json.coil.assets.find((a: { ticker: string }) => a.ticker === 'NVDA').weightBps).toBe(2500);
  });

  it('a partner basket that respects the reading is the answer, and carries the same reading', async () => {
    const res = await fallback.call('strategist.generate', { prompt: 'AI accelerators thesis', nowIso: NOW });
    expect(res.json.providerMeta).toEqual({ provider: 'partner', requested: 'partner_or_mock', usedFallback: false });
    const local = await plain.call('strategist.generate', { prompt: 'AI accelerators thesis', nowIso: NOW });
    expect(res.json.reading).toEqual(local.json.reading);
  });

  it('a thesis that excludes everything is 422 THESIS_NOT_EXPRESSIBLE on both routes, and the partner is not asked', async () => {
    const before = partner.requests.length;
    for (const path of ['strategist.generate', 'tools.generateCoil']) {
      const res = await fallback.call(path, { prompt: 'Short everything, the whole market will crash' });
      expect(res.status, res.text).toBe(422);
      expect(res.json.error).toMatchObject({
        code: 'THESIS_NOT_EXPRESSIBLE',
        issues: [expect.objectContaining({ code: 'EVERY_ASSET_EXCLUDED' })],
      });
    }
    expect(partner.requests.length).toBe(before);
  });
});

describe('the local strategist', () => {
  it('answers how it read the thesis, in the strategist answer and in generate-coil', async () => {
    const prompt = 'Big tech winners, but avoid Tesla entirely';
    const strategist = await plain.call('strategist.generate', { prompt, nowIso: NOW });
    const tool = await plain.call('tools.generateCoil', { prompt, nowIso: NOW });
    expect(strategist.json.reading).toEqual(tool.json.reading);
    expect(tool.json.reading).toMatchObject({
      excluded: [{ ticker: 'TSLA', because: 'excluded ("avoid")' }],
      stance: 'bullish',
      matched: [
        expect.objectContaining({ text: 'Big tech', kind: 'theme' }),
        expect.objectContaining({ text: 'Tesla', polarity: 'exclude' }),
      ],
    });
    expect(tool.json.coil.assets.map((a: { ticker: string }) => a.ticker)).not.toContain('TSLA');
  });

  it('is byte-identical for the same request and nowIso, and refines a basket into a fork', async () => {
    const body = {
      prompt: 'semiconductors plus some treasuries',
      userPreferences: { riskTolerance: 'low', maxSingleAssetWeightBps: 3000 },
      nowIso: NOW,
    };
    const a = await plain.call('strategist.generate', body);
    const b = await plain.call('strategist.generate', body);
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    expect(a.json.manifest.assets.every((x: { weightBps: number }) => x.weightBps <= 3000)).toBe(true);

    const refined = await plain.call('strategist.generate', { prompt: 'add crypto', basketContext: a.json.manifest, nowIso: NOW });
    expect(refined.json.manifest).toMatchObject({ forkOf: a.json.manifest.slug, parentManifestHash: a.json.receipt.manifestHash });
    expect(refined.json.receipt.parentManifestHash).toBe(a.json.receipt.manifestHash);
    const bySlug = await plain.call('strategist.generate', {
      prompt: 'more energy',
      basketContext: { slug: refined.json.manifest.slug, assets: [{ tokenAddress: ADDR.SPY }] },
    });
    expect(bySlug.json.manifest.parentManifestHash).toBe(refined.json.receipt.manifestHash);
    const provenance = await plain.call('tools.provenance', { manifestHash: bySlug.json.receipt.manifestHash });
    expect(provenance.json.provenance.forkDepth).toBe(2);
  });

  it('answers each mode: paper, brokerage-mcp-plan, readiness check', async () => {
    const paper = await plain.call('strategist.generate', { prompt: 'AI chips', mode: 'paper' });
    expect(paper.json.manifest).toMatchObject({ mode: 'paper', executionMode: 'paper_only' });
    expect(paper.json.manifest.risk.liveExecutionAllowed).not.toBe(true);
    const plan = await plain.call('strategist.generate', { prompt: 'AI chips', mode: 'brokerage-mcp-plan' });
    expect(plan.json.plan.compileOnly).toBe(true);
    expect(plan.json.manifest.mode).toBe('brokerage-mcp-plan');
    expect((await plain.call('strategist.generate', { prompt: 'AI chips' })).json.manifest.mode).toBe('readiness-check');
    expect((await plain.call('strategist.generate', { prompt: 'AI chips', mode: 'live' })).status).toBe(400);
  });

  it('validates its input: PROMPT_REQUIRED, PROMPT_TOO_LONG, infeasible preferences', async () => {
    expect((await plain.call('strategist.generate', {})).json.error.code).toBe('PROMPT_REQUIRED');
    for (const prompt of ['', ' \t\n ']) {
      const blank = await plain.call('strategist.generate', { prompt, nowIso: NOW });
      expect(blank.status, blank.text).toBe(400);
      expect(blank.json.error).toMatchObject({ code: 'PROMPT_REQUIRED', issues: [expect.objectContaining({ path: 'prompt' })] });
      expect(blank.text).not.toMatch(/Default diversified basket/);
    }
    expect((await plain.call('strategist.generate', { prompt: 'y'.repeat(2001) })).json.error.code).toBe('PROMPT_TOO_LONG');
    const infeasible = await plain.call('strategist.generate', { prompt: 'x', userPreferences: { maxSingleAssetWeightBps: 600 } });
    expect(infeasible.status).toBe(400);
    expect(infeasible.json.error.code).toBe('PREFERENCES_INFEASIBLE');
  });
});

describe('corrections of the reading (issue 33), on both procedures', () => {
  const prompt = 'Sell Tesla and buy Nvidia and AMD';

  it('strategist.generate and tools.generateCoil take corrections: held, excluded, pinned, risk, each with its cause', async () => {
    const corrections = { included: ['TSLA'], excluded: ['AMD'], pinned: [{ ticker: 'NVDA', bps: 3000 }], riskTolerance: 'high' };
    for (const path of ['strategist.generate', 'tools.generateCoil']) {
      const res = await plain.call(path, { prompt, corrections, nowIso: NOW });
      expect(res.status, res.text).toBe(200);
      const coil = res.json.manifest ?? res.json.coil;
      const weights = Object.fromEntries(coil.assets.map((a: { ticker: string; weightBps: number }) => [a.ticker, a.weightBps]));
      expect(weights).toMatchObject({ NVDA: 3000 });
      expect(weights).toHaveProperty('TSLA');
      expect(weights).not.toHaveProperty('AMD');
      expect(res.json.reading).toMatchObject({
        corrections,
        riskTolerance: { value: 'high', source: 'correction' },
        pinned: [expect.objectContaining({ target: 'NVDA', keptBps: 3000, source: 'correction' })],
      });
      expect(res.json.reading.excluded).toContainEqual({ ticker: 'AMD', because: 'excluded by a correction', source: 'correction' });
    }
  });

  it('is deterministic: same thesis, corrections and nowIso give the same Coil, receipt body and receipt id; other corrections another', async () => {
    const call = (corrections: object) => plain.call('tools.generateCoil', { prompt, corrections, nowIso: NOW });
    const a = await call({ excluded: ['AMD'] });
    const b = await call({ excluded: ['AMD'] });
    expect(b.json.receipt).toEqual(a.json.receipt);
    expect(b.json.coil).toEqual(a.json.coil);
    const c = await call({ excluded: ['NVDA'] });
    expect(c.json.receipt.receiptId).not.toBe(a.json.receipt.receiptId);
    expect(c.json.coil.assets.map((x: { ticker: string }) => x.ticker)).not.toContain('NVDA');
  });

  it('rejects a correction that is not a registry ticker, or contradicts itself, with 400 (never clamps)', async () => {
    for (const [corrections, path] of [
      [{ excluded: ['nvda'] }, 'corrections.excluded.0'],
      [{ included: ['INTC'] }, 'corrections.included.0'],
      [{ pinned: [{ ticker: 'NVDA', bps: 12_000 }] }, 'corrections.pinned.0.bps'],
      [{ included: ['AMD'], excluded: ['AMD'] }, 'corrections.included.0'],
    ] as const) {
      for (const route of ['strategist.generate', 'tools.generateCoil']) {
        const res = await plain.call(route, { prompt, corrections, nowIso: NOW });
        expect(res.status, `${route} ${JSON.stringify(corrections)}`).toBe(400);
        expect(res.json.error.issues.map((i: { path: string }) => i.path)).toContain(path);
      }
    }
  });
});
