/**
 * What each benchmark thesis must and must not hold, checked against the strategist's answer
 * (bench/strategist/theses.json). Only the answer's public parts are read (the Coil's assets
 * and weights, its drift threshold, the memo, the notes and the disclaimers), so the same
 * checks measure any version of the strategist.
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
}

export interface MustNotHold {
  /** None of these is held. */
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

/** The failed checks of one thesis, in words; empty when it passes. */
export function failedChecks(thesis: BenchThesis, outcome: Outcome): string[] {
  const must = thesis.must ?? {};
  const mustNot = thesis.mustNot ?? {};
  if ('errorCode' in outcome) {
    return must.refused === outcome.errorCode ? [] : [`refused with ${outcome.errorCode}`];
  }
  if (must.refused) return [`answered, expected a refusal ${must.refused}`];
  const { response } = outcome;
  const weights = new Map(response.manifest.assets.map((a) => [a.ticker, a.weightBps]));
  const held = (t: string) => weights.has(t);
  const weight = (t: string) => weights.get(t) ?? 0;
  const text = [response.memo.title, response.memo.body, ...response.manifest.risk.notes].join('\n');
  const isDefault = response.disclaimers.some((d) => /^Default basket/i.test(d)) || /^Default\b/i.test(response.manifest.name);
  const failures: string[] = [];

  for (const t of must.hold ?? []) if (!held(t)) failures.push(`does not hold ${t}`);
  if (must.holdAny && !must.holdAny.some(held)) failures.push(`holds none of ${must.holdAny.join(', ')}`);
  for (const [t, bps] of Object.entries(must.weights ?? {})) if (weight(t) !== bps) failures.push(`${t} is ${weight(t)} bps, not ${bps}`);
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
  for (const p of must.memo ?? []) if (!new RegExp(p, 'i').test(text)) failures.push(`memo does not match /${p}/`);

  for (const t of mustNot.hold ?? []) if (held(t)) failures.push(`holds ${t}`);
  for (const p of mustNot.memo ?? []) if (new RegExp(p, 'i').test(text)) failures.push(`memo matches /${p}/`);
  if (mustNot.default && isDefault) failures.push('is the default basket');
  return failures;
}
