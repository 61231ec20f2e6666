/** The one USDG conversion (src/lib/shared/usdg.ts), used by the server and the browser: refused, never rounded. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as usdg from '../../src/lib/shared/usdg';
import { parseUsdgAmount } from '../../src/lib/server/vaults/amount';
import { parseUsdgUnits } from '../../src/lib/server/vaults/fees';
import { splitBasketAmount } from '../../src/lib/server/stocks/basket';
import { usdgDecimal, usdgFromUnits } from '../../src/lib/ui/format';

describe('usdg.parse, usdg.units, usdg.format', () => {
  it.each([
    ['0', 0n],
    ['25', 25_000_000n],
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['-1.5', -1_500_000n],
    ['000123.450000', 123_450_000n],
    ['99999999999999999999.999999', 99_999_999_999_999_999_999_999_999n],
  ])('parses %s to %s units', (text, units) => {
    expect(usdg.parse(text)).toEqual({ ok: true, units });
    expect(usdg.units(text)).toBe(units);
  });

  it('refuses a seventh decimal instead of rounding it (viem alone would round)', () => {
    expect(usdg.parse('1.0000005')).toEqual({ ok: false, reason: 'TOO_MANY_DECIMALS' });
    expect(usdg.parse('0.0000001')).toEqual({ ok: false, reason: 'TOO_MANY_DECIMALS' });
    expect(() => usdg.units('1.0000005')).toThrow(RangeError);
  });

  it.each(['', '.5', '5.', '1e3', '1E-6', ' 1', '1 ', '+1', '1,5', '0x10', 'NaN', 'Infinity', '--1', '1.2.3'])(
    'refuses %j as malformed',
    (text) => {
      expect(usdg.parse(text)).toEqual({ ok: false, reason: 'MALFORMED' });
    },
  );

  it.each([
    [0n, '0'],
    [1n, '0.000001'],
    [12_500_000n, '12.5'],
    [-1_500_000n, '-1.5'],
    [10n ** 30n, '1000000000000000000000000'],
  ])('formats %s units as %s (no trailing zeros, no exponent)', (units, text) => {
    expect(usdg.format(units)).toBe(text);
  });

  it('round-trips every amount of units', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (units) => usdg.units(usdg.format(units)) === units));
  });
});

describe('every caller converts through it, keeping its own codes', () => {
  it('the deposit pack: AMOUNT_MALFORMED, AMOUNT_NOT_POSITIVE, AMOUNT_TOO_MANY_DECIMALS, AMOUNT_ABOVE_PACK_MAX', () => {
    const codeOf = (v: unknown) => {
      try {
        parseUsdgAmount(v);
        return 'ok';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(codeOf('1e3')).toBe('AMOUNT_MALFORMED');
    expect(codeOf(12)).toBe('AMOUNT_MALFORMED');
    expect(codeOf('-1')).toBe('AMOUNT_NOT_POSITIVE');
    expect(codeOf('0.000')).toBe('AMOUNT_NOT_POSITIVE');
    expect(codeOf('-0.0000001')).toBe('AMOUNT_NOT_POSITIVE');
    expect(codeOf('1.0000001')).toBe('AMOUNT_TOO_MANY_DECIMALS');
    expect(codeOf('10000.000001')).toBe('AMOUNT_ABOVE_PACK_MAX');
    expect(parseUsdgAmount('10000')).toEqual({ amount: '10000', units: 10_000_000_000n });
  });

  it('the fee calculator: INPUT_INVALID for a sign, an exponent or a seventh decimal', () => {
    expect(parseUsdgUnits('1250.5')).toBe(1_250_500_000n);
    for (const bad of ['-1', '-0', '1e3', '1.0000001']) expect(() => parseUsdgUnits(bad)).toThrow(/not a USDG decimal string/);
  });

  it('the basket split: shares in units that add up to the total', () => {
    const shares = splitBasketAmount('100.000001', [
      { ticker: 'A', tokenAddress: '0x1', weightBps: 5000 },
      { ticker: 'B', tokenAddress: '0x2', weightBps: 5000 },
    ]);
    expect(shares.map((s) => s.amountUsdg)).toEqual(['50.000001', '50']);
  });

  it("the pages' display: six decimals written out, grouped", () => {
    expect(usdgFromUnits(1_234_500_000n)).toBe('1,234.500000 USDG');
    expect(usdgFromUnits('-1')).toBe('-0.000001 USDG');
    expect(usdgDecimal('12.5')).toBe('12.500000 USDG');
    expect(usdgDecimal('12.5000001')).toBe('12.5000001 USDG');
  });
});
