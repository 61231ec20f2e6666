/**
 * The split of a basket's total by weight (stocks/basket.ts): the shares always add up to the
 * total exactly, each share is within one 6-decimal unit of its exact value, and a total or
 * weights that cannot be split are refused by name, never repaired.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBasketAmount } from '../../src/lib/server/stocks/basket';
import { format as fromUnits } from '../../src/lib/shared/usdg';
import { SvcError } from '../../src/lib/server/errors';

const units = (amount: string) => {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
};

/** Positive integer weights that add up to 10000. */
const weights = fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { minLength: 0, maxLength: 14 }).map((cuts) => {
  const sorted = [...cuts].sort((a, b) => a - b);
  const points = [0, ...sorted, 10_000];
  return points.slice(1).map((p, i) => p - points[i]!);
});
const total = fc.bigInt({ min: 1n, max: 10n ** 12n }).map(fromUnits);

describe('splitBasketAmount', () => {
  it('adds up to the total exactly, each share within one unit of its exact value', () => {
    fc.assert(
      fc.property(total, weights, (amount, w) => {
        const assets = w.map((weightBps, i) => ({ ticker: `T${i}`, tokenAddress: `0x${i}`, weightBps }));
        const shares = splitBasketAmount(amount, assets);
        const sum = shares.reduce((s, x) => s + units(x.amountUsdg), 0n);
        expect(sum).toBe(units(amount));
        for (const [i, share] of shares.entries()) {
          const exactTimesBps = units(amount) * BigInt(w[i]!);
          const got = units(share.amountUsdg) * 10_000n;
          expect(got >= exactTimesBps - 10_000n && got <= exactTimesBps + 10_000n).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes amounts without trailing zeros or exponents', () => {
    expect(splitBasketAmount('100', [{ ticker: 'A', tokenAddress: '0x1', weightBps: 10_000 }])[0]!.amountUsdg).toBe('100');
    expect(fromUnits(1n)).toBe('0.000001');
    expect(fromUnits(25_500_000n)).toBe('25.5');
  });

  it('refuses what cannot be split, naming the field', () => {
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as SvcError;
      }
      throw new Error('not refused');
    };
    const ok = [{ ticker: 'A', tokenAddress: '0x1', weightBps: 10_000 }];
    for (const bad of ['0', '0.0000001', '-1', '1e3', ' 5', '5.', '']) {
      expect(refusal(() => splitBasketAmount(bad, ok)).issues[0]).toMatchObject({ code: 'BASKET_AMOUNT_INVALID', path: 'totalAmountUsdg' });
    }
    expect(refusal(() => splitBasketAmount('1', [])).issues[0]!.code).toBe('BASKET_EMPTY');
    expect(refusal(() => splitBasketAmount('1', [{ ...ok[0]!, weightBps: 9_999 }])).issues[0]!.code).toBe('BASKET_WEIGHTS_INVALID');
    expect(refusal(() => splitBasketAmount('1', [{ ...ok[0]!, weightBps: 10_000.5 }])).issues[0]).toMatchObject({
      code: 'BASKET_WEIGHTS_INVALID',
      path: 'coil.assets.0.weightBps',
    });
  });
});
