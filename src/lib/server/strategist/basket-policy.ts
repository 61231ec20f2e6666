/**
 * What the local strategist holds when the thesis does not say: the default baskets, the order
 * in which fillers are added when the single-asset cap needs more positions, and what excluding
 * a theme leaves out. Policy, not words: the words are in lexicon/.
 */
import type { Theme } from './lexicon';

/**
 * The broad funds: index and cash. A thesis that asks for nothing the registry holds (a
 * neutral one, or one about what the registry lacks: "Brazilian utilities", "Swiss
 * watchmakers") gets only these, never unrelated single names.
 */
export const BROAD_FUNDS: readonly string[] = ['SPY', 'QQQ', 'SGOV'];

/** Used when a thesis asks for no holding the strategist can express. */
export const DEFAULT_BASKET: Readonly<Record<string, number>> = { SPY: 5, QQQ: 3, SGOV: 3 };
/** The default basket of a low risk tolerance: cash-like first. */
export const CONSERVATIVE_BASKET: Readonly<Record<string, number>> = { SGOV: 5, SPY: 3, QQQ: 2 };

/**
 * The smallest default cap under which the three broad funds alone hold a low-risk basket with
 * treasury bills strictly first (SGOV 3400, SPY 3300, QQQ 3300): the 3000 bps low-risk default
 * would need a fourth position, which could only be an unrelated single name or commodity. Only
 * the strategist's own default moves; a cap the person sets is kept.
 */
export const BROAD_FUNDS_LOW_RISK_CAP = 3400;

/**
 * Fillers, in the order they are added when the single-asset cap needs more positions than
 * the thesis gives: the broadest and most neutral first (cash-like first for a low risk tolerance).
 */
export const FILLER_ORDER: readonly string[] = [
  'SPY',
  'SGOV',
  'QQQ',
  'MSFT',
  'AAPL',
  'GOOGL',
  'AMZN',
  'NVDA',
  'META',
  'SLV',
  'USO',
  'AMD',
  'TSLA',
  'PLTR',
  'COIN',
];
export const LOW_RISK_FILLER_ORDER: readonly string[] = [
  'SGOV',
  'SPY',
  'QQQ',
  ...FILLER_ORDER.filter((t) => !['SGOV', 'SPY', 'QQQ'].includes(t)),
];

/** The tickers a thesis that excludes a theme leaves out: its members, else every ticker of affinity 2 or more. */
export function themeMembers(theme: Theme): string[] {
  return theme.members
    ? [...theme.members]
    : Object.entries(theme.affinity)
        .filter(([, a]) => (a ?? 0) >= 2)
        .map(([t]) => t);
}
