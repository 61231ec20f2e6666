/** The corrections of a reading as the Coil page builds them, and why a basket leaves out what a reading asked for. */
import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '$lib/trpc';
import { bpsToPercent } from '$lib/ui/format';
import type { Coil, ThesisReading } from './types';

export type Corrections = NonNullable<inferRouterInputs<AppRouter>['tools']['generateCoil']['corrections']>;

/**
 * Why a ticker the reading included is not in the basket, in the person's words: the rule that
 * moved its pin, the pins taking the whole basket, or the number of positions the risk level keeps.
 */
export function leftOutBecause(ticker: string, reading: ThesisReading, coil: Coil): string {
  const pin = reading.pinned.find((p) => p.tickers.includes(ticker) && p.movedBy);
  if (pin?.movedBy === 'cap')
    return `the single-asset cap of ${bpsToPercent(coil.risk.maxSingleAssetWeightBps ?? 10_000)} applied${pin.note ? `: ${pin.note}` : ''}.`;
  if (pin) return pin.note ?? `its pin was moved (${pin.movedBy}).`;
  const pinnedTotal = reading.pinned.reduce((s, p) => s + p.keptBps, 0);
  if (pinnedTotal >= 10_000) return 'the pinned weights take the whole basket; drop or lower a pin to make room for it.';
  return `at ${reading.riskTolerance.value} risk the basket keeps ${coil.assets.length} positions, its strongest matches; pin it in the thesis or raise the risk level to hold it.`;
}

/** The corrections in words, for the line above the rebuild button. */
export function describeCorrections(c: Corrections): string {
  return [
    c.included?.length ? `include ${c.included.join(', ')}` : '',
    c.excluded?.length ? `exclude ${c.excluded.join(', ')}` : '',
    c.pinned ? (c.pinned.length ? `pins ${c.pinned.map((p) => `${p.ticker} ${bpsToPercent(p.bps)}`).join(', ')}` : 'no pins') : '',
    c.riskTolerance ? `${c.riskTolerance} risk` : '',
  ]
    .filter(Boolean)
    .join('; ');
}
