/**
 * The strategist's lexicon: the domain's words as data files beside this module (assets,
 * themes, what no registry asset fits, cues, risk words, weights, function words), each
 * checked against its schema here when the module is imported. A file that breaks its schema
 * (a ticker outside the registry, an upper-case or accented phrase, a phrase listed twice with
 * two meanings, an unknown cue kind) throws at import, so `vite build` (which imports the
 * server modules) fails, and so does tests/unit/strategist-lexicon.test.ts.
 */
import { z } from 'zod';
import { STRATEGIST_TICKERS } from '../types';
import assetsFile from './assets.json';
import cuesFile from './cues.json';
import noRegistryFitFile from './no-registry-fit.json';
import riskFile from './risk.json';
import themesFile from './themes.json';
import weightsFile from './weights.json';
import wordsFile from './words.json';

/** Lower case, no accents (the reader folds them), no leading or trailing space; `*` only at the end (a prefix). */
const phrase = z
  .string()
  .min(1)
  .max(80)
  .refine((p) => p === p.trim() && !/\s{2}/.test(p), 'no leading, trailing or double spaces')
  .refine((p) => p === p.toLowerCase() && !/\p{M}/u.test(p.normalize('NFD')) && !p.includes('ß'), 'lower case, without accents')
  .refine((p) => !p.slice(0, -1).includes('*'), 'a * may only end a phrase');
const phrases = z.array(phrase).min(1);
const ticker = z.enum(STRATEGIST_TICKERS);
const about = z.string().min(1);

export const CUE_KINDS = [
  /** Leaves out what follows, through a list ("avoid Tesla, Meta and Amazon", "sell Apple", "lost faith in Netflix"). */
  'exclude',
  /** Doubts what follows ("not sure about", "skeptical of"): the reader cannot tell it is wanted, so it is left out. */
  'doubt',
  /** A bearish view of what follows ("short Tesla", "puts on"): a long-only basket leaves it out. */
  'bearish',
  /** A bearish predicate about what its clause names before it, else after it ("oil is going to crash"). */
  'bearishPredicate',
  /** Rules out what its clause names before it, else after it, else in the clause before ("Tesla? Hard pass."). */
  'excludePredicate',
  /** A bearish word that speaks only of the name right before it ("Nasdaq down", "oil lower"); elsewhere it is not a cue. */
  'bearishAfterName',
  /** A bullish predicate (the stance only). */
  'bullishPredicate',
  /** A positive word: ends an exclusion that already covered a name ("sell Tesla and buy Apple"). */
  'include',
  /** Where money goes ("into", "to", "for"): ends an exclusion that already covered a name. */
  'destination',
  'only',
  'strong',
  'weak',
  /** Ends every scope: "but", "however". */
  'contrast',
  /** Ends a scope and a clause for predicates: "because", "if", "so". */
  'scopeEnd',
  /** Words that look like cues but are not ("no doubt", "not only", "can't go wrong", "short term"). */
  'notACue',
  'equalWeight',
  'each',
  /** "the rest", "the remainder": the weight the pins leave, for the names after it. */
  'remainder',
  /** "split", "evenly": the rest is split evenly. */
  'split',
  /** "X over Y" between two names: Y is left out. */
  'preferOver',
  /** Leaves out only the name right after it ("nothing oil-related"); before anything else it is not a cue ("nothing else"). */
  'excludeNext',
  /** "X rather than Y", "X instead of Y", "as opposed to": the list right after it is left out, no more. */
  'insteadOf',
  /** "rather X than Y", "X is better than Y": what follows is left out. */
  'preferThan',
  /** "..., and Meta with it", "Amazon too": the name after a comma shares the clause before. */
  'also',
  /** "no cap", "concentration is fine": the person lifts the default single-asset cap to what they pinned. */
  'liftCap',
  /** "max", "no more than" before a weight that names no asset ("max 60% per position"): the person's single-asset cap. */
  'capAt',
  /** "... and so will Coinbase", "same for Meta": the name right after it shares what its sentence said of the name before. */
  'alsoBefore',
  /** "from", "out of": where money leaves, when the clause moves money ("move everything from Coinbase into Nvidia"). */
  'source',
] as const;
export type CueKind = (typeof CUE_KINDS)[number];

const RISK_TOLERANCES = ['low', 'medium', 'high'] as const;

const themeSchema = z.object({
  id: z.string().regex(/^[a-z_]+$/),
  label: z.string().min(1),
  keywords: phrases,
  affinity: z.partialRecord(ticker, z.number().int().min(1).max(5)),
  members: z.array(ticker).optional(),
  vague: z.boolean().optional(),
  /** A list, not a sector ("every single stock"): with equal weight each member takes one share. */
  each: z.boolean().optional(),
});

export const lexiconFilesSchema = z.object({
  assets: z.object({
    about,
    lowercaseTickers: z.array(ticker),
    assets: z.record(ticker, z.object({ companies: z.array(phrase), people: z.array(phrase), products: z.array(phrase) })),
    /** An inverse fund the registry lacks → the registry asset it bets against ("SQQQ" → QQQ). */
    inverseFunds: z.record(z.string().regex(/^[A-Z]{2,5}$/), ticker),
  }),
  themes: z.object({ about, themes: z.array(themeSchema).min(1) }),
  noRegistryFit: z.object({
    about,
    themes: z.record(z.string().min(1), phrases),
    companies: z.record(z.string().min(1), phrases),
    markets: z.record(z.string().min(1), phrases),
  }),
  cues: z.object({
    about,
    cues: z.partialRecord(z.enum(CUE_KINDS), phrases),
    preferenceWords: phrases,
    /** Verbs that move money: with a source ("from X") or a destination after a name ("moving my Amazon into Microsoft"), the name is sold. */
    movingVerbs: phrases,
    negativeSigns: phrases,
    /** Phrasal verbs of leaving out that wrap their object ("cut Google loose", "kick Tesla out"): verb (by lemma) and particle. */
    separableExclude: phrases,
  }),
  risk: z.object({ about, low: phrases, medium: phrases, high: phrases }),
  weights: z.object({
    about,
    percent: phrases,
    bps: phrases,
    numerators: z.record(phrase, z.number().int().min(1).max(9)),
    denominators: z.record(phrase, z.number().int().min(2).max(10)),
    fixed: z.record(phrase, z.number().positive().max(10_000)),
    /** Numbers in words, read as a weight only before a percent or basis-point word. */
    cardinals: z.record(phrase, z.number().int().min(0).max(90)),
    /** "a hundred", "one hundred": 100 in words. */
    hundreds: phrases,
  }),
  words: z.object({
    about,
    stopwords: phrases,
    bindFillers: phrases,
    onlyFillers: phrases,
    listGlue: phrases,
    negators: phrases,
    /** Words around a percentage that make it a forecast, not a weight ("down 30%", "a 20% correction", "15% a year"). */
    forecastWords: phrases,
    notMisspellings: phrases,
    /** Words between a separable verb, its object and its particle ("cut my Google shares loose"). */
    objectFillers: phrases,
    /** After "max 30%": words that make it a cap on every position ("per position", "in any one name"), not a pin. */
    capScope: phrases,
    /** "actually", "on second thought": what the sentence rules out after one overrides what was named before it. */
    selfCorrections: phrases,
    /** Adverbs a cue phrase may carry inside it ("steering well clear of", "totally done with"). */
    intensifiers: phrases,
    /** Words of rising: negated after a name ("the S&P can't keep going up", "won't go higher") they bet against it. */
    risingWords: phrases,
    clitics: z.record(z.string().min(1), phrase),
  }),
});

export type LexiconFiles = z.output<typeof lexiconFilesSchema>;
export type Theme = z.output<typeof themeSchema>;

/** Checks the files against their schema and against each other; throws a readable error. */
export function parseLexicon(files: unknown): LexiconFiles {
  const parsed = lexiconFilesSchema.safeParse(files);
  if (!parsed.success) throw new Error(`strategist lexicon: ${z.prettifyError(parsed.error)}`);
  const lexicon = parsed.data;
  const problems: string[] = [];
  for (const t of STRATEGIST_TICKERS) if (!lexicon.assets.assets[t]) problems.push(`assets.json: no entry for the registry ticker ${t}`);
  const ids = lexicon.themes.themes.map((t) => t.id);
  for (const id of new Set(ids)) if (ids.filter((x) => x === id).length > 1) problems.push(`themes.json: the theme id ${id} is used twice`);
  // A phrase means one thing: two meanings for the same words would make the reading depend on file order.
  const meaning = new Map<string, string>();
  const claim = (p: string, what: string) => {
    const before = meaning.get(p);
    if (before !== undefined && before !== what) problems.push(`"${p}" is both ${before} and ${what}`);
    else meaning.set(p, what);
  };
  for (const [t, a] of Object.entries(lexicon.assets.assets))
    for (const p of [...a.companies, ...a.people, ...a.products]) claim(p, `the asset ${t}`);
  for (const theme of lexicon.themes.themes) for (const p of theme.keywords) claim(p, `the theme ${theme.id}`);
  for (const [group, entries] of Object.entries(lexicon.noRegistryFit).filter(([k]) => k !== 'about'))
    for (const [label, ps] of Object.entries(entries as Record<string, string[]>))
      for (const p of ps) claim(p, `no registry fit (${group}: ${label})`);
  const cueMeaning = new Map<string, string>();
  for (const [kind, ps] of Object.entries(lexicon.cues.cues))
    for (const p of ps) {
      const before = cueMeaning.get(p);
      if (before !== undefined && before !== kind) problems.push(`cues.json: "${p}" is both ${before} and ${kind}`);
      else cueMeaning.set(p, kind);
    }
  for (const tolerance of RISK_TOLERANCES)
    for (const p of lexicon.risk[tolerance])
      for (const other of RISK_TOLERANCES)
        if (other !== tolerance && lexicon.risk[other].includes(p)) problems.push(`risk.json: "${p}" is both ${tolerance} and ${other}`);
  if (problems.length) throw new Error(`strategist lexicon:\n${[...new Set(problems)].join('\n')}`);
  return lexicon;
}

export const LEXICON: LexiconFiles = parseLexicon({
  assets: assetsFile,
  themes: themesFile,
  noRegistryFit: noRegistryFitFile,
  cues: cuesFile,
  risk: riskFile,
  weights: weightsFile,
  words: wordsFile,
});
