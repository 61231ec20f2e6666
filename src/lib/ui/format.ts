/** Display helpers shared by the pages. */
import * as usdg from '$lib/shared/usdg';

/** Basis points as a percentage: 2500 → "25.00%". */
export function bpsToPercent(bps: number, digits = 2): string {
  return `${(bps / 100).toFixed(digits)}%`;
}

/** A signed bps drift: +150 → "+1.50 pp". */
export function signedBps(bps: number): string {
  const sign = bps > 0 ? '+' : bps < 0 ? '−' : '±';
  return `${sign}${(Math.abs(bps) / 100).toFixed(2)} pp`;
}

/** 0x1234…abcd */
export function shortHex(value: string, head = 6, tail = 4): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}

/** An ISO timestamp in the reader's locale, or the raw text when it does not parse. */
export function when(iso: string | null | undefined): string {
  if (!iso) return 'unknown';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** USDG 6-decimal units (a decimal string of an integer) as "1,234.500000 USDG". */
export function usdgFromUnits(units: string | bigint): string {
  const value = typeof units === 'bigint' ? units : BigInt(units);
  const negative = value < 0n;
  const [whole, frac = ''] = usdg.format(negative ? -value : value).split('.');
  return `${negative ? '-' : ''}${BigInt(whole!).toLocaleString('en-US')}.${frac.padEnd(usdg.USDG_DECIMALS, '0')} USDG`;
}

/** A decimal USDG string with its six decimals written out: "12.5" → "12.500000 USDG"; anything that is not one is shown as typed. */
export function usdgDecimal(amount: string): string {
  const parsed = usdg.parse(amount.trim());
  return parsed.ok && parsed.units >= 0n ? usdgFromUnits(parsed.units) : `${amount} USDG`;
}

/** Seconds left as "14:59" or "1:02:03"; "expired" at or below zero. */
export function countdown(secondsLeft: number): string {
  if (secondsLeft <= 0) return 'expired';
  const s = Math.floor(secondsLeft);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}
