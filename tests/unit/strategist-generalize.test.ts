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
