/**
 * A deposit pack's USDG amount: the shared conversion (shared/usdg.ts), with the pack's own
 * codes and limit on top. A deposit pack must carry exactly the amount the user typed.
 * Validation rejects; it never rounds or clamps.
 */
import { SvcError } from '../errors';
import * as usdg from '../../shared/usdg';

export const USDG_DECIMALS = usdg.USDG_DECIMALS;

/** At most this much USDG per deposit pack (interface 2.10, 8). */
export const MAX_PACK_AMOUNT_USDG = '10000';
export const MAX_PACK_AMOUNT_UNITS = usdg.units(MAX_PACK_AMOUNT_USDG);

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
  const parsed = usdg.parse(value);
  if (!parsed.ok && parsed.reason === 'MALFORMED')
    reject(
      'AMOUNT_MALFORMED',
      'The amount must be a plain decimal string of digits with an optional fractional part, such as "125.50"',
      path,
    );
  // The sign before the decimals: "-0.0000001" is not positive, whatever its places.
  if (value.startsWith('-') || /^[0.]*$/.test(value)) {
    reject('AMOUNT_NOT_POSITIVE', 'The amount must be greater than zero', path);
  }
  if (!parsed.ok) {
    reject(
      'AMOUNT_TOO_MANY_DECIMALS',
      `USDG has ${USDG_DECIMALS} decimals: the amount may have at most ${USDG_DECIMALS} decimal places (it is rejected, not rounded)`,
      path,
    );
  }
  if (parsed.units > MAX_PACK_AMOUNT_UNITS) {
    reject(
      'AMOUNT_ABOVE_PACK_MAX',
      `A deposit pack carries at most ${MAX_PACK_AMOUNT_USDG} USDG (the amount is rejected, not clamped)`,
      path,
    );
  }
  return { amount: value, units: parsed.units };
}

/** 6-decimal units as a decimal string with no trailing zeros ("12500000" → "12.5"): shared/usdg.ts's `format`. */
export const formatUsdgUnits = usdg.format;
