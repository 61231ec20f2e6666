/**
 * Two promises every local basket keeps after its weights are allocated: a low-risk basket
 * leads with treasury bills (SGOV strictly the largest position), and no position is under 1%
 * unless the person pinned it (a 50 bps sliver of a theme's side member, or a residual of
 * rounding, is folded into a larger position instead).
 */
import { allocateWeights, allocationUnit, TOTAL_BPS } from './allocate';

export const MIN_UNPINNED_BPS = 100;

/**
 * Makes `lead` strictly the largest position with the smallest weight that does it (so a
 * low-risk basket stays flat): the others are spread again below it in proportion to what they
 * held, with fillers (in `fillerOrder`) only if the others cannot hold the rest below the lead
 * under the cap. Returns whether anything changed and the fillers added.
 */
export function leadWith(
  weights: Map<string, number>,
  lead: string,
  cap: number,
  fillerOrder: readonly string[],
): { changed: boolean; added: string[] } {
  const leadWeight = weights.get(lead) ?? 0;
  if ([...weights].every(([t, w]) => t === lead || w < leadWeight)) return { changed: false, added: [] };
  const unit = allocationUnit(cap);
  const others = [...weights].filter(([t]) => t !== lead);
  const added: string[] = [];
  const fits = (top: number) =>
    top - unit >= unit && others.length * (top - unit) >= TOTAL_BPS - top && TOTAL_BPS - top >= others.length * unit;
  const smallest = () => {
    for (let top = Math.ceil(TOTAL_BPS / (others.length + 1) / unit) * unit; top <= Math.min(cap, TOTAL_BPS); top += unit)
      if (fits(top)) return top;
    return undefined;
  };
  let top = smallest();
  for (const t of fillerOrder) {
    if (top !== undefined) break;
    if (t === lead || weights.has(t)) continue;
    others.push([t, Math.max(1, Math.min(...others.map(([, w]) => w)) / 2)]);
    added.push(t);
    top = smallest();
  }
  if (top === undefined) return { changed: false, added: [] };
  const spread = allocateWeights(
    others.map(([t, w]) => ({ key: t, score: w })),
    top - unit,
    TOTAL_BPS - top,
  );
  weights.clear();
  weights.set(lead, top);
  for (const [t, w] of spread) weights.set(t, w);
  return { changed: true, added };
}

/**
 * Folds every position under 1% that nobody pinned into the largest position with room under
 * the cap (an unpinned one first). Returns the tickers folded away.
 */
export function liftSmallPositions(weights: Map<string, number>, pinned: ReadonlySet<string>, cap: number): string[] {
  const folded: string[] = [];
  const small = [...weights]
    .filter(([t, w]) => w < MIN_UNPINNED_BPS && !pinned.has(t))
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  for (const [t, w] of small) {
    const room = [...weights]
      .filter(([x, v]) => x !== t && v >= MIN_UNPINNED_BPS && v + w <= cap)
      .sort((a, b) => Number(pinned.has(a[0])) - Number(pinned.has(b[0])) || b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const into = room[0];
    if (!into) continue;
    weights.delete(t);
    weights.set(into[0], into[1] + w);
    folded.push(t);
  }
  return folded;
}
