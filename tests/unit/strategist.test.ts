/** The deterministic strategist, the weight allocator and the partner answer checks. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateCoil } from '../../src/lib/server/coil/validate';
import { manifestHashOf } from '../../src/lib/server/receipts/receipt';
import { SvcError } from '../../src/lib/server/errors';
import { svcRejection } from '../support/svc-error';
import { allocateWeights, minimumPositions } from '../../src/lib/server/strategist/allocate';
import { runStrategist, strategistStatus, type StrategistRequest } from '../../src/lib/server/strategist';
import { loadReaderFirst, MOCK, run } from '../support/strategist';
import { composePartnerPrompt, parsePartnerAnswer } from '../../src/lib/server/strategist/partner';
import { LEXICON } from '../../src/lib/server/strategist/lexicon';
import { ADDR, UNKNOWN_ADDRESS } from '../support/coils';

const tickers = async (request: StrategistRequest) => (await run(request)).manifest.assets.map((a) => a.ticker);

loadReaderFirst();

describe('weight allocation', () => {
  it('a subnormal score next to zeros still allocates exactly 10000 bps (found by the property below)', () => {
    const weights = [
      ...allocateWeights(
        [0, 0, 0, 5e-324].map((score, i) => ({ key: `A${i}`, score })),
        2500,
      ).values(),
    ];
    expect(weights.reduce((s, w) => s + w, 0)).toBe(10_000);
    for (const w of weights) expect(w).toBeGreaterThan(0);
  });

  it('property: positive integers summing to exactly 10000, each at most the cap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 1, maxLength: 15 }),
        fc.integer({ min: 667, max: 10_000 }),
        (scores, cap) => {
          const items = scores.map((score, i) => ({ key: `A${i}`, score }));
          if (items.length < minimumPositions(cap)) {
            expect(() => allocateWeights(items, cap)).toThrow();
            return;
          }
          const weights = [...allocateWeights(items, cap).values()];
          expect(weights).toHaveLength(items.length);
          expect(weights.reduce((s, w) => s + w, 0)).toBe(10_000);
          for (const w of weights) {
            expect(Number.isInteger(w)).toBe(true);
            expect(w).toBeGreaterThan(0);
            expect(w).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('follows the scores and pins shares at the cap', () => {
    const w = allocateWeights(
      [
        { key: 'a', score: 10 },
        { key: 'b', score: 1 },
        { key: 'c', score: 1 },
      ],
      5000,
    );
    expect([...w.values()]).toEqual([5000, 2500, 2500]);
    expect(minimumPositions(4000)).toBe(3);
    expect(minimumPositions(667)).toBe(15);
  });
});

describe('the mock strategist reads the thesis', () => {
  it('gives different baskets for AI chips and for defensive index exposure', async () => {
    const ai = await tickers({ prompt: 'AI chips and data-center GPUs will keep compounding' });
    const defensive = await tickers({ prompt: 'I want defensive index exposure and treasuries for a downturn' });
    expect(ai).toContain('NVDA');
    expect(ai).toContain('AMD');
    expect(ai).not.toContain('SGOV');
    expect(defensive).toEqual(expect.arrayContaining(['SPY', 'SGOV']));
    expect(defensive).not.toContain('NVDA');
  });

  it('includes tickers and companies named in the thesis', async () => {
    const named = await tickers({ prompt: 'Long $tsla and Palantir, plus some COIN' });
    expect(named).toEqual(expect.arrayContaining(['TSLA', 'PLTR', 'COIN']));
    expect(await tickers({ prompt: 'the meta narrative of markets' })).not.toContain('META');
  });

  it('labels an off-topic thesis as the default basket, which still validates', async () => {
    const response = await run({ prompt: 'banana bread recipe with walnuts' });
    expect(response.manifest.name).toBe('Default diversified basket');
    expect(response.memo.title).toMatch(/default/i);
    expect(response.disclaimers.join(' ')).toMatch(/Default basket/);
    expect(validateCoil(response.manifest).valid).toBe(true);
  });

  it('refuses an empty or whitespace-only thesis (PROMPT_REQUIRED) instead of making any basket', async () => {
    for (const prompt of ['', '   ', '\n\t \u00a0']) {
      const error = await run({ prompt }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SvcError);
      expect((error as SvcError).code).toBe('PROMPT_REQUIRED');
    }
  });

  it('shapes concentration by risk tolerance and respects the user cap', async () => {
    const prompt = 'AI chips, cloud software and big tech';
    const low = (await run({ prompt, userPreferences: { riskTolerance: 'low' } })).manifest;
    const high = (await run({ prompt, userPreferences: { riskTolerance: 'high' } })).manifest;
    const max = (c: typeof low) => Math.max(...c.assets.map((a) => a.weightBps));
    expect(low.assets.length).toBeGreaterThan(high.assets.length);
    expect(max(low)).toBeLessThan(max(high));
    expect(low.assets.map((a) => a.ticker)).toContain('SGOV');
    const capped = (await run({ prompt: 'only NVDA', userPreferences: { maxSingleAssetWeightBps: 2000 } })).manifest;
    expect(capped.risk.maxSingleAssetWeightBps).toBe(2000);
    expect(capped.assets.length).toBeGreaterThanOrEqual(5);
    expect(capped.assets.every((a) => a.weightBps <= 2000)).toBe(true);
    expect(validateCoil(capped).valid).toBe(true);
  });

  it('refuses a cap no basket can meet', async () => {
    const error = await svcRejection(run({ prompt: 'x', userPreferences: { maxSingleAssetWeightBps: 666 } }));
    expect(error.code).toBe('PREFERENCES_INFEASIBLE');
    expect((await run({ prompt: 'x', userPreferences: { maxSingleAssetWeightBps: 667 } })).manifest.assets).toHaveLength(15);
  });

  it('refines a basket rather than replacing it, dropping non-canonical assets with a note', async () => {
    const response = await run({
      prompt: 'add some crypto exposure',
      basketContext: {
        slug: 'my-basket',
        name: 'My basket',
        assets: [
          { ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 6000 },
          { ticker: 'AAPL', tokenAddress: ADDR.AAPL, weightBps: 4000 },
          { ticker: 'FAKE', tokenAddress: UNKNOWN_ADDRESS, weightBps: 1 },
        ],
      },
      parentManifestHash: 'a'.repeat(64),
    });
    const m = response.manifest;
    expect(m.assets.map((a) => a.ticker)).toEqual(expect.arrayContaining(['SPY', 'AAPL', 'COIN']));
    expect(m.assets.find((a) => a.ticker === 'SPY')!.weightBps).toBeGreaterThan(m.assets.find((a) => a.ticker === 'COIN')!.weightBps);
    expect(m.assets.some((a) => a.tokenAddress === UNKNOWN_ADDRESS)).toBe(false);
    expect(m.risk.notes.join(' ')).toContain(UNKNOWN_ADDRESS);
    expect(m).toMatchObject({ name: 'My basket (refined)', forkOf: 'my-basket', parentManifestHash: 'a'.repeat(64) });
  });

  it('is deterministic: same input, same output; different time, same manifest hash', async () => {
    const request = { prompt: 'semiconductors and energy', userPreferences: { riskTolerance: 'high' as const } };
    expect(JSON.stringify(await run(request))).toBe(JSON.stringify(await run(request)));
    const later = await runStrategist(request, { config: MOCK, now: new Date('2027-01-01T00:00:00Z') });
    expect(manifestHashOf(later.manifest)).toBe(manifestHashOf((await run(request)).manifest));
  });

  it('paper mode gives a paper Coil that never sets liveExecutionAllowed', async () => {
    const m = (await run({ prompt: 'AI chips', mode: 'paper' })).manifest;
    expect(m.mode).toBe('paper');
    expect(m.executionMode).toBe('paper_only');
    expect(m.risk.liveExecutionAllowed).not.toBe(true);
    expect(validateCoil(m).validationStatus).toBe('valid');
  });

  it('brokerage-mcp-plan adds compile-only plan steps; omitted mode is the readiness-check planner', async () => {
    const plan = await run({ prompt: 'AI chips', mode: 'brokerage-mcp-plan' });
    expect(plan.manifest.mode).toBe('brokerage-mcp-plan');
    expect(plan.plan?.compileOnly).toBe(true);
    expect(plan.plan!.steps.length).toBeGreaterThan(3);
    const readiness = await run({ prompt: 'AI chips' });
    expect(readiness.manifest.mode).toBe('readiness-check');
    expect(readiness.plan).toBeUndefined();
  });

  it('answers the spec 2.2 shape', async () => {
    const r = await run({ prompt: 'AI chips' });
    // The spec's 2.2 fields, plus `reading` (how the thesis was read: docs/coil-tooling.md).
    expect(Object.keys(r).sort()).toEqual(['disclaimers', 'manifest', 'memo', 'providerMeta', 'reading', 'riskSummary', 'score']);
    expect(Object.keys(r.memo).sort()).toEqual(['body', 'disclaimer', 'title']);
    expect(r.score.total).toBeGreaterThan(0);
    expect(r.score.explanation).toContain('Health');
    expect(r.providerMeta).toEqual({ provider: 'mock', requested: 'mock', usedFallback: false });
  });

  it('property: any thesis built from theme words and tickers gives a Coil that validates', async () => {
    const words = [...LEXICON.themes.themes.flatMap((t) => t.keywords), 'NVDA', 'TSLA', 'apple', 'the', 'market', '$spy', 'random'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(undefined, 'low', 'medium', 'high'),
        fc.option(fc.integer({ min: 667, max: 10_000 }), { nil: undefined }),
        fc.constantFrom(undefined, 'paper', 'brokerage-mcp-plan'),
        async (thesis, riskTolerance, cap, mode) => {
          const r = await run({
            prompt: thesis.join(' '),
            mode: mode as StrategistRequest['mode'],
            userPreferences: { riskTolerance: riskTolerance as 'low' | undefined, maxSingleAssetWeightBps: cap },
          });
          const result = validateCoil(r.manifest);
          expect(result.issues).toEqual([]);
          expect(r.manifest.assets.reduce((s, a) => s + a.weightBps, 0)).toBe(10_000);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('partner answer checks', () => {
  const request: StrategistRequest = { prompt: 'AI chips' };
  const answer = (assets: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      name: 'Partner AI basket',
      memo: { title: 'AI', body: 'Accelerators.' },
      assets,
      riskNotes: ['concentrated'],
      ...extra,
    });
  const good = [
    { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 4000, rationale: 'GPUs' },
    { ticker: 'AMD', tokenAddress: ADDR.AMD, weightBps: 3000, rationale: 'GPUs' },
    { ticker: 'MSFT', tokenAddress: ADDR.MSFT, weightBps: 3000, rationale: 'Cloud' },
  ];
  const code = (text: string) => {
    try {
      parsePartnerAnswer(text, request);
      return 'OK';
    } catch (error) {
      return (error as SvcError).code;
    }
  };

  it('accepts the stated shape, bare or fenced in prose', () => {
    expect(parsePartnerAnswer(answer(good), request).assets.map((a) => a.weightBps)).toEqual([4000, 3000, 3000]);
    expect(code('Here you go:\n```json\n' + answer(good) + '\n```')).toBe('OK');
  });

  it('rejects an execution claim anywhere in the answer as GUARDRAIL_REJECTED', () => {
    expect(code(answer(good, { memo: { title: 'Done', body: 'I bought 10 NVDA for you.' } }))).toBe('GUARDRAIL_REJECTED');
    expect(code('Order placed successfully.')).toBe('GUARDRAIL_REJECTED');
    expect(code(`Done! I bought 10 NVDA for you.\n${answer(good)}`)).toBe('GUARDRAIL_REJECTED');
  });

  it('rejects a non-canonical or look-alike asset as GUARDRAIL_REJECTED', () => {
    expect(code(answer([{ ...good[0], tokenAddress: UNKNOWN_ADDRESS }, good[1], good[2]]))).toBe('GUARDRAIL_REJECTED');
    expect(code(answer([{ ticker: 'ZZZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 4000, rationale: '' }, good[1], good[2]]))).toBe(
      'GUARDRAIL_REJECTED',
    );
  });

  it('rejects anything else as PARTNER_INVALID_OUTPUT', () => {
    expect(code('not json at all')).toBe('PARTNER_INVALID_OUTPUT');
    expect(code('{"name": "x"')).toBe('PARTNER_INVALID_OUTPUT');
    expect(code(answer([{ ...good[0], weightBps: 3999 }, good[1], good[2]]))).toBe('PARTNER_INVALID_OUTPUT');
    expect(code(answer([{ ...good[0], weightBps: '4000' }, good[1], good[2]]))).toBe('PARTNER_INVALID_OUTPUT');
    expect(code(answer([{ ...good[0], weightBps: 5000 }, { ...good[1], weightBps: 2000 }, good[2]]))).toBe('PARTNER_INVALID_OUTPUT');
    expect(code(answer([good[0], good[0], { ...good[2], weightBps: 2000 }]))).toBe('PARTNER_INVALID_OUTPUT');
  });

  it('asks for the stated JSON shape and names the canonical addresses and the cap', () => {
    const prompt = composePartnerPrompt({ prompt: 'AI chips', userPreferences: { maxSingleAssetWeightBps: 3500 } });
    expect(prompt).toContain('AI chips');
    expect(prompt).toContain(ADDR.NVDA);
    expect(prompt).toContain('"weightBps": integer');
    expect(prompt).toContain('3500');
  });
});

describe('provider status', () => {
  it('reports the provider that would answer and whether the partner is configured', () => {
    expect(strategistStatus(MOCK)).toMatchObject({ aiProvider: 'mock', requested: 'mock', partnerConfigured: false, planningOnly: true });
    const both = { strategistProvider: 'partner_or_mock' as const, partner: { apiUrl: 'http://x', apiKey: 'k', timeoutMs: 1 } };
    expect(strategistStatus(both)).toMatchObject({ aiProvider: 'partner', partnerConfigured: true });
    expect(strategistStatus({ ...both, partner: { timeoutMs: 1 } })).toMatchObject({ aiProvider: 'mock', partnerConfigured: false });
  });
});
