/**
 * The classes of issue 33 again, on sentences of their own (none is in a benchmark set), for
 * the rules added after the first blind set: a pin on what the same thesis rules out, rounding
 * residuals under the person's own cap, bets against a market in the words people use for
 * falling, number words as weights, and fully specified baskets. Each asserts what a rule must
 * never do (hold what was ruled out, add a line nobody asked for).
 */
import { describe, expect, it } from 'vitest';
import { validateCoil } from '../../src/lib/server/coil/validate';
import type { StrategistRequest } from '../../src/lib/server/strategist';
import { loadReaderFirst, run } from '../support/strategist';

const weightsOf = async (prompt: string, userPreferences?: StrategistRequest['userPreferences']) => {
  const r = await run({ prompt, userPreferences });
  expect(validateCoil(r.manifest).issues).toEqual([]);
  return Object.fromEntries(r.manifest.assets.map((a) => [a.ticker, a.weightBps]));
};

loadReaderFirst();

describe('a pin on what the same thesis rules out', () => {
  it.each([['15% crypto, but stay away from crypto, cautious'], ['10% Tesla and the rest in Apple; on second thought avoid Tesla']])(
    '%s: the exclusion wins and the reading says so, never a 500',
    async (prompt) => {
      const r = await run({ prompt });
      const excluded = new Set(r.reading.excluded.map((e) => e.ticker));
      expect(excluded.size).toBeGreaterThan(0);
      expect(r.manifest.assets.filter((a) => excluded.has(a.ticker))).toEqual([]);
      expect(r.reading.pinned.find((p) => p.movedBy === 'excluded')).toMatchObject({ keptBps: 0 });
    },
  );
});

describe('rounding residuals go to a named position', () => {
  it.each([
    ['Thirds: Amazon, Alphabet, AMD', 3333, ['AMZN', 'GOOGL', 'AMD']],
    ['33% apiece for Meta, Palantir and Coinbase', 3300, ['META', 'PLTR', 'COIN']],
    ['one sixth in each of SPY, QQQ, SGOV, SLV, USO and Apple', 1666, ['SPY', 'QQQ', 'SGOV', 'SLV', 'USO', 'AAPL']],
  ] as const)('%s under a cap of %i bps: exactly the named positions, none under 1%', async (prompt, cap, names) => {
    const w = await weightsOf(prompt, { maxSingleAssetWeightBps: cap });
    expect(Object.keys(w).sort()).toEqual([...names].sort());
    expect(Math.max(...Object.values(w)) - Math.min(...Object.values(w))).toBeLessThanOrEqual(1);
  });

  it('a pinned third beside "the rest" leaves the residual to the rest', async () => {
    expect(await weightsOf('A third in Meta, a third in AMD, whatever is left in Microsoft')).toEqual({
      META: 3333,
      AMD: 3333,
      MSFT: 3334,
    });
  });

  it('a cap below the pins themselves still applies, and the reading says how to lift it', async () => {
    const r = await run({ prompt: 'Thirds: Amazon, Alphabet, AMD', userPreferences: { maxSingleAssetWeightBps: 3000 } });
    expect(Math.max(...r.manifest.assets.map((a) => a.weightBps))).toBeLessThanOrEqual(3000);
    expect(r.reading.pinned.some((p) => p.movedBy === 'cap' && /maxSingleAssetWeightBps/.test(p.note ?? ''))).toBe(true);
  });
});

describe('weights written in words and fully specified baskets', () => {
  it.each([
    ['fifteen percent Coinbase and eighty-five percent Apple, concentration is fine', { COIN: 1500, AAPL: 8500 }],
    ['Sixty per cent SPY, forty per cent SGOV, uncapped', { SPY: 6000, SGOV: 4000 }],
    ['twenty percent in each of Meta, AMD, Tesla, Palantir and oil', { META: 2000, AMD: 2000, TSLA: 2000, PLTR: 2000, USO: 2000 }],
  ] as const)('%s: exactly what was written', async (prompt, weights) => {
    expect(await weightsOf(prompt)).toEqual(weights);
  });

  it('a cap the thesis states is the cap: "at most 30% per name"', async () => {
    const r = await run({ prompt: 'Chip makers and AI software, at most 30% per name' });
    expect(r.manifest.risk.maxSingleAssetWeightBps).toBe(3000);
    expect(Math.max(...r.manifest.assets.map((a) => a.weightBps))).toBeLessThanOrEqual(3000);
  });

  it('without a word that lifts it, a pin above the default cap is capped and the reading says how to lift it', async () => {
    const r = await run({ prompt: 'eighty percent Apple and twenty percent silver' });
    expect(r.manifest.assets.find((a) => a.ticker === 'AAPL')?.weightBps).toBe(4000);
    expect(r.reading.pinned.find((p) => p.target === 'AAPL')).toMatchObject({ movedBy: 'cap', note: expect.stringMatching(/no cap/) });
  });

  it('a negative weight in words is refused with the long-only explanation', async () => {
    await expect(run({ prompt: 'minus fifteen percent Meta, the rest in SPY' })).rejects.toMatchObject({
      code: 'THESIS_NOT_EXPRESSIBLE',
      message: expect.stringMatching(/long-only/),
    });
  });
});

/** The basket holds `kept` and none of `out`. */
const outKept = async (prompt: string, out: readonly string[], kept: readonly string[]) => {
  const r = await run({ prompt });
  const tickers = r.manifest.assets.map((a) => a.ticker);
  for (const t of out) expect(tickers, `${t} held`).not.toContain(t);
  for (const t of kept) expect(tickers, `${t} not held`).toContain(t);
  return r;
};

describe('verb and idiom negation', () => {
  it.each([
    ['Kick my Coinbase shares out and give me Microsoft', ['COIN'], ['MSFT']],
    ['Palantir, though? I have soured on them completely. Nvidia instead', ['PLTR'], ['NVDA']],
    ['We are steering well clear of Tesla; Amazon looks fine', ['TSLA'], ['AMZN']],
    ['Bezos can take a hike. Alphabet for me', ['AMZN'], ['GOOGL']],
    ['Coinbase has lost my trust. Silver and Apple', ['COIN'], ['SLV', 'AAPL']],
    ['Keep Meta well away from this, AI chips otherwise', ['META'], ['NVDA']],
    ['I have sworn off Palantir; Apple will do', ['PLTR'], ['AAPL']],
    ['Steer us away from Coinbase, toward Microsoft', ['COIN'], ['MSFT']],
    ['Amazon has had its day. Give me Nvidia', ['AMZN'], ['NVDA']],
  ] as const)('%s', async (prompt, out, kept) => {
    const r = await outKept(prompt, out, kept);
    // The reading says which words did it.
    for (const t of out) expect(r.reading.excluded.find((e) => e.ticker === t)?.because).toMatch(/"/);
  });
});

describe('contrast and preference', () => {
  it.each([
    ['Amazon as opposed to Alphabet for the cloud story', ['GOOGL'], ['AMZN']],
    ['Treasuries in lieu of silver as the safe part, plus Apple', ['SLV'], ['SGOV', 'AAPL']],
  ] as const)('%s: only the list after the preference is left out', async (prompt, out, kept) => {
    await outKept(prompt, out, kept);
  });
});

describe('moving money and rotation', () => {
  it('the destination of all the money is the basket, never the source', async () => {
    const w = await weightsOf('Unwind the Palantir position and push all of it into the Nasdaq fund', { maxSingleAssetWeightBps: 10_000 });
    expect(w).toEqual({ QQQ: 10_000 });
  });
  it.each([
    ['Liquidate Meta and divide it between Apple and Amazon', ['META'], ['AAPL', 'AMZN']],
    ['Pull out of tech (apple, nvidia, amd) and into treasuries', ['AAPL', 'NVDA', 'AMD'], ['SGOV']],
    ['Sell down AMD and buy Nvidia with it', ['AMD'], ['NVDA']],
    ['Out with Coinbase, in with Palantir', ['COIN'], ['PLTR']],
    ['Take the profits from Tesla and redeploy into Alphabet', ['TSLA'], ['GOOGL']],
  ] as const)('%s', async (prompt, out, kept) => {
    await outKept(prompt, out, kept);
  });
});

describe('bets against a market or an index', () => {
  it.each([
    ['Semis, Nvidia, AMD: all going lower this year', ['NVDA', 'AMD']],
    ['QQQ down, silver up', ['QQQ']],
    ['I see the S&P 500 ending the decade lower; will be lower for sure', ['SPY']],
    ['Expecting a nasty equity market crash', ['SPY', 'QQQ']],
    ['Bitcoin will implode and drag Coinbase with it', ['COIN']],
    ['Against the Nasdaq 100, for silver', ['QQQ']],
    ["The S&P 500 can't keep climbing like this", ['SPY']],
    ['Palantir will halve, and so will Coinbase', ['PLTR', 'COIN']],
    ['Silver: down 15% by spring', ['SLV']],
    ['Chip stocks will have a tough year, Nvidia especially', ['NVDA']],
    ['Give me some PSQ', ['QQQ']],
  ] as const)('%s: never holds what it bets against', async (prompt, out) => {
    try {
      const r = await run({ prompt });
      const tickers = r.manifest.assets.map((a) => a.ticker);
      for (const t of out) expect(tickers).not.toContain(t);
    } catch (error) {
      expect((error as { code?: string }).code).toBe('THESIS_NOT_EXPRESSIBLE');
    }
  });
  it('a hedge against something is not a bet against it', async () => {
    expect(Object.keys(await weightsOf('A hedge against inflation: oil and silver'))).toEqual(expect.arrayContaining(['USO', 'SLV']));
  });
});

describe('exclusions inside asides and questions', () => {
  it.each([
    ['Index funds and treasuries, and, by the way, nothing crypto-related', ['COIN'], ['SGOV']],
    ['Could I own every stock but Tesla, equally?', ['TSLA'], ['AAPL', 'NVDA']],
    ['Semis, but hold off on AMD for now', ['AMD'], ['NVDA']],
    ['Apple, Amazon, Meta and Nvidia. On second thought, drop the social media one', ['META'], ['AAPL', 'AMZN', 'NVDA']],
  ] as const)('%s', async (prompt, out, kept) => {
    await outKept(prompt, out, kept);
  });
});

describe('implicit risk words', () => {
  it.each([
    ['The swings keep me up at night and I need this money for a down payment', 'low'],
    ['Go as hard as you can on AI, swing for the fences', 'high'],
  ] as const)('%s: %s', async (prompt, risk) => {
    const r = await run({ prompt });
    expect(r.reading.riskTolerance.value).toBe(risk);
  });
});

describe('fully specified baskets in other words', () => {
  it.each([
    ['Put SPY 2500, QQQ 2500, SGOV 5000 in bps', { SPY: 2500, QQQ: 2500, SGOV: 5000 }, 5000],
    [
      'Same weight for each of the ten single stocks',
      Object.fromEntries(['AAPL', 'AMD', 'AMZN', 'COIN', 'GOOGL', 'META', 'MSFT', 'NVDA', 'PLTR', 'TSLA'].map((t) => [t, 1000])),
      undefined,
    ],
  ] as const)('%s', async (prompt, weights, cap) => {
    expect(await weightsOf(prompt, cap ? { maxSingleAssetWeightBps: cap } : undefined)).toEqual(weights);
  });
  it('every asset of the registry at the same weight: fifteen lines, none under 1%', async () => {
    const w = await weightsOf('Spread it evenly over all fifteen assets');
    expect(Object.keys(w)).toHaveLength(15);
    expect(Math.min(...Object.values(w))).toBeGreaterThanOrEqual(666);
  });
});

describe('a short sized apart from its name', () => {
  it.each(['Short Coinbase and make it 20% of the book', 'I want a negative weight on oil, minus a fifth'])(
    '%s: refused with the long-only explanation',
    async (prompt) => {
      await expect(run({ prompt })).rejects.toMatchObject({ code: 'THESIS_NOT_EXPRESSIBLE', message: expect.stringMatching(/long-only/) });
    },
  );
});
