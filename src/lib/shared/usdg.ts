/**
 * USDG amounts: decimal strings as people write them, and 6-decimal integer units as the token
 * counts them. The one conversion of the service, the server's and the browser's, with no
 * floating point anywhere (a binary float cannot hold 0.1). viem's `parseUnits` and
 * `formatUnits` do the arithmetic; this module only decides what is an amount: viem rounds a
 * seventh decimal away, and an amount here is refused instead, never rounded or clamped.
 * Import it whole: `import * as usdg from '$lib/shared/usdg'`, then `usdg.parse`, `usdg.units`,
 * `usdg.format`. Each caller keeps its own error codes and limits on top.
 */
import { formatUnits, parseUnits } from 'viem';

export const USDG_DECIMALS = 6;

/** Digits, optionally a point and more digits, optionally a leading minus: nothing else (no exponent, no spaces, no bare point). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

export type UsdgRefusal =
  /** Not a plain decimal string. */
  | 'MALFORMED'
  /** More than 6 decimal places (USDG has 6: refused, never rounded). */
  | 'TOO_MANY_DECIMALS';

export type ParsedUsdg = { ok: true; units: bigint } | { ok: false; reason: UsdgRefusal };

/** A decimal USDG string as 6-decimal units, or why it is not one. The sign is kept: callers refuse what they do not accept. */
export function parse(text: string): ParsedUsdg {
  if (!DECIMAL.test(text)) return { ok: false, reason: 'MALFORMED' };
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > USDG_DECIMALS) return { ok: false, reason: 'TOO_MANY_DECIMALS' };
  return { ok: true, units: parseUnits(text, USDG_DECIMALS) };
}

/** The units of an amount already validated by its caller's rules; throws (a bug, not a refusal) when it is not one. */
export function units(text: string): bigint {
  const parsed = parse(text);
  if (!parsed.ok) throw new RangeError(`not a USDG amount (${parsed.reason})`);
  return parsed.units;
}

/** 6-decimal units as a decimal string with no trailing zeros and no exponent: 12_500_000n → "12.5", 0n → "0". */
export function format(amountUnits: bigint): string {
  return formatUnits(amountUnits, USDG_DECIMALS);
}
