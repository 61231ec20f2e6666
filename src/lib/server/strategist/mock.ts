/**
 * The deterministic local strategist (`mock`). It reads the thesis for real: themes and
 * named tickers become scored registry assets, a basket being refined keeps its canonical
 * assets as a prior, the risk tolerance shapes concentration, and the user's cap bounds
 * every weight. The same request always gives the same basket.
 */
import { SvcError } from '../errors';
import { checkCanonical, STOCK_TOKENS } from '../registry';
import { allocateWeights, minimumPositions } from './allocate';
import { DEFAULT_BASKET, FILLER_ORDER, readThesis, type ThesisReading } from './themes';
import type { BasketDraft, RiskTolerance, StrategistRequest } from './types';

const STOCK_TICKERS = STOCK_TOKENS.map((t) => t.ticker);

export const DEFAULT_CAP_BY_TOLERANCE: Record<RiskTolerance, number> = { low: 3000, medium: 4000, high: 5000 };
const MAX_POSITIONS: Record<RiskTolerance, number> = { low: 8, medium: 6, high: 5 };
/** Exponent applied to scores: low tolerance flattens the basket, high sharpens it. */
const SHARPNESS: Record<RiskTolerance, number> = { low: 0.5, medium: 1, high: 1.5 };
const NAMED_TICKER_POINTS = 6;

interface Candidate {
  ticker: string;
  score: number;
  reasons: string[];
}

function addScore(map: Map<string, Candidate>, ticker: string, points: number, reason: string): void {
  const c = map.get(ticker) ?? { ticker, score: 0, reasons: [] };
  c.score += points;
  if (!c.reasons.includes(reason)) c.reasons.push(reason);
  map.set(ticker, c);
}

/** The canonical stock/ETF assets of a basket being refined, with their weights; the rest is dropped with a note. */
function contextAssets(request: StrategistRequest, notes: string[]): Array<{ ticker: string; weightBps: number }> {
  const out: Array<{ ticker: string; weightBps: number }> = [];
  for (const a of request.basketContext?.assets ?? []) {
    const check = checkCanonical(a.ticker, a.tokenAddress);
    if (check.status !== 'canonical' || !STOCK_TICKERS.includes(check.asset.ticker)) {
      notes.push(`Dropped ${a.tokenAddress} from the basket being refined: it is not a canonical stock or ETF token.`);
      continue;
    }
    const w =
      typeof a.weightBps === 'number' && Number.isFinite(a.weightBps) && a.weightBps > 0
        ? a.weightBps
        : 10_000 / Math.max(1, request.basketContext!.assets!.length);
    out.push({ ticker: check.asset.ticker, weightBps: w });
  }
  return out;
}

/**
 * Refining keeps the existing basket as the larger part: its own weights make up
 * CONTEXT_SHARE of the scores and what the new thesis reads makes up the rest.
 */
const CONTEXT_SHARE = 0.7;

function blendWithContext(candidates: Map<string, Candidate>, context: Array<{ ticker: string; weightBps: number }>): void {
  const thesisTotal = [...candidates.values()].reduce((s, c) => s + c.score, 0);
  const contextTotal = context.reduce((s, a) => s + a.weightBps, 0);
  const thesisShare = thesisTotal > 0 ? 1 - CONTEXT_SHARE : 0;
  for (const c of candidates.values()) c.score = (10 * thesisShare * c.score) / thesisTotal;
  for (const a of context)
    addScore(candidates, a.ticker, (10 * (1 - thesisShare) * a.weightBps) / contextTotal, 'kept from the basket being refined');
}

function nameOf(reading: ThesisReading, request: StrategistRequest, isDefault: boolean): string {
  const base = isDefault
    ? 'Default diversified basket'
    : reading.themes.length
      ? `${reading.themes
          .slice(0, 2)
          .map((h) => h.theme.label)
          .join(' + ')} basket`
      : `${reading.namedTickers.slice(0, 4).join(', ')} basket`;
  const refined = request.basketContext?.name ? `${request.basketContext.name.trim()} (refined)` : undefined;
  return (refined ?? base).slice(0, 120);
}

export function mockDraft(request: StrategistRequest): BasketDraft {
  const tolerance = request.userPreferences?.riskTolerance ?? 'medium';
  const cap = request.userPreferences?.maxSingleAssetWeightBps ?? DEFAULT_CAP_BY_TOLERANCE[tolerance];
  const needed = minimumPositions(cap);
  if (needed > STOCK_TICKERS.length) {
    throw new SvcError(
      'PREFERENCES_INFEASIBLE',
      `A ${cap} bps single-asset cap needs ${needed} positions; the registry has ${STOCK_TICKERS.length} stock and ETF tokens`,
      {
        issues: [
          {
            code: 'CAP_TOO_LOW',
            message: `use a cap of at least ${Math.ceil(10_000 / STOCK_TICKERS.length)} bps`,
            path: 'userPreferences.maxSingleAssetWeightBps',
          },
        ],
      },
    );
  }

  const notes: string[] = [];
  const reading = readThesis(request.prompt, STOCK_TICKERS);
  const candidates = new Map<string, Candidate>();
  for (const ticker of reading.namedTickers) addScore(candidates, ticker, NAMED_TICKER_POINTS, 'named in the thesis');
  for (const hit of reading.themes) {
    const boost = 1 + 0.25 * (hit.matched.length - 1);
    for (const [ticker, affinity] of Object.entries(hit.theme.affinity))
      addScore(candidates, ticker, affinity * boost, `fits the theme "${hit.theme.label}"`);
  }
  if (tolerance === 'low' && candidates.size > 0) {
    addScore(candidates, 'SGOV', 3, 'defensive ballast for a low risk tolerance');
    addScore(candidates, 'SPY', 2, 'defensive ballast for a low risk tolerance');
  }
  const context = contextAssets(request, notes);
  if (context.length) blendWithContext(candidates, context);

  const isDefault = candidates.size === 0;
  if (isDefault) {
    for (const [ticker, score] of Object.entries(DEFAULT_BASKET))
      addScore(candidates, ticker, score, 'part of the default diversified basket');
    notes.push('Default basket: the thesis named no theme or ticker the strategist recognises.');
  }

  const ranked = [...candidates.values()].sort((a, b) => b.score - a.score || (a.ticker < b.ticker ? -1 : 1));
  // Named and kept assets always stay; themes fill up to the position limit.
  const must = ranked.filter((c) => c.reasons.includes('named in the thesis') || c.reasons.includes('kept from the basket being refined'));
  const limit = Math.max(MAX_POSITIONS[tolerance], must.length, needed);
  const chosen = [...must, ...ranked.filter((c) => !must.includes(c))].slice(0, Math.min(limit, STOCK_TICKERS.length));
  for (const ticker of FILLER_ORDER) {
    if (chosen.length >= needed) break;
    if (chosen.some((c) => c.ticker === ticker)) continue;
    const minScore = Math.min(...chosen.map((c) => c.score));
    chosen.push({ ticker, score: minScore / 2, reasons: [`added so that no position exceeds the ${cap} bps cap`] });
  }
  const sharp = SHARPNESS[tolerance];
  const weights = allocateWeights(
    chosen.map((c) => ({ key: c.ticker, score: Math.pow(c.score, sharp) })),
    cap,
  );
  const assets = chosen
    .map((c) => ({ ticker: c.ticker, weightBps: weights.get(c.ticker)!, rationale: `${c.ticker}: ${c.reasons.join('; ')}.` }))
    .sort((a, b) => b.weightBps - a.weightBps || (a.ticker < b.ticker ? -1 : 1));

  const themeText = reading.themes.length
    ? `Themes read from the thesis: ${reading.themes.map((h) => `${h.theme.label} (${h.matched.join(', ')})`).join('; ')}.`
    : 'No theme keyword was recognised in the thesis.';
  const namedText = reading.namedTickers.length ? ` Named tickers: ${reading.namedTickers.join(', ')}.` : '';
  const contextText = context.length ? ` Refines an existing basket of ${context.map((a) => a.ticker).join(', ')}.` : '';
  const allocation = assets.map((a) => `${a.ticker} ${(a.weightBps / 100).toFixed(2)}%`).join(', ');
  notes.push(`Risk tolerance ${tolerance}; single-asset cap ${cap} bps.`);
  return {
    name: nameOf(reading, request, isDefault),
    memoTitle: isDefault
      ? 'Default diversified basket (no recognised theme)'
      : `Thesis basket: ${reading.themes[0]?.theme.label ?? reading.namedTickers.slice(0, 3).join(', ')}`,
    memoBody: `${themeText}${namedText}${contextText} Allocation: ${allocation}. ${isDefault ? 'This is the clearly labelled default basket, built because nothing in the thesis mapped to a registry asset. ' : ''}Weights follow how strongly the thesis points at each asset, bounded by the cap.`,
    assets,
    notes,
    capBps: cap,
    riskTolerance: tolerance,
    isDefaultBasket: isDefault,
  };
}
