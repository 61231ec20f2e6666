/**
 * USDG amounts as decimal strings and 6-decimal integer units, with no floating point
 * anywhere: a binary float cannot hold 0.1, and a deposit pack must carry exactly the
 * amount the user typed. Validation rejects; it never rounds or clamps.
 */
import { SvcError } from '../errors';

export const USDG_DECIMALS = 6;
const UNIT = 10n ** BigInt(USDG_DECIMALS);

/** At most this much USDG per deposit pack (interface 2.10, 8). */
export const MAX_PACK_AMOUNT_USDG = '10000';
export const MAX_PACK_AMOUNT_UNITS = 10_000n * UNIT;

export interface ParsedUsdgAmount {
  /** The amount exactly as given. */
  amount: string;
  /** Integer 6-decimal units. */
  units: bigint;
}

function reject(code: string, message: string, path: string): never {
  throw new SvcError(code, message, { issues: [{ code, message, path }] });
}

/**
 * Parses a decimal USDG amount. Codes: AMOUNT_MALFORMED (not a plain decimal string),
 * AMOUNT_NOT_POSITIVE (zero or negative), AMOUNT_TOO_MANY_DECIMALS (more than 6 places),
 * AMOUNT_ABOVE_PACK_MAX (more than 10,000 USDG).
 */
export function parseUsdgAmount(value: unknown, path = 'amountUsdg'): ParsedUsdgAmount {
  if (typeof value !== 'string') reject('AMOUNT_MALFORMED', 'The amount must be a decimal string such as "125.50"', path);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m)
    reject(
      'AMOUNT_MALFORMED',
      'The amount must be a plain decimal string of digits with an optional fractional part, such as "125.50"',
      path,
    );
  const [, sign, whole, fraction = ''] = m;
  if (sign === '-' || /^0*$/.test(whole! + fraction)) {
    reject('AMOUNT_NOT_POSITIVE', 'The amount must be greater than zero', path);
  }
  if (fraction.length > USDG_DECIMALS) {
    reject(
      'AMOUNT_TOO_MANY_DECIMALS',
      `USDG has ${USDG_DECIMALS} decimals: the amount may have at most ${USDG_DECIMALS} decimal places (it is rejected, not rounded)`,
      path,
    );
  }
  const units = BigInt(whole!) * UNIT + BigInt(fraction.padEnd(USDG_DECIMALS, '0'));
  if (units > MAX_PACK_AMOUNT_UNITS) {
    reject(
      'AMOUNT_ABOVE_PACK_MAX',
      `A deposit pack carries at most ${MAX_PACK_AMOUNT_USDG} USDG (the amount is rejected, not clamped)`,
      path,
    );
  }
  return { amount: value, units };
}

/** 6-decimal units as a decimal string with no trailing zeros ("12500000" → "12.5"). */
export function formatUsdgUnits(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(USDG_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
