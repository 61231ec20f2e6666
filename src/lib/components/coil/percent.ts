/**
 * A weight typed as a percentage with at most two decimals ("25", "12.5", "0.05"), read
 * exactly into basis points. Anything else is refused with a reason; nothing is rounded.
 */
export function percentToBps(text: string): { bps: number } | { problem: string } {
  const t = text.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return { problem: 'a percentage with at most two decimals, e.g. 12.5' };
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (bps > 10_000) return { problem: 'at most 100%' };
  return { bps };
}

export function bpsToPercentText(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const frac = bps % 100;
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}`;
}
