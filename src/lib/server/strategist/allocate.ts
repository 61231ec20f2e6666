/**
 * Integer weight allocation: positive scores → positive integer bps that sum to exactly
 * 10000 with every weight at most the cap. Water-filling handles the cap (a share above it
 * is pinned and the rest is spread again); largest remainders settle the rounding.
 */
import { SvcError } from '../errors';

export const TOTAL_BPS = 10_000;

/** The smallest score relative to the largest that still counts as its own share. */
const MIN_RELATIVE_SCORE = 1e-9;

export interface AllocationItem {
  key: string;
  score: number;
}

/** Weights move in steps of 50 bps when the cap and the total allow it (readable baskets), else 1 bps. */
export function allocationUnit(capBps: number, totalBps: number = TOTAL_BPS): number {
  return capBps % 50 === 0 && totalBps % 50 === 0 ? 50 : 1;
}

/** The fewest positions that can hold 10000 bps under a cap. */
export function minimumPositions(capBps: number): number {
  const unit = allocationUnit(capBps);
  return Math.ceil(TOTAL_BPS / unit / Math.floor(capBps / unit));
}

/**
 * Allocates `totalBps` (10000 unless part of the basket is already pinned) across the items in
 * proportion to their scores, each at most `capBps` and at least one unit. Throws when the cap
 * cannot be met with this many items.
 */
export function allocateWeights(items: readonly AllocationItem[], capBps: number, totalBps: number = TOTAL_BPS): Map<string, number> {
  if (items.length === 0) throw new SvcError('INTERNAL', 'nothing to allocate');
  if (!Number.isInteger(capBps) || capBps < 1 || capBps > TOTAL_BPS) throw new SvcError('INTERNAL', 'cap out of range');
  if (!Number.isInteger(totalBps) || totalBps < 1 || totalBps > TOTAL_BPS) throw new SvcError('INTERNAL', 'total out of range');
  const unit = allocationUnit(capBps, totalBps);
  const totalUnits = totalBps / unit;
  const capUnits = Math.floor(capBps / unit);
  if (items.length * capUnits < totalUnits || items.length > totalUnits) {
    throw new SvcError('INTERNAL', `${items.length} positions cannot hold ${totalBps} bps under a ${capBps} bps cap`);
  }
  // Scores are taken relative to the largest, with a floor: a subnormal score (5e-324) or a
  // ratio near zero would otherwise divide into Infinity and NaN shares.
  const finite = items.map((i) => (Number.isFinite(i.score) && i.score > 0 ? i.score : 0));
  const max = Math.max(...finite);
  const scores = finite.map((s) => (s > 0 ? Math.max(s / max, MIN_RELATIVE_SCORE) : 0));
  const positive = max > 0;
  const raw = positive ? scores.map((s) => (s > 0 ? s : Math.min(...scores.filter((x) => x > 0)) / 10)) : scores.map(() => 1);

  // Water-filling: pin every share that would exceed the cap, spread the rest again.
  const shares = new Array<number>(items.length).fill(0);
  const active = new Set(items.map((_, i) => i));
  let remaining = totalUnits;
  for (;;) {
    const sum = [...active].reduce((s, i) => s + raw[i]!, 0);
    const over = [...active].filter((i) => (remaining * raw[i]!) / sum > capUnits);
    if (over.length === 0) {
      for (const i of active) shares[i] = (remaining * raw[i]!) / sum;
      break;
    }
    for (const i of over) {
      shares[i] = capUnits;
      remaining -= capUnits;
      active.delete(i);
    }
    if (active.size === 0) break;
  }

  const units = shares.map((s) => Math.min(capUnits, Math.max(1, Math.floor(s + 1e-9))));
  let diff = totalUnits - units.reduce((s, u) => s + u, 0);
  const order = (pick: (i: number) => boolean, key: (i: number) => number) =>
    items
      .map((_, i) => i)
      .filter(pick)
      .sort((a, b) => key(b) - key(a) || a - b);
  while (diff > 0) {
    const next = order(
      (i) => units[i]! < capUnits,
      (i) => shares[i]! - units[i]!,
    )[0];
    if (next === undefined) throw new SvcError('INTERNAL', 'allocation could not place every unit under the cap');
    units[next]! += 1;
    diff--;
  }
  while (diff < 0) {
    const next = order(
      (i) => units[i]! > 1,
      (i) => units[i]! - shares[i]!,
    )[0];
    if (next === undefined) throw new SvcError('INTERNAL', 'allocation could not keep every position positive');
    units[next]! -= 1;
    diff++;
  }
  return new Map(items.map((item, i) => [item.key, units[i]! * unit]));
}
