/**
 * From the words of a thesis (reader.ts) and the person's corrections to what any basket for it
 * must respect: the risk tolerance and cap, the tickers it never holds, the weights it pins (as
 * asked and as kept under the sum, cap and rounding rules), the assets it asks for with their
 * scores, and the public reading, where every decision names its cause. The local strategist
 * builds its basket from this plan; a partner basket is checked against it.
 */
import { SvcError } from '../errors';
import { STOCK_TOKENS } from '../registry';
import { allocateWeights, minimumPositions, TOTAL_BPS } from './allocate';
import { BROAD_FUNDS, BROAD_FUNDS_LOW_RISK_CAP, themeMembers } from './basket-policy';
import type { Theme } from './lexicon';
import type { ThesisNlp } from './nlp';
import { thesisNlp } from './nlp';
import { readThesisWords, targetKey, type Mention } from './reader';
import { READER_VERSION, type RiskTolerance, type StrategistRequest, type ThesisReading } from './types';

export const DEFAULT_CAP_BY_TOLERANCE: Record<RiskTolerance, number> = { low: 3000, medium: 4000, high: 5000 };

/** Points of a ticker the thesis names; a theme's tickers get their affinity (at most 5). */
const NAMED_POINTS = 6;
const SCOPE_FACTOR = { only: 1, mostly: 2.5, 'a little': 0.4 } as const;
/** A residual this small, left by pins that name every position, goes to those positions. */
const ROUNDING_RESIDUAL_BPS = 100;

const STOCK_TICKERS = STOCK_TOKENS.map((t) => t.ticker);
const COMPANY_NAME = new Map(STOCK_TOKENS.map((t) => [t.ticker, t.name]));

export interface Candidate {
  ticker: string;
  score: number;
  reasons: string[];
  /** Named directly or by a correction (kept whatever the position limit). */
  named: boolean;
}

export type PinnedWeight = ThesisReading['pinned'][number];

export interface ThesisPlan {
  reading: ThesisReading;
  tolerance: RiskTolerance;
  cap: number;
  /** The cap is the person's (userPreferences), not the strategist's default for the tolerance. */
  capFromPreferences: boolean;
  /** The thesis asks for broad funds only (index and cash), or for nothing the registry holds. */
  broadOnly: boolean;
  only: boolean;
  /** Ticker → why the basket never holds it. */
  excluded: Map<string, string>;
  pins: PinnedWeight[];
  /** Ticker → the weight the pins give it (theme pins spread over the theme's tickers). */
  pinWeights: Map<string, number>;
  /** What the thesis asks for beyond its pins, best first. */
  candidates: Candidate[];
  noRegistryFit: string[];
}

function describe(m: Mention): { kind: ThesisReading['matched'][number]['kind']; means: string; tickers: string[] } {
  const t = m.target;
  if (t.kind === 'asset') return { kind: t.via, means: `${t.ticker} (${COMPANY_NAME.get(t.ticker)})`, tickers: [t.ticker] };
  if (t.kind === 'theme') {
    const tickers = Object.entries(t.theme.affinity)
      .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
      .map(([x]) => x);
    return { kind: 'theme', means: `theme: ${t.theme.label}`, tickers };
  }
  return { kind: 'no registry fit', means: `no registry asset fits ${t.label}`, tickers: [] };
}

function becauseOf(m: Mention, theme?: Theme): string {
  const cue = m.cue ? ` ("${m.cue}")` : '';
  const via = theme ? ` with the theme ${theme.label}` : '';
  if (m.polarity === 'bearish') return `bearish${cue}${via}: a long-only basket cannot short it, so it is left out`;
  if (m.polarity === 'unsure')
    return `doubted${cue}${via}: the reader cannot tell it is wanted, so it is left out (a correction can include it)`;
  return `excluded${cue}${via}`;
}

function toleranceOf(request: StrategistRequest, riskWords: ThesisReading['riskWords']): ThesisReading['riskTolerance'] {
  if (request.corrections?.riskTolerance) return { value: request.corrections.riskTolerance, source: 'correction' };
  if (request.userPreferences?.riskTolerance) return { value: request.userPreferences.riskTolerance, source: 'userPreferences' };
  if (riskWords.length === 0) return { value: 'medium', source: 'default' };
  const count = { low: 0, medium: 0, high: 0 };
  for (const w of riskWords) count[w.tolerance]++;
  // The most named tolerance; on a tie the more cautious one.
  const value = (['low', 'medium', 'high'] as const).reduce((best, t) => (count[t] > count[best] ? t : best), 'low' as RiskTolerance);
  return { value, source: 'thesis' };
}

/** Integer shares of `total` in proportion to `asked`, summing exactly to `total` (largest remainders, then order). */
function scaleTo(asked: number[], total: number): number[] {
  const sum = asked.reduce((s, a) => s + a, 0);
  // Nothing asked (every pin excluded): nothing to share out, rather than 0/0 shares.
  if (sum <= 0) return asked.map(() => 0);
  const exact = asked.map((a) => (a * total) / sum);
  const out = exact.map((e) => Math.floor(e + 1e-9));
  let left = total - out.reduce((s, x) => s + x, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e + 1e-9) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]! += 1;
    left--;
  }
  return out;
}

interface WorkingPin extends PinnedWeight {
  /** The weight as asked, exact (a third is 3333.33...). */
  exact: number;
  affinity: Record<string, number>;
}

/**
 * A thesis no long-only basket can express: a negative or short weight ("-30% TSLA", "short
 * 20% of QQQ"). Refused before any provider is asked, rather than read as a long position.
 */
function refuseNegativeWeights(words: readonly string[]): void {
  if (words.length === 0) return;
  throw new SvcError(
    'THESIS_NOT_EXPRESSIBLE',
    `A basket is long-only: it holds positive weights and cannot hold a negative or short weight ("${words[0]}")`,
    {
      issues: words.map((w) => ({
        code: 'NEGATIVE_WEIGHT',
        message: `"${w}" asks for a negative or short position; a long-only basket cannot hold one. Leave the name out (or say you want it excluded) and pin only positive weights`,
        path: 'prompt',
      })),
    },
  );
}

/** Reads a thesis into the plan every basket for it must respect. Throws THESIS_NOT_EXPRESSIBLE when nothing can be held. */
export function planThesis(request: StrategistRequest, nlp: ThesisNlp = thesisNlp()): ThesisPlan {
  const words = readThesisWords(request.prompt, nlp);
  refuseNegativeWeights(words.negativeWeights);
  const corrections = request.corrections;
  const riskTolerance = toleranceOf(request, words.riskWords);
  const tolerance = riskTolerance.value;
  // The cap: the person's (userPreferences, else one the thesis states: "max 60% per position"),
  // else the default for the tolerance; "no cap" in the thesis lifts the default to the pins below.
  const statedCap = words.capWords.find((w) => w.bps !== undefined && w.bps >= 1 && w.bps <= TOTAL_BPS);
  const liftedBy = request.userPreferences?.maxSingleAssetWeightBps === undefined && !statedCap ? words.capWords[0] : undefined;
  const capFromPreferences =
    request.userPreferences?.maxSingleAssetWeightBps !== undefined || statedCap !== undefined || liftedBy !== undefined;
  let cap = request.userPreferences?.maxSingleAssetWeightBps ?? statedCap?.bps ?? DEFAULT_CAP_BY_TOLERANCE[tolerance];
  const mentions = words.mentions;
  const wanted = mentions.filter((m) => m.polarity === 'include' && m.target.kind !== 'unfit');
  const correctedIn = new Set(corrections?.included ?? []);
  const correctedOut = new Set(corrections?.excluded ?? []);

  // Exclusions: a ticker excluded by name always; one excluded through a theme unless the thesis
  // names it as wanted; a correction wins over both.
  // What the thesis names as wanted, and where it last does. A name the thesis wants is kept when
  // a theme holding it is ruled out ("keep Apple, dump the rest of big tech"), unless the thesis
  // corrects itself after naming it ("Apple, Microsoft and Meta ... actually drop the social media one").
  // A theme that is one asset ("oil", "T-bills") counts as named for the basket.
  const singleTicker = (m: Mention) => {
    if (m.target.kind === 'asset') return m.target.ticker;
    if (m.target.kind !== 'theme') return undefined;
    const strong = Object.entries(m.target.theme.affinity).filter(([, a]) => (a ?? 0) >= 2);
    return strong.length === 1 ? strong[0]![0] : undefined;
  };
  const namedAt = new Map<string, number>();
  for (const m of wanted)
    if (m.target.kind === 'asset') namedAt.set(m.target.ticker, Math.max(namedAt.get(m.target.ticker) ?? -1, m.start));
  const excluded = new Map<string, { because: string; source: 'thesis' | 'correction' }>();
  for (const t of correctedOut) excluded.set(t, { because: 'excluded by a correction', source: 'correction' });
  for (const m of mentions)
    if (m.polarity !== 'include' && m.target.kind === 'asset' && !excluded.has(m.target.ticker) && !correctedIn.has(m.target.ticker))
      excluded.set(m.target.ticker, { because: becauseOf(m), source: 'thesis' });
  for (const m of mentions) {
    if (m.polarity === 'include' || m.target.kind !== 'theme') continue;
    for (const t of themeMembers(m.target.theme))
      if (!excluded.has(t) && !(namedAt.has(t) && (!m.corrects || namedAt.get(t)! > m.start)) && !correctedIn.has(t))
        excluded.set(t, { because: becauseOf(m, m.target.theme), source: 'thesis' });
  }

  // Pins, as asked: the thesis's, or the correction's when it gives them ([] removes them all).
  const pins: WorkingPin[] = [];
  const pinnedMentions = wanted.filter((m) => m.pinBps !== undefined && m.pinBps > 0);
  const assetPinned = new Set(
    corrections?.pinned
      ? corrections.pinned.map((p) => p.ticker)
      : pinnedMentions.flatMap((m) => (m.target.kind === 'asset' ? [m.target.ticker] : [])),
  );
  if (corrections?.pinned) {
    for (const p of corrections.pinned)
      pins.push({
        target: p.ticker,
        tickers: [p.ticker],
        askedBps: p.bps,
        keptBps: p.bps,
        exact: p.bps,
        affinity: { [p.ticker]: 1 },
        source: 'correction',
      });
  } else {
    const seenPins = new Set<string>();
    for (const m of pinnedMentions) {
      const key = targetKey(m.target);
      if (seenPins.has(key)) continue;
      seenPins.add(key);
      const exact = m.pinBps!;
      if (m.target.kind === 'asset') {
        // A pin on what the same thesis rules out ("20% Tesla ... avoid Tesla"): the exclusion
        // wins (the reader fails closed) and the reading says so.
        if (excluded.has(m.target.ticker)) {
          pins.push({
            target: m.target.ticker,
            tickers: [],
            askedBps: Math.round(exact),
            keptBps: 0,
            exact: 0,
            affinity: {},
            source: 'thesis',
            movedBy: 'excluded',
          });
          continue;
        }
        pins.push({
          target: m.target.ticker,
          tickers: [m.target.ticker],
          askedBps: Math.round(exact),
          keptBps: 0,
          exact,
          affinity: { [m.target.ticker]: 1 },
          source: 'thesis',
        });
      } else if (m.target.kind === 'theme') {
        const affinity = Object.fromEntries(
          Object.entries(m.target.theme.affinity).filter(([t, a]) => (a ?? 0) >= 2 && !excluded.has(t) && !assetPinned.has(t)),
        ) as Record<string, number>;
        const tickers = Object.keys(affinity);
        pins.push({
          target: m.target.theme.label,
          tickers,
          askedBps: Math.round(exact),
          keptBps: 0,
          exact: tickers.length ? exact : 0,
          affinity,
          source: 'thesis',
          ...(tickers.length ? {} : { movedBy: 'excluded' as const }),
        });
      }
    }
  }

  // The sum rule, then whole basis points, then the cap.
  const askedSum = pins.reduce((s, p) => s + p.exact, 0);
  if (askedSum > TOTAL_BPS + 1e-6) {
    const scaled = scaleTo(
      pins.map((p) => p.exact),
      TOTAL_BPS,
    );
    pins.forEach((p, i) => {
      if (scaled[i] !== Math.round(p.exact)) p.movedBy = 'sum';
      p.exact = scaled[i]!;
    });
  }
  const restTakers = corrections?.pinned ? [] : wanted.filter((m) => m.rest && m.pinBps === undefined);
  const unpinnedWanted =
    restTakers.length > 0 ||
    wanted.some(
      (m) => m.pinBps === undefined && !(m.target.kind === 'asset' && (assetPinned.has(m.target.ticker) || excluded.has(m.target.ticker))),
    ) ||
    [...correctedIn].some((t) => !assetPinned.has(t));
  const total = pins.reduce((s, p) => s + p.exact, 0);
  // Pins that name every position and leave less than 1% (three thirds, 33% each): the residual goes to them, never to a new line.
  const complete = pins.length > 0 && !unpinnedWanted && total > TOTAL_BPS - ROUNDING_RESIDUAL_BPS - 1e-6;
  // Pins that leave a rest round down, so the residual goes to what takes the rest ("a third
  // Amazon, a third Google, the rest Apple": Apple holds 3334), never to a pinned name.
  const rounded = scaleTo(
    pins.map((p) => p.exact),
    complete ? TOTAL_BPS : restTakers.length > 0 ? Math.floor(total + 1e-6) : Math.round(total),
  );
  pins.forEach((p, i) => {
    p.keptBps = rounded[i] ?? 0;
    if (!p.movedBy && p.keptBps !== p.askedBps && p.source === 'thesis' && complete && Math.abs(total - TOTAL_BPS) > 1e-6)
      p.movedBy = 'rounding';
  });
  // A complete set of pins the person's own cap holds as written ("a third each" under a 3333
  // bps cap) but not with the rounding residual on top: the residual still goes to a named
  // position (3334), and the cap moves by that residual only, never to a new 1 bps line.
  let roundingLift: { from: number; to: number } | undefined;
  const heaviest = Math.max(0, ...pins.map((p) => (p.tickers.length === 1 ? p.keptBps : 0)));
  if (
    complete &&
    heaviest > cap &&
    pins.every((p) => p.tickers.length === 1 && Math.floor(p.exact + 1e-6) <= cap) &&
    heaviest - cap < ROUNDING_RESIDUAL_BPS
  ) {
    roundingLift = { from: cap, to: heaviest };
    cap = heaviest;
  }

  // The rest: what the pins keep leaves, for the names that take it ("split the rest between the two index funds").
  const restAffinity: Record<string, number> = {};
  for (const m of restTakers) {
    if (m.target.kind === 'asset' && !excluded.has(m.target.ticker) && !assetPinned.has(m.target.ticker)) restAffinity[m.target.ticker] = 5;
    if (m.target.kind === 'theme')
      for (const [t, a = 0] of Object.entries(m.target.theme.affinity))
        if (a >= 2 && !excluded.has(t) && !assetPinned.has(t)) restAffinity[t] = Math.max(restAffinity[t] ?? 0, a);
  }
  /** "no cap" in the thesis: the default cap rises to the heaviest pin, so the pins are kept as written. */
  const liftCap = () => {
    if (!liftedBy) return;
    const heaviestPin = Math.max(0, ...pins.map((p) => (p.tickers.length ? Math.ceil(p.keptBps / p.tickers.length) : 0)));
    if (heaviestPin <= cap) return;
    for (const p of pins)
      if (p.tickers.length && p.keptBps / p.tickers.length > cap)
        p.note = `the thesis lifted the ${DEFAULT_CAP_BY_TOLERANCE[tolerance]} bps default single-asset cap ("${liftedBy.text}") to ${heaviestPin} bps to keep this pin`;
    cap = heaviestPin;
  };
  liftCap();
  const capped = (p: WorkingPin) => Math.min(p.keptBps, p.tickers.length * cap);
  const rest = TOTAL_BPS - pins.reduce((s, p) => s + capped(p), 0);
  const restTickers = Object.keys(restAffinity);
  if (restTickers.length && rest > 0) {
    if (words.restEven) for (const t of restTickers) restAffinity[t] = 1;
    pins.push({
      target: `the rest (${restTakers.map((m) => m.text).join(', ')})`,
      tickers: restTickers,
      askedBps: rest,
      keptBps: rest,
      exact: rest,
      affinity: restAffinity,
      source: 'thesis',
    });
  }
  liftCap();
  for (const p of pins) {
    const room = p.tickers.length * cap;
    if (p.keptBps > room) {
      p.note = `the ${cap} bps single-asset cap applied${statedCap ? ` ("${statedCap.text}")` : ''}; set userPreferences.maxSingleAssetWeightBps to ${Math.ceil(p.keptBps / p.tickers.length)} or more (or say "no cap" in the thesis) to keep it`;
      p.keptBps = room;
      p.movedBy = 'cap';
    }
  }
  for (const p of pins) {
    if (p.movedBy === 'excluded' && p.tickers.length === 0 && p.affinity[p.target] === undefined && /^[A-Z]+$/.test(p.target))
      p.note = `the thesis also rules out ${p.target}; the exclusion wins, so the ${p.askedBps} bps went to the rest of the basket (a correction can include it)`;
    if (p.movedBy === 'sum') p.note = `the pinned weights summed to ${Math.round(askedSum)} bps; each was scaled down in proportion`;
    if (p.movedBy === 'rounding')
      p.note = `the weights asked for summed to ${Math.round(total * 100) / 100} bps; the residual went to the named positions${roundingLift ? `, and the ${roundingLift.from} bps single-asset cap moved to ${roundingLift.to} bps to hold it` : ''}`;
  }
  const pinWeights = new Map<string, number>();
  for (const p of pins) {
    if (p.keptBps <= 0) continue;
    // A weight smaller than its theme's ticker count goes to the theme's first tickers; tickers
    // of one affinity share it evenly to the basis point ("equal-weight the Magnificent Seven").
    const tickers = p.tickers.slice(0, p.keptBps);
    const even = new Set(tickers.map((t) => p.affinity[t])).size === 1 && p.keptBps / tickers.length <= cap;
    const split = even
      ? new Map(
          scaleTo(
            tickers.map(() => 1),
            p.keptBps,
          ).map((w, i) => [tickers[i]!, w]),
        )
      : allocateWeights(
          tickers.map((t) => ({ key: t, score: p.affinity[t]! })),
          cap,
          p.keptBps,
        );
    for (const [t, w] of split) pinWeights.set(t, (pinWeights.get(t) ?? 0) + w);
  }

  // Candidates: what the thesis (or a correction) wants beyond its pins.
  const candidates = new Map<string, Candidate>();
  const add = (ticker: string, points: number, reason: string, named: boolean) => {
    if (excluded.has(ticker) || pinWeights.has(ticker)) return;
    const c = candidates.get(ticker) ?? { ticker, score: 0, reasons: [], named: false };
    c.score += points;
    c.named ||= named;
    if (!c.reasons.includes(reason)) c.reasons.push(reason);
    candidates.set(ticker, c);
  };
  const themeHits = new Map<string, { theme: Theme; texts: string[]; factor: number }>();
  for (const m of wanted) {
    if (m.pinBps !== undefined && !corrections?.pinned) continue;
    if (m.rest && !corrections?.pinned) continue;
    const factor = m.scope ? SCOPE_FACTOR[m.scope] : 1;
    const single = singleTicker(m);
    if (single !== undefined) add(single, NAMED_POINTS * factor, `named in the thesis ("${m.text}")`, true);
    else if (m.target.kind === 'theme') {
      const hit = themeHits.get(m.target.theme.id) ?? { theme: m.target.theme, texts: [], factor };
      hit.texts.push(m.text);
      hit.factor = Math.max(hit.factor, factor);
      themeHits.set(m.target.theme.id, hit);
    }
  }
  for (const { theme, texts, factor } of themeHits.values()) {
    const boost = (1 + 0.25 * (texts.length - 1)) * factor;
    for (const [t, a = 0] of Object.entries(theme.affinity))
      add(t, a * boost, `fits the theme ${theme.label} ("${texts.join('", "')}")`, false);
  }
  for (const t of correctedIn) add(t, NAMED_POINTS, 'included by a correction', true);
  const ranked = [...candidates.values()].sort((a, b) => b.score - a.score || (a.ticker < b.ticker ? -1 : 1));
  // A basket of broad funds only (index and cash) that its default cap would force to take an
  // unrelated name (three funds under the 3000 bps low-risk default, or two left when the thesis
  // bets against one) gets the smallest default cap the funds it may hold can meet. Only the
  // strategist's own default moves, never a cap the person set.
  const broadOnly = pinWeights.size === 0 && !request.basketContext?.assets?.length && ranked.every((c) => BROAD_FUNDS.includes(c.ticker));
  const broadLeft = BROAD_FUNDS.filter((t) => !excluded.has(t));
  if (!capFromPreferences && broadOnly && broadLeft.length > 0) {
    const even = Math.ceil(TOTAL_BPS / broadLeft.length / 50) * 50;
    // A fund the thesis asks for stays strictly the largest: two funds are 5050 and 4950, not 5000 each.
    const needed =
      tolerance === 'low' && broadLeft.length === 3
        ? BROAD_FUNDS_LOW_RISK_CAP
        : even * broadLeft.length === TOTAL_BPS && ranked.length > 0 && broadLeft.length > 1
          ? even + 50
          : even;
    cap = Math.max(cap, needed);
  }

  const noRegistryFit = [
    ...new Set(mentions.flatMap((m) => (m.polarity === 'include' && m.target.kind === 'unfit' ? [m.target.label] : []))),
  ];
  const only = wanted.some((m) => m.scope === 'only');
  const bearish = mentions.some((m) => m.polarity === 'bearish');
  const longs = wanted.length > 0 || correctedIn.size > 0;
  const stance: ThesisReading['stance'] = bearish && longs ? 'mixed' : bearish ? 'bearish' : longs ? 'bullish' : 'neutral';

  const pinnedReading: PinnedWeight[] = pins.map(({ exact: _e, affinity: _a, ...p }) => p);
  const included = new Map<string, { because: string; source: 'thesis' | 'correction' }>();
  for (const p of pinnedReading)
    for (const t of p.tickers)
      if (p.keptBps > 0 && !included.has(t))
        included.set(t, {
          because: p.source === 'correction' ? `pinned by a correction (${p.keptBps} bps)` : `pinned by the thesis (${p.target})`,
          source: p.source,
        });
  for (const c of ranked)
    if ((c.named || c.score >= 2) && !included.has(c.ticker))
      included.set(c.ticker, {
        because: c.reasons.join('; '),
        source: correctedIn.has(c.ticker) && c.reasons.length === 1 ? 'correction' : 'thesis',
      });

  const reading: ThesisReading = {
    reader: READER_VERSION,
    matched: mentions.map((m) => ({
      text: m.text,
      ...describe(m),
      polarity: m.polarity,
      ...(m.cue ? { cue: m.cue } : {}),
      ...(m.scope ? { scope: m.scope } : {}),
      ...(m.readAs ? { readAs: m.readAs } : {}),
      ...(m.pinBps !== undefined ? { pinnedBps: Math.round(m.pinBps) } : {}),
      ...(m.rest ? { rest: true } : {}),
    })),
    included: [...included].map(([ticker, i]) => ({ ticker, ...i })),
    excluded: [...excluded].map(([ticker, e]) => ({ ticker, ...e })),
    pinned: pinnedReading,
    only,
    stance,
    riskWords: words.riskWords,
    riskTolerance,
    noRegistryFit,
    notUnderstood: words.notUnderstood,
    ...(corrections ? { corrections } : {}),
  };

  // Nothing can be held: refuse rather than hold what the thesis excludes.
  const needed = minimumPositions(cap);
  const left = STOCK_TICKERS.filter((t) => !excluded.has(t));
  if (needed <= STOCK_TICKERS.length && left.length < needed) {
    throw new SvcError(
      'THESIS_NOT_EXPRESSIBLE',
      left.length === 0
        ? 'The thesis excludes every registry asset: a long-only basket cannot express it'
        : `The thesis leaves ${left.length} registry asset(s); a ${cap} bps single-asset cap needs ${needed} positions`,
      {
        issues: [
          {
            code: left.length === 0 ? 'EVERY_ASSET_EXCLUDED' : 'TOO_FEW_ASSETS_LEFT',
            message: `excluded: ${[...excluded.keys()].join(', ')}${left.length ? `; raise userPreferences.maxSingleAssetWeightBps to at least ${Math.ceil(TOTAL_BPS / left.length)} bps` : ''}`,
            path: 'prompt',
          },
        ],
      },
    );
  }
  return {
    reading,
    tolerance,
    cap,
    capFromPreferences,
    broadOnly,
    only,
    excluded: new Map([...excluded].map(([t, e]) => [t, e.because])),
    pins: pinnedReading,
    pinWeights,
    candidates: ranked,
    noRegistryFit,
  };
}
