/**
 * The classes of issue 33, each on sentences written for this test (none is in a benchmark
 * set): verb and idiom negation, contrast and preference, moving money, bets against, risk
 * without the word "risk", rotation, exclusions in questions and asides, theses about what the
 * registry lacks, exact pins, rounding residuals, negative weights, the cap, and corrections.
 * What a rule must never do is asserted here; how often the reader gets new theses right is a
 * figure the benchmark prints (npm run bench:strategist).
 */
import { describe, expect, it } from 'vitest';
import { validateCoil } from '../../src/lib/server/coil/validate';
import { manifestHashOf } from '../../src/lib/server/receipts/receipt';
import { correctionsSchema, type StrategistRequest } from '../../src/lib/server/strategist';
import { loadReaderFirst, run } from '../support/strategist';
import { svcRejection } from '../support/svc-error';

const weightsOf = async (prompt: string, userPreferences?: StrategistRequest['userPreferences']) => {
  const r = await run({ prompt, userPreferences });
  expect(validateCoil(r.manifest).issues).toEqual([]);
  return Object.fromEntries(r.manifest.assets.map((a) => [a.ticker, a.weightBps]));
};
const held = async (prompt: string) => Object.keys(await weightsOf(prompt));
/** The basket leaves `out` out and holds `kept`. */
const outKept = async (prompt: string, out: string, kept: string) => {
  const tickers = await held(prompt);
  expect(tickers).not.toContain(out);
  expect(tickers).toContain(kept);
};

loadReaderFirst();

describe('negation carried by a verb or an idiom', () => {
  it.each([
    ['I would never go anywhere near Coinbase, but Palantir looks good', 'COIN', 'PLTR'],
    ['Done with Meta after the metaverse fiasco; Microsoft is my pick', 'META', 'MSFT'],
    ["I don't trust Zuck with my money. Give me Alphabet.", 'META', 'GOOGL'],
    ['Been burned by crypto twice, so silver this time', 'COIN', 'SLV'],
    ["I'm sick of hearing about Musk. Nvidia please.", 'TSLA', 'NVDA'],
    ['Get rid of the oil fund and add Amazon', 'USO', 'AMZN'],
  ])('%s', async (prompt, out, kept) => {
    const r = await run({ prompt });
    const tickers = r.manifest.assets.map((a) => a.ticker);
    expect(tickers).not.toContain(out);
    expect(tickers).toContain(kept);
    // The reading says which words did it.
    expect(r.reading.excluded.find((e) => e.ticker === out)).toMatchObject({ source: 'thesis', because: expect.stringMatching(/"/) });
  });

  it('a double negation keeps the name: "never sell", "not worried about", "can\'t go wrong with"', async () => {
    expect(await held("I'd never sell my Apple, and I'm not worried about Microsoft either")).toEqual(
      expect.arrayContaining(['AAPL', 'MSFT']),
    );
    expect(await held("You can't go wrong with Nvidia")).toContain('NVDA');
    expect(await held("I don't think Amazon will fall")).toContain('AMZN');
  });
});

describe('contrast and preference', () => {
  it.each([
    ['Silver rather than oil', 'USO', 'SLV'],
    ['Alphabet instead of Meta for ads', 'META', 'GOOGL'],
    ['I lean Microsoft over Amazon for cloud', 'AMZN', 'MSFT'],
    ['I prefer Coinbase to Palantir', 'PLTR', 'COIN'],
    ["I'd sooner hold AMD than Nvidia", 'NVDA', 'AMD'],
    ['Nvidia, not AMD', 'AMD', 'NVDA'],
    ['Swap Tesla for Apple', 'TSLA', 'AAPL'],
  ])('%s', (prompt, out, kept) => outKept(prompt, out, kept));
});

describe('moving money and rotation', () => {
  it.each([
    ['Unload Palantir and move the money into T-bills', 'PLTR', 'SGOV'],
    ['Time to get out of Coinbase and into silver', 'COIN', 'SLV'],
    ['Shift my Meta stake over to Microsoft', 'META', 'MSFT'],
    ['Rotating away from the Nasdaq fund toward oil', 'QQQ', 'USO'],
    ['Take some chips off the table on Nvidia and buy Amazon with it', 'NVDA', 'AMZN'],
    ['Sell AMD, put the proceeds into Apple', 'AMD', 'AAPL'],
  ])('%s: holds the destination, never the source', (prompt, out, kept) => outKept(prompt, out, kept));
});

describe('bets against a market, an index, a sector or a company', () => {
  it.each([
    ['The S&P is headed for a nasty drop', ['SPY']],
    ['My view: semiconductors are about to roll over', ['NVDA', 'AMD']],
    ['Coinbase will get hammered when the cycle turns', ['COIN']],
    ['Big tech looks frothy to me, expecting a pullback', ['QQQ', 'AAPL', 'MSFT', 'NVDA']],
    ['Oil could crater next year', ['USO']],
  ])('%s: never holds what it bets against', async (prompt, out) => {
    const r = await run({ prompt });
    const tickers = r.manifest.assets.map((a) => a.ticker);
    for (const t of out) expect(tickers).not.toContain(t);
    expect(r.reading.stance).toMatch(/bearish|mixed/);
  });
});

describe('risk said without the word "risk"', () => {
  it('cautious words lead with treasury bills', async () => {
    for (const prompt of ["This is my kid's tuition fund, I can't afford to lose it", 'Parking cash for a house deposit next spring']) {
      const r = await run({ prompt });
      expect(r.reading.riskTolerance).toMatchObject({ value: 'low', source: 'thesis' });
      const [first, second] = r.manifest.assets;
      expect(first!.ticker).toBe('SGOV');
      expect(first!.weightBps).toBeGreaterThan(second!.weightBps);
    }
  });

  it('bold words are not built low', async () => {
    for (const prompt of ['Swing for the fences with Palantir', 'Moonshot money: Coinbase and Tesla'])
      expect((await run({ prompt })).reading.riskTolerance.value).toBe('high');
  });
});

describe('exclusions in questions and asides', () => {
  it.each([
    ['Could I get AI exposure without owning any Nvidia?', 'NVDA', 'MSFT'],
    ['Cloud names (but please, nothing from Bezos)', 'AMZN', 'MSFT'],
    ['All of big tech except Meta', 'META', 'AAPL'],
    ['Chips, minus AMD', 'AMD', 'NVDA'],
  ])('%s', (prompt, out, kept) => outKept(prompt, out, kept));
});

describe('theses about what the registry lacks', () => {
  it('holds only broad index and cash, and says no registry asset fits', async () => {
    for (const prompt of ['Norwegian salmon farmers', 'Dutch semiconductor equipment', 'Mexican cement and Canadian railroads']) {
      const r = await run({ prompt });
      for (const a of r.manifest.assets) expect(['SPY', 'QQQ', 'SGOV']).toContain(a.ticker);
      expect(r.memo.body).toMatch(/broad index and cash only/);
    }
    const japan = await run({ prompt: 'Japanese robotics' });
    expect(japan.reading.noRegistryFit).toEqual(['Japan']);
    expect(japan.manifest.assets.map((a) => a.ticker)).not.toContain('TSLA');
  });

  it('holds a registry asset the thesis also names, and nothing else beyond index and cash', async () => {
    const tickers = await held('Korean chipmakers and Microsoft');
    expect(tickers).toContain('MSFT');
    for (const t of tickers) expect(['MSFT', 'SPY', 'QQQ', 'SGOV']).toContain(t);
  });
});

describe('weights a person can trust', () => {
  it('a fully specified basket is exactly what the person wrote', async () => {
    expect(await weightsOf('Two thirds Amazon, one third silver', { maxSingleAssetWeightBps: 7000 })).toEqual({ AMZN: 6667, SLV: 3333 });
    expect(await weightsOf('30% Apple, 30% Google, and split the remainder evenly between oil and silver')).toEqual({
      AAPL: 3000,
      GOOGL: 3000,
      USO: 2000,
      SLV: 2000,
    });
    expect(await weightsOf('$3,000 in Nvidia and $7,000 in T-bills', { maxSingleAssetWeightBps: 7000 })).toEqual({
      NVDA: 3000,
      SGOV: 7000,
    });
  });

  it('residual basis points go to a named position, never to a new line', async () => {
    expect(await weightsOf('One third each: Coinbase, Palantir, AMD')).toEqual({ COIN: 3334, PLTR: 3333, AMD: 3333 });
    const sevenths = await weightsOf('Spread it equally across Apple, Amazon, Alphabet, Meta, Microsoft, Nvidia and Tesla');
    expect(Object.keys(sevenths)).toHaveLength(7);
    for (const w of Object.values(sevenths)) expect(Math.abs(w - 10_000 / 7)).toBeLessThanOrEqual(1);
    const r = await run({ prompt: '33% each in AMD, Palantir and Coinbase' });
    expect(r.reading.pinned.every((p) => p.movedBy === 'rounding')).toBe(true);
  });

  it('no position under 1% unless pinned', async () => {
    for (const prompt of ['Mostly Nvidia with a tiny bit of silver, some AI and a touch of crypto', 'Growth and cloud, a little oil'])
      for (const w of Object.values(await weightsOf(prompt))) expect(w).toBeGreaterThanOrEqual(100);
  });

  it('a pin above the cap is kept only when the cap is raised, and the reading says how to lift it', async () => {
    const capped = await run({ prompt: '80% Microsoft, 20% Apple' });
    expect(capped.reading.pinned[0]).toMatchObject({
      target: 'MSFT',
      askedBps: 8000,
      keptBps: 4000,
      movedBy: 'cap',
      note: expect.stringMatching(/maxSingleAssetWeightBps to 8000/),
    });
    expect(await weightsOf('80% Microsoft, 20% Apple', { maxSingleAssetWeightBps: 8000 })).toEqual({ MSFT: 8000, AAPL: 2000 });
  });

  it.each([
    '-25% Coinbase, the rest in SPY',
    'Short 15% of the oil fund',
    'minus 5% Tesla, plus 105% Apple',
    'A 10% short position in Meta',
  ])('refuses a negative or short weight with the long-only explanation: %s', async (prompt) => {
    const error = await svcRejection(run({ prompt }));
    expect(error.code).toBe('THESIS_NOT_EXPRESSIBLE');
    expect(error.issues[0]).toMatchObject({ code: 'NEGATIVE_WEIGHT', path: 'prompt', message: expect.stringMatching(/long-only/) });
  });
});

describe('corrections', () => {
  const prompt = 'Sell Tesla, buy Nvidia and AMD, 20% in T-bills';

  it('each item of the reading names its cause, and a correction changes only what it says', async () => {
    const plain = await run({ prompt });
    expect(plain.reading.excluded).toEqual([expect.objectContaining({ ticker: 'TSLA', source: 'thesis' })]);
    const corrected = await run({ prompt, corrections: { included: ['TSLA'], excluded: ['AMD'], riskTolerance: 'high' } });
    const tickers = corrected.manifest.assets.map((a) => a.ticker);
    expect(tickers).toContain('TSLA');
    expect(tickers).not.toContain('AMD');
    expect(corrected.reading.included).toContainEqual({ ticker: 'TSLA', because: 'included by a correction', source: 'correction' });
    expect(corrected.reading.excluded).toContainEqual({ ticker: 'AMD', because: 'excluded by a correction', source: 'correction' });
    expect(corrected.reading.riskTolerance).toEqual({ value: 'high', source: 'correction' });
    expect(corrected.reading.corrections).toEqual({ included: ['TSLA'], excluded: ['AMD'], riskTolerance: 'high' });
  });

  it('pinned replaces the pins, and [] removes them', async () => {
    const replaced = await run({ prompt, corrections: { pinned: [{ ticker: 'NVDA', bps: 3000 }] } });
    expect(replaced.reading.pinned).toEqual([expect.objectContaining({ target: 'NVDA', keptBps: 3000, source: 'correction' })]);
    expect(replaced.manifest.assets.find((a) => a.ticker === 'NVDA')!.weightBps).toBe(3000);
    const none = await run({ prompt, corrections: { pinned: [] } });
    expect(none.reading.pinned).toEqual([]);
  });

  it('is deterministic: same thesis and corrections, same Coil; other corrections, another one', async () => {
    const corrections = { excluded: ['AMD'] };
    const a = await run({ prompt, corrections });
    const b = await run({ prompt, corrections: { excluded: ['AMD'] } });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = await run({ prompt, corrections: { excluded: ['NVDA'] } });
    expect(manifestHashOf(c.manifest)).not.toBe(manifestHashOf(a.manifest));
  });

  it('validation rejects, never clamps: unknown tickers, repeats, contradictions, over-full pins', () => {
    for (const bad of [
      { excluded: ['aapl'] },
      { included: ['USDG'] },
      { excluded: ['AAPL', 'AAPL'] },
      { included: ['AAPL'], excluded: ['AAPL'] },
      { pinned: [{ ticker: 'AAPL', bps: 0 }] },
      {
        pinned: [
          { ticker: 'AAPL', bps: 6000 },
          { ticker: 'MSFT', bps: 5000 },
        ],
      },
      { pinned: [{ ticker: 'AAPL', bps: 2000 }], excluded: ['AAPL'] },
      { riskTolerance: 'extreme' },
      { unknownField: true },
    ])
      expect(correctionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(correctionsSchema.safeParse({ included: ['AAPL'], pinned: [], riskTolerance: 'low' }).success).toBe(true);
  });
});
