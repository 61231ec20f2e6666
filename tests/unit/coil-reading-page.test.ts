/**
 * What the Coil page says about a reading and a fork (issue 33 item 3): why the basket leaves
 * out something the reading asked for, and a fork's memo written for its own weights.
 */
import { describe, expect, it } from 'vitest';
import { forkMemo } from '../../src/lib/components/coil/fork-memo';
import { describeCorrections, leftOutBecause } from '../../src/lib/components/coil/reading-corrections';
import type { Coil, ThesisReading } from '../../src/lib/components/coil/types';

const reading = (over: Partial<ThesisReading> = {}): ThesisReading => ({
  reader: 'svc-thesis-reader-2.0.0',
  matched: [],
  included: [],
  excluded: [],
  pinned: [],
  only: false,
  stance: 'bullish',
  riskWords: [],
  riskTolerance: { value: 'medium', source: 'default' },
  noRegistryFit: [],
  notUnderstood: [],
  ...over,
});

const coil = (assets: [string, number][], cap = 4000): Coil =>
  ({
    name: 'Parent basket',
    slug: 'parent-basket',
    assets: assets.map(([ticker, weightBps]) => ({ ticker, weightBps, tokenAddress: '0x0', rationale: '' })),
    risk: { maxSingleAssetWeightBps: cap },
    memo: { title: 'Parent memo', body: 'NVDA 3350 bps', disclaimer: 'Not investment advice.' },
  }) as unknown as Coil;

describe('why the basket leaves out what the reading asked for', () => {
  it('names the cap and how to lift it when the cap moved the pin', () => {
    const r = reading({
      pinned: [
        {
          target: 'MSFT',
          tickers: ['MSFT'],
          askedBps: 7500,
          keptBps: 4000,
          movedBy: 'cap',
          note: 'set userPreferences.maxSingleAssetWeightBps to 7500 to keep it',
          source: 'thesis',
        },
      ],
    });
    expect(leftOutBecause('MSFT', r, coil([['SGOV', 6000]]))).toBe(
      'the single-asset cap of 40.00% applied: set userPreferences.maxSingleAssetWeightBps to 7500 to keep it.',
    );
  });

  it('says the pins take the whole basket, else how many positions the risk level keeps', () => {
    const pinned = reading({ pinned: [{ target: 'AMZN', tickers: ['AMZN'], askedBps: 10_000, keptBps: 10_000, source: 'thesis' }] });
    expect(leftOutBecause('NVDA', pinned, coil([['AMZN', 10_000]]))).toMatch(/^the pinned weights take the whole basket/);
    expect(
      leftOutBecause(
        'AVGO',
        reading(),
        coil([
          ['NVDA', 5000],
          ['AMD', 5000],
        ]),
      ),
    ).toBe('at medium risk the basket keeps 2 positions, its strongest matches; pin it in the thesis or raise the risk level to hold it.');
  });

  it('puts the corrections in words', () => {
    expect(describeCorrections({ excluded: ['AMD'], pinned: [], riskTolerance: 'low' })).toBe('exclude AMD; no pins; low risk');
  });
});

describe("a fork's memo", () => {
  it('is written for its own weights, says what changed, and never keeps the parent memo', () => {
    const parent = coil([
      ['NVDA', 3350],
      ['AMD', 3350],
      ['SPY', 3300],
    ]);
    const memo = forkMemo(parent, 'My fork', [
      { ticker: 'NVDA', weightBps: 2500 },
      { ticker: 'AMD', weightBps: 4200 },
      { ticker: 'SPY', weightBps: 3300 },
    ]);
    expect(memo.title).toBe('Fork of Parent basket, with its own weights');
    expect(memo.body).toContain('This fork holds AMD 42.00%, SPY 33.00%, NVDA 25.00%.');
    expect(memo.body).toContain('Changed from its parent: NVDA 33.50% → 25.00%, AMD 33.50% → 42.00%; unchanged: SPY.');
    expect(memo.body).not.toContain('3350 bps');
    expect(memo.disclaimer).toBe('Not investment advice.');
  });
});
