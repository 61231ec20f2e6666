/**
 * What the deterministic strategist reads in a thesis: themes (keyword sets that point at
 * registry tickers with an affinity) and directly named companies or tickers. Kept as data so
 * a reviewer can see exactly why a thesis maps to a basket.
 */

export interface Theme {
  id: string;
  label: string;
  /** Lowercase words or phrases, matched on word boundaries. */
  keywords: readonly string[];
  /** Ticker → affinity (higher means more central to the theme). */
  affinity: Readonly<Record<string, number>>;
}

export const THEMES: readonly Theme[] = [
  {
    id: 'ai_semiconductors',
    label: 'AI and semiconductors',
    keywords: [
      'ai',
      'artificial intelligence',
      'chip',
      'chips',
      'chipmaker',
      'chipmakers',
      'semiconductor',
      'semiconductors',
      'semis',
      'gpu',
      'gpus',
      'data center',
      'data centers',
      'datacenter',
      'datacenters',
      'accelerator',
      'accelerators',
      'machine learning',
      'llm',
      'llms',
      'compute',
    ],
    affinity: { NVDA: 5, AMD: 4, MSFT: 2, GOOGL: 2, META: 1 },
  },
  {
    id: 'cloud_software',
    label: 'Cloud and software',
    keywords: ['cloud', 'software', 'saas', 'enterprise', 'hyperscaler', 'hyperscalers', 'productivity'],
    affinity: { MSFT: 4, AMZN: 3, GOOGL: 3, PLTR: 1 },
  },
  {
    id: 'consumer',
    label: 'Consumer and e-commerce',
    keywords: [
      'consumer',
      'consumers',
      'e-commerce',
      'ecommerce',
      'retail',
      'shopping',
      'smartphone',
      'smartphones',
      'devices',
      'wearables',
    ],
    affinity: { AMZN: 4, AAPL: 4 },
  },
  {
    id: 'electric_vehicles',
    label: 'Electric vehicles and autonomy',
    keywords: [
      'ev',
      'evs',
      'electric vehicle',
      'electric vehicles',
      'autonomous',
      'self-driving',
      'robotaxi',
      'robotaxis',
      'battery',
      'batteries',
      'robotics',
    ],
    affinity: { TSLA: 5 },
  },
  {
    id: 'crypto',
    label: 'Crypto and digital assets',
    keywords: [
      'crypto',
      'cryptocurrency',
      'bitcoin',
      'ethereum',
      'digital asset',
      'digital assets',
      'blockchain',
      'stablecoin',
      'stablecoins',
      'onchain',
    ],
    affinity: { COIN: 5 },
  },
  {
    id: 'defense_analytics',
    label: 'Defense and data analytics',
    keywords: ['defense', 'defence', 'government', 'analytics', 'data analytics', 'intelligence agencies'],
    affinity: { PLTR: 5 },
  },
  {
    id: 'advertising_social',
    label: 'Advertising and social media',
    keywords: ['advertising', 'ads', 'social media', 'social', 'digital ads', 'search'],
    affinity: { META: 4, GOOGL: 3 },
  },
  {
    id: 'megacap_tech',
    label: 'Mega-cap technology',
    keywords: ['big tech', 'mega cap', 'mega-cap', 'megacap', 'magnificent seven', 'magnificent 7', 'tech giants', 'technology', 'tech'],
    affinity: { AAPL: 3, MSFT: 3, GOOGL: 3, AMZN: 3, META: 2, NVDA: 2 },
  },
  {
    id: 'defensive_index',
    label: 'Defensive index exposure',
    keywords: [
      'defensive',
      'index',
      'indexes',
      'indices',
      'broad market',
      'diversified',
      'diversification',
      'etf',
      'etfs',
      'passive',
      'low volatility',
      'conservative',
      'safety',
      'stable',
      'preserve',
      'preservation',
      'recession',
      'downturn',
    ],
    affinity: { SPY: 5, SGOV: 3, QQQ: 2 },
  },
  {
    id: 'treasuries_cash',
    label: 'Treasuries and cash-like exposure',
    keywords: [
      'treasury',
      'treasuries',
      't-bill',
      't-bills',
      'bond',
      'bonds',
      'rates',
      'interest rates',
      'cash',
      'money market',
      'short duration',
    ],
    affinity: { SGOV: 5, SPY: 1 },
  },
  {
    id: 'commodities',
    label: 'Commodities and inflation hedges',
    keywords: ['commodity', 'commodities', 'inflation', 'precious metal', 'precious metals', 'metals', 'hard assets', 'hedge'],
    affinity: { SLV: 4, USO: 3 },
  },
  {
    id: 'energy',
    label: 'Energy and oil',
    keywords: ['energy', 'oil', 'crude', 'opec', 'gasoline', 'drilling'],
    affinity: { USO: 5 },
  },
  {
    id: 'growth',
    label: 'Growth and the Nasdaq',
    keywords: ['growth', 'innovation', 'innovative', 'disruption', 'disruptive'],
    affinity: { QQQ: 4, NVDA: 1, TSLA: 1 },
  },
];

/** Company names and aliases that name one registry ticker directly (lowercase). */
export const COMPANY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  AAPL: ['apple', 'iphone', 'iphones'],
  AMD: ['advanced micro devices', 'radeon', 'ryzen'],
  AMZN: ['amazon', 'aws'],
  COIN: ['coinbase'],
  GOOGL: ['alphabet', 'google', 'youtube'],
  META: ['meta platforms', 'facebook', 'instagram', 'whatsapp'],
  MSFT: ['microsoft', 'azure'],
  NVDA: ['nvidia'],
  PLTR: ['palantir'],
  TSLA: ['tesla'],
  SPY: ['s&p 500', 's&p500', 's&p'],
  QQQ: ['nasdaq-100', 'nasdaq 100', 'nasdaq'],
  SGOV: ['t-bill etf', 'treasury bill etf'],
  SLV: ['silver'],
  USO: ['oil fund', 'united states oil fund'],
};

/** Used when a thesis names nothing the strategist recognises. */
export const DEFAULT_BASKET: Readonly<Record<string, number>> = { SPY: 5, QQQ: 3, SGOV: 3, MSFT: 2, AAPL: 2, GOOGL: 1 };

/** The order in which assets are added when a cap needs more positions than the thesis gives. */
export const FILLER_ORDER: readonly string[] = [
  'SPY',
  'QQQ',
  'SGOV',
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

export interface ThemeHit {
  theme: Theme;
  matched: string[];
}

export interface ThesisReading {
  themes: ThemeHit[];
  /** Tickers named directly (by symbol, $symbol or company name), in order of first mention. */
  namedTickers: string[];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phraseRegex(phrase: string): RegExp {
  return new RegExp(`(?<![a-z0-9&$-])${escapeRe(phrase)}(?![a-z0-9&-])`, 'i');
}

const THEME_MATCHERS = THEMES.map((theme) => ({ theme, matchers: theme.keywords.map((k) => [k, phraseRegex(k)] as const) }));
const ALIAS_MATCHERS = Object.entries(COMPANY_ALIASES).flatMap(([ticker, aliases]) =>
  aliases.map((a) => [ticker, phraseRegex(a)] as const),
);

/** Reads themes and named tickers from a thesis. Pure and deterministic. */
export function readThesis(thesis: string, tickers: readonly string[]): ThesisReading {
  const text = thesis.normalize('NFKC');
  const lower = text.toLowerCase();
  const themes: ThemeHit[] = [];
  for (const { theme, matchers } of THEME_MATCHERS) {
    const matched = matchers.filter(([, re]) => re.test(lower)).map(([k]) => k);
    if (matched.length) themes.push({ theme, matched });
  }
  const mentions: Array<{ ticker: string; at: number }> = [];
  for (const ticker of tickers) {
    // An upper-case symbol, or any case with a `$` in front ("$nvda"); "meta" in prose is not META.
    const symbol = new RegExp(`(?<![A-Za-z0-9])(?:\\$${escapeRe(ticker)}|${escapeRe(ticker)})(?![A-Za-z0-9])`, 'g');
    const dollar = new RegExp(`\\$${escapeRe(ticker)}(?![A-Za-z0-9])`, 'i');
    const m = symbol.exec(text) ?? dollar.exec(text);
    if (m) mentions.push({ ticker, at: m.index });
  }
  for (const [ticker, re] of ALIAS_MATCHERS) {
    const m = re.exec(lower);
    if (m) mentions.push({ ticker, at: m.index });
  }
  mentions.sort((a, b) => a.at - b.at || (a.ticker < b.ticker ? -1 : 1));
  const namedTickers = [...new Set(mentions.map((m) => m.ticker))];
  return { themes, namedTickers };
}
