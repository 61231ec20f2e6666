/**
 * The deterministic local strategist (`mock`). It builds the basket of a thesis plan
 * (plan.ts): the pinned weights as kept, the assets the thesis asks for in proportion to how
 * strongly it points at them, never an excluded asset; a basket being refined keeps its
 * canonical assets as a prior, the risk tolerance shapes concentration, and the cap bounds every
 * weight. When the cap needs more positions than the thesis gives, fillers take only what the
 * cap forces, each below the thesis's largest asset, and the memo says so. The same request
 * always gives the same basket.
 */
import { SvcError } from '../errors';
import { checkCanonical, STOCK_TOKENS } from '../registry';
import { allocateWeights, allocationUnit, minimumPositions, TOTAL_BPS } from './allocate';
import type { Candidate, ThesisPlan } from './plan';
import { MIN_UNPINNED_BPS, leadWith, liftSmallPositions } from './weights-policy';
import { CONSERVATIVE_BASKET, DEFAULT_BASKET, FILLER_ORDER, LOW_RISK_FILLER_ORDER } from './basket-policy';
import type { BasketDraft, RiskTolerance, StrategistRequest } from './types';

export { DEFAULT_CAP_BY_TOLERANCE } from './plan';

const STOCK_TICKERS = STOCK_TOKENS.map((t) => t.ticker);
const MAX_POSITIONS: Record<RiskTolerance, number> = { low: 8, medium: 6, high: 5 };
/** Exponent applied to scores: low tolerance flattens the basket, high sharpens it. */
const SHARPNESS: Record<RiskTolerance, number> = { low: 0.5, medium: 1, high: 1.5 };
const KEPT_FROM_CONTEXT = 'kept from the basket being refined';

/** The canonical stock/ETF assets of a basket being refined, with their weights; the rest is dropped with a note. */
function contextAssets(request: StrategistRequest, plan: ThesisPlan, notes: string[]): Array<{ ticker: string; weightBps: number }> {
  const out: Array<{ ticker: string; weightBps: number }> = [];
  for (const a of request.basketContext?.assets ?? []) {
    const check = checkCanonical(a.ticker, a.tokenAddress);
    if (check.status !== 'canonical' || !STOCK_TICKERS.includes(check.asset.ticker)) {
      notes.push(`Dropped ${a.tokenAddress} from the basket being refined: it is not a canonical stock or ETF token.`);
      continue;
    }
    if (plan.excluded.has(check.asset.ticker)) {
      notes.push(`Dropped ${check.asset.ticker} from the basket being refined: the thesis excludes it.`);
      continue;
    }
    if (plan.pinWeights.has(check.asset.ticker)) continue;
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
  for (const a of context) {
    const c = candidates.get(a.ticker) ?? { ticker: a.ticker, score: 0, reasons: [], named: true };
    c.score += (10 * (1 - thesisShare) * a.weightBps) / contextTotal;
    c.named = true;
    if (!c.reasons.includes(KEPT_FROM_CONTEXT)) c.reasons.push(KEPT_FROM_CONTEXT);
    candidates.set(a.ticker, c);
  }
}

function addCandidate(candidates: Map<string, Candidate>, plan: ThesisPlan, ticker: string, score: number, reason: string): void {
  if (plan.excluded.has(ticker) || plan.pinWeights.has(ticker)) return;
  const c = candidates.get(ticker) ?? { ticker, score: 0, reasons: [], named: false };
  c.score += score;
  if (!c.reasons.includes(reason)) c.reasons.push(reason);
  candidates.set(ticker, c);
}

/** `total` bps split into `k` shares as equal as the unit allows, larger shares first. */
function evenSplit(total: number, k: number, unit: number): number[] {
  const units = total / unit;
  const base = Math.floor(units / k);
  return Array.from({ length: k }, (_, i) => (base + (i < units - base * k ? 1 : 0)) * unit);
}

interface Filled {
  weights: Map<string, number>;
  fillers: string[];
  /** The bps the thesis's own assets hold when the cap forced fillers. */
  heldByThesis?: number;
  /** Fillers could not all stay below the thesis's largest asset. */
  fillersNotBelow?: boolean;
}

/**
 * Fillers for `total` bps: as few as the cap needs, each strictly below `below` when given
 * (the thesis's largest asset), from the filler order, never excluded or already held.
 */
function fillers(
  total: number,
  plan: ThesisPlan,
  taken: ReadonlySet<string>,
  below?: number,
): { weights: Map<string, number>; notBelow: boolean } {
  const order = (plan.tolerance === 'low' ? LOW_RISK_FILLER_ORDER : FILLER_ORDER).filter((t) => !plan.excluded.has(t) && !taken.has(t));
  const unit = allocationUnit(plan.cap, total);
  const fits = (k: number, limit: number) => k <= total / unit && evenSplit(total, k, unit)[0]! <= limit;
  const first = Math.max(1, Math.ceil(total / plan.cap));
  let k = first;
  let notBelow = false;
  while (k <= order.length && !fits(k, below === undefined ? plan.cap : Math.min(plan.cap, below - 1))) k++;
  if (k > order.length) {
    notBelow = true;
    k = first;
    while (k <= order.length && !fits(k, plan.cap)) k++;
  }
  if (k > order.length) {
    throw new SvcError('THESIS_NOT_EXPRESSIBLE', `The ${plan.cap} bps single-asset cap needs more registry assets than the thesis leaves`, {
      issues: [
        { code: 'TOO_FEW_ASSETS_LEFT', message: 'raise userPreferences.maxSingleAssetWeightBps or exclude fewer assets', path: 'prompt' },
      ],
    });
  }
  const split = evenSplit(total, k, unit);
  return { weights: new Map(order.slice(0, k).map((t, i) => [t, split[i]!])), notBelow };
}

/**
 * Weights for the chosen assets holding `total` bps. When the cap lets them hold it all, in
 * proportion to their scores (water-filling above the cap); otherwise the largest sits at the
 * cap, the others in proportion below it ("a little silver" stays little), and fillers take
 * the rest.
 */
function fill(chosen: Candidate[], plan: ThesisPlan, total: number, taken: ReadonlySet<string>): Filled {
  const sharp = SHARPNESS[plan.tolerance];
  const scores = chosen.map((c) => Math.pow(c.score, sharp));
  const top = Math.max(...scores);
  const unit = allocationUnit(plan.cap, total);
  if (chosen.length * Math.floor(plan.cap / unit) >= total / unit) {
    const weights = allocateWeights(
      chosen.map((c, i) => ({ key: c.ticker, score: scores[i]! })),
      plan.cap,
      total,
    );
    return { weights, fillers: [] };
  }
  const proportional = scores.map((s) => Math.max(unit, Math.floor((plan.cap * s) / top / unit) * unit));
  const capacity = proportional.reduce((s, w) => s + w, 0);
  const weights = new Map(chosen.map((c, i) => [c.ticker, proportional[i]!]));
  const room = (plan.tolerance === 'low' ? LOW_RISK_FILLER_ORDER : FILLER_ORDER).filter(
    (t) => !plan.excluded.has(t) && !taken.has(t) && !weights.has(t),
  );
  if (room.length * plan.cap >= total - capacity) {
    const extra = fillers(total - capacity, plan, new Set([...taken, ...weights.keys()]), Math.max(...proportional));
    for (const [t, w] of extra.weights) weights.set(t, w);
    return { weights, fillers: [...extra.weights.keys()], heldByThesis: capacity, fillersNotBelow: extra.notBelow };
  }
  // A cap so low that the thesis's assets cannot stay in proportion: every position near the
  // cap, the fillers the fewest that can hold the rest (each scored below the thesis's assets).
  const added: Candidate[] = [];
  for (const t of room) {
    if ((chosen.length + added.length) * Math.floor(plan.cap / unit) >= total / unit) break;
    added.push({ ticker: t, score: 0, reasons: [], named: false });
  }
  if ((chosen.length + added.length) * Math.floor(plan.cap / unit) < total / unit) {
    throw new SvcError(
      'THESIS_NOT_EXPRESSIBLE',
      `The pinned weights and the ${plan.cap} bps single-asset cap leave too few registry assets for the rest of the basket`,
      {
        issues: [
          { code: 'TOO_FEW_ASSETS_LEFT', message: 'raise userPreferences.maxSingleAssetWeightBps or pin fewer weights', path: 'prompt' },
        ],
      },
    );
  }
  const least = Math.min(...scores);
  const all = allocateWeights(
    [...chosen.map((c, i) => ({ key: c.ticker, score: scores[i]! })), ...added.map((c) => ({ key: c.ticker, score: least / 2 }))],
    plan.cap,
    total,
  );
  const held = chosen.reduce((s, c) => s + all.get(c.ticker)!, 0);
  return { weights: all, fillers: added.map((c) => c.ticker), heldByThesis: held, fillersNotBelow: true };
}

function listWeights(entries: Array<[string, number]>): string {
  return entries.map(([t, w]) => `${t} ${w} bps`).join(', ');
}

export function mockDraft(request: StrategistRequest, plan: ThesisPlan): BasketDraft {
  const { tolerance, cap, reading } = plan;
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
  const memo: string[] = [];
  const candidates = new Map(plan.candidates.map((c) => [c.ticker, { ...c, reasons: [...c.reasons] }]));
  const pinnedTotal = [...plan.pinWeights.values()].reduce((s, w) => s + w, 0);
  const remainder = TOTAL_BPS - pinnedTotal;

  if (tolerance === 'low' && !plan.only && plan.pinWeights.size === 0 && candidates.size > 0) {
    addCandidate(candidates, plan, 'SGOV', 3, 'defensive ballast for a low risk tolerance');
    addCandidate(candidates, plan, 'SPY', 2, 'defensive ballast for a low risk tolerance');
  }
  // Broad funds only: the other broad funds, not a single name, fill what the cap leaves.
  if (plan.broadOnly && candidates.size > 0 && !plan.only)
    for (const [ticker, score] of Object.entries(tolerance === 'low' ? CONSERVATIVE_BASKET : DEFAULT_BASKET))
      addCandidate(candidates, plan, ticker, score / 4, 'broad index and cash beside what the thesis names');
  const context = plan.only ? [] : contextAssets(request, plan, notes);
  if (context.length) blendWithContext(candidates, context);

  const isDefault = candidates.size === 0 && plan.pinWeights.size === 0;
  if (isDefault) {
    const basket = tolerance === 'low' ? CONSERVATIVE_BASKET : DEFAULT_BASKET;
    const label = tolerance === 'low' ? 'the conservative default basket' : 'the default diversified basket';
    for (const [ticker, score] of Object.entries(basket)) addCandidate(candidates, plan, ticker, score, `part of ${label}`);
    const why = plan.noRegistryFit.length
      ? 'Nothing in the thesis fits a registry asset'
      : reading.excluded.length
        ? 'Nothing in the thesis asked for a holding a long-only basket can express'
        : 'The thesis named no theme or ticker the strategist recognises';
    memo.push(
      `${why}, so this is ${label} of broad index and cash only (no single name stands in for what the thesis asked), clearly labelled as such${reading.excluded.length ? ', without what the thesis excludes' : ''}.`,
    );
    notes.push('Default basket: the thesis asked for no holding the strategist can express.');
  }

  // Read from the thesis.
  const wantedThemes = [
    ...new Set(reading.matched.filter((m) => m.kind === 'theme' && m.polarity === 'include').map((m) => m.means.replace(/^theme: /, ''))),
  ];
  const named = [
    ...new Set(
      reading.matched
        .filter((m) => m.kind !== 'theme' && m.kind !== 'no registry fit' && m.polarity === 'include')
        .flatMap((m) => m.tickers),
    ),
  ];
  if (wantedThemes.length || named.length) {
    memo.push(
      `Read from the thesis: ${[wantedThemes.length ? `themes ${wantedThemes.join('; ')}` : '', named.length ? `named ${named.join(', ')}` : ''].filter(Boolean).join('; ')}${plan.only ? ' (only these)' : ''}.`,
    );
  }
  if (reading.excluded.length) memo.push(`Left out: ${reading.excluded.map((e) => `${e.ticker} (${e.because})`).join('; ')}.`);
  const corrections = reading.corrections;
  if (corrections) {
    const said = [
      corrections.included?.length ? `included ${corrections.included.join(', ')}` : '',
      corrections.excluded?.length ? `excluded ${corrections.excluded.join(', ')}` : '',
      corrections.pinned
        ? corrections.pinned.length
          ? `pins replaced by ${corrections.pinned.map((p) => `${p.ticker} ${p.bps} bps`).join(', ')}`
          : 'pins removed'
        : '',
      corrections.riskTolerance ? `risk tolerance ${corrections.riskTolerance}` : '',
    ].filter(Boolean);
    if (said.length) memo.push(`Corrected by the person: ${said.join('; ')}.`);
  }
  if (plan.noRegistryFit.length) {
    const fits = plan.noRegistryFit.map((label) => {
      const said = [
        ...new Set(
          reading.matched
            .filter((m) => m.kind === 'no registry fit' && m.polarity === 'include' && m.means.endsWith(` ${label}`))
            .map((m) => m.text),
        ),
      ];
      return said.length === 1 && said[0]!.toLowerCase() === label.toLowerCase() ? label : `${label} ("${said.join('", "')}")`;
    });
    memo.push(`No registry asset fits ${fits.join(', ')}; nothing was put in their place.`);
  }

  // Pinned weights, as asked and as kept.
  const kept = plan.pins.filter((p) => !p.movedBy);
  if (kept.length) memo.push(`Pinned weights kept exactly: ${kept.map((p) => `${p.target} ${p.keptBps} bps`).join(', ')}.`);
  const askedSum = plan.pins.reduce((s, p) => s + p.askedBps, 0);
  if (plan.pins.some((p) => p.movedBy === 'sum'))
    memo.push(
      `The pinned weights sum to ${askedSum} bps, more than the 10000 a basket holds: each was scaled down in proportion (${plan.pins.map((p) => `${p.target} ${p.askedBps} to ${p.keptBps} bps`).join(', ')}).`,
    );
  for (const p of plan.pins.filter((x) => x.movedBy === 'cap'))
    memo.push(
      `${p.target} was pinned at ${p.askedBps} bps; the single-asset cap of ${cap} bps moved it to ${p.keptBps} bps (${p.keptBps - p.askedBps} bps). To keep it, set userPreferences.maxSingleAssetWeightBps to ${Math.ceil(p.askedBps / p.tickers.length)} or more.`,
    );
  for (const p of plan.pins.filter((x) => x.movedBy === 'rounding' || (!x.movedBy && x.note))) memo.push(`${p.target}: ${p.note}.`);
  for (const p of plan.pins.filter((x) => x.movedBy === 'excluded'))
    memo.push(
      `${p.target} was pinned at ${p.askedBps} bps, but ${p.note ?? 'every asset of it is excluded: the weight went to the rest of the basket'}.`,
    );

  // The rest of the basket.
  const weights = new Map(plan.pinWeights);
  const reasons = new Map<string, string[]>();
  for (const p of plan.pins)
    for (const t of p.tickers) if (weights.has(t)) reasons.set(t, [`pinned by the thesis (${p.target} ${p.keptBps} bps)`]);
  if (remainder > 0) {
    const ranked = [...candidates.values()].sort((a, b) => b.score - a.score || (a.ticker < b.ticker ? -1 : 1));
    if (ranked.length === 0) {
      const extra = fillers(remainder, plan, new Set(weights.keys()));
      for (const [t, w] of extra.weights) {
        weights.set(t, w);
        reasons.set(t, ['filler: the thesis placed no weight here, and weights must sum to 10000 bps']);
      }
      memo.push(
        `The pinned weights leave ${remainder} bps the thesis did not place; they go to ${[...extra.weights.keys()].join(', ')} so that the weights sum to 10000 bps. Name where the rest should go to place it yourself.`,
      );
    } else {
      const must = ranked.filter((c) => c.named);
      const limit = plan.only ? ranked.length : Math.max(MAX_POSITIONS[tolerance] - weights.size, must.length, 1);
      const chosen = [...must, ...ranked.filter((c) => !c.named)].slice(0, Math.min(limit, STOCK_TICKERS.length));
      const filled = fill(chosen, plan, remainder, new Set(weights.keys()));
      for (const c of chosen) reasons.set(c.ticker, c.reasons);
      for (const [t, w] of filled.weights) weights.set(t, w);
      for (const t of filled.fillers) reasons.set(t, [`filler: added only because the ${cap} bps single-asset cap needs more positions`]);
      if (filled.fillers.length) {
        const what = chosen.map((c) => c.ticker).join(', ');
        const scores = chosen.map((c) => Math.pow(c.score, SHARPNESS[tolerance]));
        const suggested = Math.min(TOTAL_BPS, Math.ceil((remainder * Math.max(...scores)) / scores.reduce((s, x) => s + x, 0) / 50) * 50);
        memo.push(
          `The single-asset cap of ${cap} bps forced ${remainder - filled.heldByThesis!} bps into filler position(s) ${filled.fillers.join(', ')}${filled.fillersNotBelow ? '' : `, each below ${chosen[0]!.ticker}`}; ${what} ${chosen.length === 1 ? 'holds' : 'hold'} ${filled.heldByThesis} bps. To hold ${plan.only ? 'only ' : ''}${what} without fillers, set userPreferences.maxSingleAssetWeightBps to ${Math.max(suggested, cap + 50)} or more.`,
        );
      }
    }
  } else {
    const dropped = [...candidates.values()].filter((c) => c.named).map((c) => c.ticker);
    if (dropped.length)
      memo.push(
        `The pinned weights take all 10000 bps, so ${dropped.join(', ')}, named without a weight, ${dropped.length === 1 ? 'is' : 'are'} not held.`,
      );
  }

  // Low risk leads with treasury bills; no position under 1% that nobody pinned.
  if (tolerance === 'low' && !plan.only && plan.pinWeights.size === 0 && !context.length && weights.has('SGOV')) {
    const led = leadWith(
      weights,
      'SGOV',
      cap,
      (tolerance === 'low' ? LOW_RISK_FILLER_ORDER : FILLER_ORDER).filter((t) => !plan.excluded.has(t)),
    );
    if (led.changed) {
      for (const t of led.added)
        reasons.set(t, [`filler: added only because treasury bills lead a low-risk basket under the ${cap} bps cap`]);
      memo.push('A low risk tolerance leads with treasury bills: SGOV is the largest position.');
    }
  }
  const lifted = liftSmallPositions(weights, new Set(plan.pinWeights.keys()), cap);
  if (lifted.length)
    memo.push(`No position under ${MIN_UNPINNED_BPS} bps that nobody pinned: ${lifted.join(', ')} went to the larger positions.`);

  const assets = [...weights]
    .map(([ticker, weightBps]) => ({
      ticker,
      weightBps,
      rationale: `${ticker}: ${(reasons.get(ticker) ?? ['part of the basket']).join('; ')}.`,
    }))
    .sort((a, b) => b.weightBps - a.weightBps || (a.ticker < b.ticker ? -1 : 1));

  const risk = reading.riskTolerance;
  const riskText =
    risk.source === 'thesis'
      ? `read from the thesis (${reading.riskWords.map((w) => `"${w.text}"`).join(', ')})`
      : risk.source === 'userPreferences'
        ? `from userPreferences.riskTolerance${reading.riskWords.some((w) => w.tolerance !== risk.value) ? ', which wins over the risk words of the thesis' : ''}`
        : 'the default, as the thesis says nothing about risk';
  memo.push(`Risk tolerance ${tolerance}, ${riskText}; single-asset cap ${cap} bps.`);
  if (context.length) memo.push(`Refines an existing basket of ${context.map((a) => a.ticker).join(', ')}.`);
  memo.push(`Allocation: ${listWeights(assets.map((a) => [a.ticker, a.weightBps]))}.`);
  notes.push(`Risk tolerance ${tolerance}; single-asset cap ${cap} bps.`);

  const refined = request.basketContext?.name ? `${request.basketContext.name.trim()} (refined)` : undefined;
  const title = isDefault
    ? tolerance === 'low'
      ? 'Default conservative basket'
      : 'Default diversified basket'
    : wantedThemes.length
      ? `${wantedThemes.slice(0, 2).join(' + ')} basket`
      : `${(named.length ? named : assets.map((a) => a.ticker)).slice(0, 4).join(', ')} basket`;
  return {
    name: (refined ?? title).slice(0, 120),
    memoTitle: isDefault
      ? `${title} (nothing in the thesis could be held)`
      : `Thesis basket: ${wantedThemes[0] ?? (named.length ? named.slice(0, 3).join(', ') : title)}`,
    memoBody: memo.join(' ').slice(0, 4000),
    assets,
    notes,
    capBps: cap,
    riskTolerance: tolerance,
    isDefaultBasket: isDefault,
  };
}
