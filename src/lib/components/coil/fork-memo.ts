/**
 * The memo of a fork: written for the fork's own weights, saying what changed from its parent.
 * A fork never carries its parent's memo, whose weights it no longer holds (issue 33).
 */
import { bpsToPercent } from '$lib/ui/format';
import type { Coil } from './types';

type Memo = NonNullable<Coil['memo']>;

const FORK_DISCLAIMER = 'Not investment advice: a fork re-weights its parent, for planning on paper.';

export function forkMemo(parent: Coil, name: string, weights: { ticker: string; weightBps: number }[]): Memo {
  const before = new Map(parent.assets.map((a) => [a.ticker, a.weightBps]));
  const moved = weights.filter((w) => before.get(w.ticker) !== w.weightBps);
  const kept = weights.filter((w) => before.get(w.ticker) === w.weightBps);
  const holds = [...weights]
    .sort((a, b) => b.weightBps - a.weightBps || (a.ticker < b.ticker ? -1 : 1))
    .map((w) => `${w.ticker} ${bpsToPercent(w.weightBps)}`)
    .join(', ');
  const changes = moved.length
    ? `Changed from its parent: ${moved.map((w) => `${w.ticker} ${bpsToPercent(before.get(w.ticker) ?? 0)} → ${bpsToPercent(w.weightBps)}`).join(', ')}${kept.length ? `; unchanged: ${kept.map((w) => w.ticker).join(', ')}` : ''}.`
    : 'Same weights as its parent.';
  return {
    title: `Fork of ${parent.name}, with its own weights`.slice(0, 200),
    body: `This fork holds ${holds}. ${changes} Its parent is ${parent.slug}; the parent's memo described the parent's weights, not these.`.slice(
      0,
      4000,
    ),
    disclaimer: parent.memo?.disclaimer ?? FORK_DISCLAIMER,
  };
}
