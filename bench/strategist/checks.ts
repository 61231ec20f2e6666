/**
 * What each benchmark thesis must and must not hold, checked against the strategist's answer
 * (bench/strategist/*.json). Only the answer's public parts are read (the Coil's assets and
 * weights, its drift threshold, the memo, the notes, the disclaimers and the reading's pins), so
 * the same checks measure any version of the strategist. The keys of the blind sets
 * (generalization-*.json) are the ones their writers were given: `hold`, `holdAny`, `weights`,
 * `exactly`, `holdOnlyFrom`, `largest`, `heavier`, `risk`, `refused`, `orRefused`, `evenSplit`
 * and `mustNot.hold`.
 */
import type { StrategistResponse } from '../../src/lib/server/strategist/types';

export type Tolerance = 'low' | 'medium' | 'high';

export interface MustHold {
  /** Every one of these tickers is held. */
  hold?: string[];
  /** At least one of these is held. */
  holdAny?: string[];
  /** Exact weights in bps. */
  weights?: Record<string, number>;
  /** The held tickers are exactly this set (no extra lines). */
  exactly?: string[];
  /** Every held ticker is one of these. */
  holdOnlyFrom?: string[];
  /** This ticker weighs strictly more than every other position. */
  largest?: string;
  /** Each of these weighs strictly more than every position outside the set. */
  largestSet?: string[];
  /** [a, b]: a is held and weighs strictly more than b (b held or not). */
  heavier?: Array<[string, string]>;
  /** The risk tolerance the basket was built for. */
  risk?: Tolerance;
  /** Case-insensitive patterns the memo (title, body) or the Coil's notes must match. */
  memo?: string[];
  /** The strategist refuses with this error code. */
  refused?: string;
  /** A refusal with this code passes too; an answer is checked by the other keys. */
  orRefused?: string;
  /** Every held position is within 1 bps of an even share (10000 / the number of positions). */
  evenSplit?: boolean;
}

export interface MustNotHold {
  /** None of these is held: what the thesis rules out or bets against. */
  hold?: string[];
  /** Patterns the memo and notes must not match. */
  memo?: string[];
  /** The answer is not the default basket. */
  default?: boolean;
}

export interface BenchThesis {
  id: string;
  class: string;
  thesis: string;
  preferences?: { maxSingleAssetWeightBps?: number; riskTolerance?: Tolerance };
  must?: MustHold;
  mustNot?: MustNotHold;
}

export type Outcome = { response: StrategistResponse } | { errorCode: string };

/** The drift threshold the strategist sets for each tolerance (strategist/build.ts). */
const TOLERANCE_BY_DRIFT: Record<number, Tolerance> = { 300: 'low', 500: 'medium', 800: 'high' };

/** A pin missed by more than this is a hard violation, not only a failure. */
export const PIN_TOLERANCE_BPS = 100;
/** No position under 1% unless the person pinned it. */
export const MIN_UNPINNED_BPS = 100;

export interface Verdict {
  /** The failed checks, in words; empty when the thesis passes. */
  failures: string[];
  /**
   * The failures that break a promise to the person rather than miss a preference: an asset the
   * thesis rules out or bets against is held (any `mustNot.hold` held), or a pinned weight is
   * missed by more than 100 bps. Each is also in `failures`.
   */
  hardViolations: string[];
}

/** The failed checks of one thesis and which of them are hard violations. */
export function judge(thesis: BenchThesis, outcome: Outcome): Verdict {
  const must = thesis.must ?? {};
  const mustNot = thesis.mustNot ?? {};
  const failures: string[] = [];
  const hardViolations: string[] = [];
  if ('errorCode' in outcome) {
    const accepted = must.refused === outcome.errorCode || must.orRefused === outcome.errorCode;
    return { failures: accepted ? [] : [`refused with ${outcome.errorCode}`], hardViolations };
  }
  if (must.refused) return { failures: [`answered, expected a refusal ${must.refused}`], hardViolations };
  const { response } = outcome;
  const weights = new Map(response.manifest.assets.map((a) => [a.ticker, a.weightBps]));
  const held = (t: string) => weights.has(t);
  const weight = (t: string) => weights.get(t) ?? 0;
  const text = [response.memo.title, response.memo.body, ...response.manifest.risk.notes].join('\n');
  const isDefault = response.disclaimers.some((d) => /^Default basket/i.test(d)) || /^Default\b/i.test(response.manifest.name);
  const hard = (failure: string) => {
    failures.push(failure);
    hardViolations.push(failure);
  };

  for (const t of must.hold ?? []) if (!held(t)) failures.push(`does not hold ${t}`);
  if (must.holdAny && !must.holdAny.some(held)) failures.push(`holds none of ${must.holdAny.join(', ')}`);
  for (const [t, bps] of Object.entries(must.weights ?? {})) {
    if (weight(t) === bps) continue;
    const failure = `${t} is ${weight(t)} bps, not ${bps}`;
    if (Math.abs(weight(t) - bps) > PIN_TOLERANCE_BPS) hard(failure);
    else failures.push(failure);
  }
  if (must.exactly) {
    const want = new Set(must.exactly);
    const extra = [...weights.keys()].filter((t) => !want.has(t));
    const missing = must.exactly.filter((t) => !held(t));
    if (extra.length) failures.push(`holds ${extra.join(', ')} beyond exactly ${must.exactly.join(', ')}`);
    if (missing.length) failures.push(`does not hold ${missing.join(', ')} of exactly ${must.exactly.join(', ')}`);
  }
  if (must.holdOnlyFrom) {
    const allowed = new Set(must.holdOnlyFrom);
    const outside = [...weights.keys()].filter((t) => !allowed.has(t));
    if (outside.length) failures.push(`holds ${outside.join(', ')}, outside ${must.holdOnlyFrom.join(', ')}`);
  }
  if (must.largest) {
    const others = [...weights].filter(([t]) => t !== must.largest).map(([, w]) => w);
    if (!held(must.largest) || others.some((w) => w >= weight(must.largest!))) failures.push(`${must.largest} is not strictly the largest`);
  }
  if (must.largestSet) {
    const set = new Set(must.largestSet);
    const outside = Math.max(0, ...[...weights].filter(([t]) => !set.has(t)).map(([, w]) => w));
    for (const t of set)
      if (!held(t) || weight(t) <= outside) failures.push(`${t} is not strictly above every position outside ${[...set].join(', ')}`);
  }
  for (const [a, b] of must.heavier ?? []) if (!held(a) || weight(a) <= weight(b)) failures.push(`${a} does not weigh more than ${b}`);
  if (must.risk) {
    const tolerance = TOLERANCE_BY_DRIFT[response.manifest.rebalancePolicy?.driftThresholdBps ?? -1];
    if (tolerance !== must.risk) failures.push(`built for ${tolerance ?? 'an unknown'} risk tolerance, not ${must.risk}`);
  }
  if (must.evenSplit) {
    const even = 10_000 / Math.max(1, weights.size);
    const off = [...weights].filter(([, w]) => Math.abs(w - even) > 1);
    if (off.length) failures.push(`${off.map(([t, w]) => `${t} ${w}`).join(', ')} bps: not within 1 bps of ${even.toFixed(2)}`);
  }
  for (const p of must.memo ?? []) if (!new RegExp(p, 'i').test(text)) failures.push(`memo does not match /${p}/`);

  for (const t of mustNot.hold ?? []) if (held(t)) hard(`holds ${t}, which it must not`);
  for (const p of mustNot.memo ?? []) if (new RegExp(p, 'i').test(text)) failures.push(`memo matches /${p}/`);
  if (mustNot.default && isDefault) failures.push('is the default basket');

  // A promise of every answer, whatever the thesis: no position under 1% that nobody pinned.
  const pinned = new Set([
    ...Object.keys(must.weights ?? {}),
    ...response.reading.pinned.filter((p) => p.keptBps > 0).flatMap((p) => p.tickers),
  ]);
  for (const [t, w] of weights)
    if (w < MIN_UNPINNED_BPS && !pinned.has(t)) failures.push(`${t} is ${w} bps, under ${MIN_UNPINNED_BPS} bps and not pinned`);
  return { failures, hardViolations };
}

/** The failed checks of one thesis, in words; empty when it passes. */
export function failedChecks(thesis: BenchThesis, outcome: Outcome): string[] {
  return judge(thesis, outcome).failures;
}
