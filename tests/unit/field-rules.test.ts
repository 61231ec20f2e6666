/**
 * The pages' field rules (src/lib/shared/field-rules.ts): plain words and the service's own code
 * for each bad amount, address and hash, nothing for an empty field, and USDG parsed to exact
 * 6-decimal units without floating point.
 */
import { describe, expect, it } from 'vitest';
import { addressRule, hashRule, PACK_MAX, parseUsdg, usdgAmountRule, usdgText } from '../../src/lib/shared/field-rules';
import { parseUsdgAmount } from '../../src/lib/server/vaults/amount';
import { SvcError } from '../../src/lib/server/errors';

describe('field rules', () => {
  it('names each bad amount with the code the service gives it', () => {
    const cases: [string, string][] = [
      ['-5', 'AMOUNT_NOT_POSITIVE'],
      ['0', 'AMOUNT_NOT_POSITIVE'],
      ['0x1234', 'AMOUNT_MALFORMED'],
      ['1,5', 'AMOUNT_MALFORMED'],
      ['1.1234567', 'AMOUNT_TOO_MANY_DECIMALS'],
      ['99999999', 'AMOUNT_ABOVE_PACK_MAX'],
    ];
    for (const [text, code] of cases) {
      expect(usdgAmountRule(text, { max: PACK_MAX })?.code).toBe(code);
      // The page and the service agree on the code.
      try {
        parseUsdgAmount(text);
        throw new Error(`the service accepted ${text}`);
      } catch (e) {
        expect((e as SvcError).code).toBe(code);
      }
    }
    expect(usdgAmountRule('99999999')).toBeNull(); // no cap unless the form has one
    expect(usdgAmountRule('')).toBeNull();
    expect(usdgAmountRule('10000', { max: PACK_MAX })).toBeNull();
  });

  it('parses USDG to exact units and back', () => {
    expect(parseUsdg('0.1')).toEqual({ ok: true, units: 100_000n });
    expect(parseUsdg(' 12.5 ')).toEqual({ ok: true, units: 12_500_000n });
    expect(usdgText(12_500_000n)).toBe('12.5');
    expect(usdgText(10_000_000_000n)).toBe('10000');
  });

  it('says how long an address or a hash is when it is too short, and nothing when empty', () => {
    expect(addressRule('0x1234')).toEqual({
      words: 'An address is 0x and 40 hex digits; this one has 4. Copy it again from your wallet.',
      code: 'ADDRESS_MALFORMED',
    });
    expect(addressRule('0x1234', 'RECEIVER_MALFORMED')?.code).toBe('RECEIVER_MALFORMED');
    expect(addressRule('alice.eth')?.words).toContain('0x and 40 hex digits (0-9, a-f)');
    expect(addressRule(`0x${'a'.repeat(40)}`)).toBeNull();
    expect(addressRule('  ')).toBeNull();
    expect(hashRule('0x1234')).toEqual({
      words: 'A transaction hash is 0x and 64 hex digits; this one has 4. Copy it again in full.',
      code: 'TX_HASH_MALFORMED',
    });
    expect(hashRule(`0x${'b'.repeat(64)}`)).toBeNull();
    expect(hashRule('b'.repeat(64))?.code).toBe('TX_HASH_MALFORMED'); // a transaction hash starts with 0x
    expect(hashRule('b'.repeat(64), { plain: true })).toBeNull(); // a plan hash does not
    expect(hashRule(`0x${'b'.repeat(64)}`, { plain: true, what: 'A plan hash' })?.words).toBe(
      'A plan hash is 64 hex digits, without 0x (0-9, a-f).',
    );
  });
});
