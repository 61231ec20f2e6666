/**
 * From the words of a thesis (reader.ts) to what any basket for it must respect: the risk
 * tolerance and cap, the tickers it never holds, the weights it pins (as asked and as kept under
 * the cap and sum rules), the assets it asks for with their scores, and the public reading.
 * The local strategist builds its basket from this plan; a partner basket is checked against it.
 */
import { SvcError } from '../errors';
import { STOCK_TOKENS } from '../registry';
import { allocateWeights, minimumPositions, TOTAL_BPS } from './allocate';
import { readThesisWords, targetKey, type Mention } from './reader';
import { themeMembers, type Theme } from './themes';
import { READER_VERSION, type RiskTolerance, type StrategistRequest, type ThesisReading } from './types';

export const DEFAULT_CAP_BY_TOLERANCE: Record<RiskTolerance, number> = { low: 3000, medium: 4000, high: 5000 };

/** Points of a ticker the thesis names; a theme's tickers get their affinity (at most 5). */
const NAMED_POINTS = 6;
const SCOPE_FACTOR = { only: 1, mostly: 2.5, 'a little': 0.4 } as const;

const STOCK_TICKERS = STOCK_TOKENS.map((t) => t.ticker);
const COMPANY_NAME = new Map(STOCK_TOKENS.map((t) => [t.ticker, t.name]));

export interface Candidate {
  ticker: string;
  score: number;
  reasons: string[];
  /** Named directly (kept whatever the position limit). */
  named: boolean;
}

export interface PinnedWeight {
  target: string;
  tickers: string[];
  askedBps: number;
  keptBps: number;
  movedBy?: 'cap' | 'sum' | 'excluded';
}

export interface ThesisPlan {
  reading: ThesisReading;
  tolerance: RiskTolerance;
  cap: number;
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
      .sort((a, b) => b[1] - a[1])
      .map(([x]) => x);
    return { kind: 'theme', means: `theme: ${t.theme.label}`, tickers };
  }
  return { kind: 'no registry fit', means: `no registry asset fits ${t.label}`, tickers: [] };
}

function becauseOf(m: Mention, theme?: Theme): string {
  const cue = m.cue ? ` ("${m.cue}")` : '';
  const via = theme ? ` with the theme ${theme.label}` : '';
  return m.polarity === 'bearish' ? `bearish${cue}${via}: a long-only basket cannot short it, so it is left out` : `excluded${cue}${via}`;
}

function toleranceOf(request: StrategistRequest, riskWords: ThesisReading['riskWords']): ThesisReading['riskTolerance'] {
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
  const exact = asked.map((a) => (a * total) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((s, x) => s + x, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]! += 1;
    left--;
  }
  return out;
}

/** Reads a thesis into the plan every basket for it must respect. Throws THESIS_NOT_EXPRESSIBLE when nothing can be held. */
export function planThesis(request: StrategistRequest): ThesisPlan {
  const words = readThesisWords(request.prompt);
  const riskTolerance = toleranceOf(request, words.riskWords);
  const tolerance = riskTolerance.value;
  const cap = request.userPreferences?.maxSingleAssetWeightBps ?? DEFAULT_CAP_BY_TOLERANCE[tolerance];
  const mentions = words.mentions;
  const wanted = mentions.filter((m) => m.polarity === 'include' && m.target.kind !== 'unfit');

  // Exclusions: a ticker excluded by name always; one excluded through a theme unless the thesis names it as wanted.
  const namedWanted = new Set(wanted.flatMap((m) => (m.target.kind === 'asset' ? [m.target.ticker] : [])));
  const excluded = new Map<string, string>();
  for (const m of mentions)
    if (m.polarity !== 'include' && m.target.kind === 'asset' && !excluded.has(m.target.ticker))
      excluded.set(m.target.ticker, becauseOf(m));
  for (const m of mentions) {
    if (m.polarity === 'include' || m.target.kind !== 'theme') continue;
    for (const t of themeMembers(m.target.theme))
      if (!excluded.has(t) && !namedWanted.has(t)) excluded.set(t, becauseOf(m, m.target.theme));
  }

  // Pins, as asked; then the sum rule, then the cap.
  const pinned = wanted.filter((m) => m.pinBps !== undefined && m.pinBps > 0);
  const assetPinned = new Set(pinned.flatMap((m) => (m.target.kind === 'asset' ? [m.target.ticker] : [])));
  const seenPins = new Set<string>();
  const pins: Array<PinnedWeight & { affinity: Record<string, number> }> = [];
  for (const m of pinned) {
    const key = targetKey(m.target);
    if (seenPins.has(key)) continue;
    seenPins.add(key);
    if (m.target.kind === 'asset') {
      if (excluded.has(m.target.ticker)) continue;
      pins.push({
        target: m.target.ticker,
        tickers: [m.target.ticker],
        askedBps: m.pinBps!,
        keptBps: m.pinBps!,
        affinity: { [m.target.ticker]: 1 },
      });
    } else if (m.target.kind === 'theme') {
      const affinity = Object.fromEntries(
        Object.entries(m.target.theme.affinity).filter(([t, a]) => a >= 2 && !excluded.has(t) && !assetPinned.has(t)),
      );
      const tickers = Object.keys(affinity);
      pins.push({
        target: m.target.theme.label,
        tickers,
        askedBps: m.pinBps!,
        keptBps: tickers.length ? m.pinBps! : 0,
        affinity,
        ...(tickers.length ? {} : { movedBy: 'excluded' as const }),
      });
    }
  }
  const askedSum = pins.reduce((s, p) => s + p.keptBps, 0);
  if (askedSum > TOTAL_BPS) {
    const scaled = scaleTo(
      pins.map((p) => p.keptBps),
      TOTAL_BPS,
    );
    pins.forEach((p, i) => {
      if (scaled[i] !== p.keptBps) p.movedBy = 'sum';
      p.keptBps = scaled[i]!;
    });
  }
  for (const p of pins) {
    const room = p.tickers.length * cap;
    if (p.keptBps > room) {
      p.keptBps = room;
      p.movedBy = 'cap';
    }
  }
  const pinWeights = new Map<string, number>();
  for (const p of pins) {
    if (p.keptBps <= 0) continue;
    // A weight smaller than its theme's ticker count goes to the theme's first tickers.
    const tickers = p.tickers.slice(0, p.keptBps);
    const split = allocateWeights(
      tickers.map((t) => ({ key: t, score: p.affinity[t]! })),
      cap,
      p.keptBps,
    );
    for (const [t, w] of split) pinWeights.set(t, w);
  }

  // Candidates: what the thesis wants beyond its pins.
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
    if (m.pinBps !== undefined) continue;
    const factor = m.scope ? SCOPE_FACTOR[m.scope] : 1;
    if (m.target.kind === 'asset') add(m.target.ticker, NAMED_POINTS * factor, `named in the thesis ("${m.text}")`, true);
    else if (m.target.kind === 'theme') {
      const hit = themeHits.get(m.target.theme.id) ?? { theme: m.target.theme, texts: [], factor };
      hit.texts.push(m.text);
      hit.factor = Math.max(hit.factor, factor);
      themeHits.set(m.target.theme.id, hit);
    }
  }
  for (const { theme, texts, factor } of themeHits.values()) {
    const boost = (1 + 0.25 * (texts.length - 1)) * factor;
    for (const [t, a] of Object.entries(theme.affinity))
      add(t, a * boost, `fits the theme ${theme.label} ("${texts.join('", "')}")`, false);
  }
  const ranked = [...candidates.values()].sort((a, b) => b.score - a.score || (a.ticker < b.ticker ? -1 : 1));

  const noRegistryFit = [
    ...new Set(mentions.flatMap((m) => (m.polarity === 'include' && m.target.kind === 'unfit' ? [m.target.label] : []))),
  ];
  const only = wanted.some((m) => m.scope === 'only');
  const bearish = mentions.some((m) => m.polarity === 'bearish');
  const longs = wanted.length > 0;
  const stance: ThesisReading['stance'] = bearish && longs ? 'mixed' : bearish ? 'bearish' : longs ? 'bullish' : 'neutral';

  const reading: ThesisReading = {
    reader: READER_VERSION,
    matched: mentions.map((m) => ({
      text: m.text,
      ...describe(m),
      polarity: m.polarity,
      ...(m.cue ? { cue: m.cue } : {}),
      ...(m.scope ? { scope: m.scope } : {}),
      ...(m.readAs ? { readAs: m.readAs } : {}),
      ...(m.pinBps !== undefined ? { pinnedBps: m.pinBps } : {}),
    })),
    included: [
      ...new Set([
        ...pins.flatMap((p) => (p.keptBps > 0 ? p.tickers : [])),
        ...ranked.filter((c) => c.named || c.score >= 2).map((c) => c.ticker),
      ]),
    ],
    excluded: [...excluded].map(([ticker, because]) => ({ ticker, because })),
    pinned: pins.map(({ affinity: _a, ...p }) => p),
    only,
    stance,
    riskWords: words.riskWords,
    riskTolerance,
    noRegistryFit,
    notUnderstood: words.notUnderstood,
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
  return { reading, tolerance, cap, only, excluded, pins: reading.pinned, pinWeights, candidates: ranked, noRegistryFit };
}
