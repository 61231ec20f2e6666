/**
 * Reads a thesis the way a person means it: what it names (tickers, companies, people, products,
 * themes, what no registry asset fits), which of those it wants and which it rules out, sells,
 * doubts, prefers something else over or bets against, the scope words ("only", "mostly", "a
 * little"), the weights it pins ("20% in silver", "60/40", "a third each", "the rest in index
 * funds"), a negative or short weight (which no long-only basket can hold), its risk words, and
 * the words it did not understand.
 *
 * The library (nlp.ts, wink-nlp) tokenises, splits sentences and marks English negation scope;
 * the domain's words are data (lexicon/); this module holds the rules that join them. It fails
 * closed: a name in a clause that rules it out, sells it, doubts it, prefers something else over
 * it or bets against it is left out, with the words that did it.
 *
 * Pure and deterministic: no clock, no randomness, no I/O.
 */
import { STOCK_TOKENS } from '../registry/data';
import { LEXICON, type CueKind, type Theme } from './lexicon';
import type { ThesisNlp } from './nlp';
import type { RiskTolerance } from './types';

export type Polarity = 'include' | 'exclude' | 'bearish' | 'unsure';
export type Scope = 'only' | 'mostly' | 'a little';

export type MentionTarget =
  | { kind: 'asset'; ticker: string; via: 'ticker' | 'company' | 'product' | 'person' }
  | { kind: 'theme'; theme: Theme }
  | { kind: 'unfit'; label: string; group: 'themes' | 'companies' | 'markets' };

export interface Mention {
  target: MentionTarget;
  /** The words as written in the thesis. */
  text: string;
  /** The lexicon word a misspelling was read as ("telsa" → "tesla"). */
  readAs?: string;
  polarity: Polarity;
  /** The words that made it excluded, bearish or unsure. */
  cue?: string;
  scope?: Scope;
  /** A weight the thesis pinned on it, in bps (exact: a third is 3333.33...), and the words that pinned it. */
  pinBps?: number;
  pinText?: string;
  /** Ruled out in a sentence that corrects itself ("actually drop the social media one"): it wins over an earlier naming. */
  corrects?: boolean;
  /** It takes (a share of) the weight the pins leave: "the rest in index funds". */
  rest?: boolean;
  /** Token range [start, end). */
  start: number;
  end: number;
}

export interface RiskWord {
  text: string;
  tolerance: RiskTolerance;
}

export interface ThesisWords {
  mentions: Mention[];
  riskWords: RiskWord[];
  /** "equal weight": every wanted mention gets the same share. */
  equalWeight: boolean;
  /** "split the rest evenly": the rest is split evenly among what takes it. */
  restEven: boolean;
  /** The words of a negative or short weight ("-30% TSLA", "short 20% of QQQ"): a long-only basket refuses them. */
  negativeWeights: string[];
  /**
   * The person's own word on the single-asset cap: a cap they state ("max 60% per position", in
   * bps) or a lift ("no cap", "concentration is fine": their pins are kept above the default).
   */
  capWords: Array<{ text: string; bps?: number }>;
  /** Bullish words (stance only: a holding is already long). */
  bullishWords: number;
  notUnderstood: string[];
}

// ---------------------------------------------------------------------------------------------
// Tokens: the library's, made uniform for matching

interface Token {
  /** As written. */
  raw: string;
  /** Lower case, no accents, no apostrophes; a contraction spelt out ("n't" is "not"). */
  norm: string;
  /** The library's lemma (English), folded like `norm`. */
  lemma: string;
  kind: 'word' | 'number' | 'punct';
  startChar: number;
  endChar: number;
  /** A hyphen joins it to the previous token ("ex-energy", "T-bills"). */
  hyphenBefore: boolean;
  /** A line break stands between it and the previous token. */
  newlineBefore: boolean;
  /** In the scope of a grammatical negation (the library's). */
  negated: boolean;
  /** The library's part of speech (English). */
  pos: string;
}

const W = LEXICON.words;
const STOPWORDS: ReadonlySet<string> = new Set(W.stopwords);
const BIND_FILLERS: ReadonlySet<string> = new Set(W.bindFillers);
const ONLY_FILLERS: ReadonlySet<string> = new Set(W.onlyFillers);
const LIST_GLUE: ReadonlySet<string> = new Set(W.listGlue);
const NEGATORS: ReadonlySet<string> = new Set(W.negators);
const FORECAST_WORDS: ReadonlySet<string> = new Set(W.forecastWords);
const NOT_MISSPELLINGS: ReadonlySet<string> = new Set(W.notMisspellings);
const CLITICS: ReadonlyMap<string, string> = new Map(Object.entries(W.clitics));
const PREFERENCE_WORDS: ReadonlySet<string> = new Set(LEXICON.cues.preferenceWords);
const MOVING_VERBS: ReadonlySet<string> = new Set(LEXICON.cues.movingVerbs);
const NEGATIVE_SIGNS: ReadonlySet<string> = new Set(LEXICON.cues.negativeSigns);
const SELF_CORRECTIONS: readonly string[] = W.selfCorrections;
const INTENSIFIERS: ReadonlySet<string> = new Set(W.intensifiers);
const RISING: ReadonlySet<string> = new Set(W.risingWords);
const CAP_SCOPE: ReadonlySet<string> = new Set(W.capScope);
const SEPARABLE_EXCLUDE: ReadonlySet<string> = new Set(LEXICON.cues.separableExclude);
/** Words between a separable verb and its object, or between the object and its particle ("cut my Google shares loose"). */
const OBJECT_FILLERS: ReadonlySet<string> = new Set(LEXICON.words.objectFillers);
const PREFER_VERBS: ReadonlySet<string> = new Set(['prefer', 'prefers', 'preferred', 'preferring', 'preferable']);
const JOINERS: ReadonlySet<string> = new Set(['and', 'then', '&', 'et', 'und', 'y', 'puis', 'dann', 'luego']);
const COPULAS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'am', 's']);
const PRONOUNS: ReadonlySet<string> = new Set(['it', 'its', 'they', 'them', 'those', 'these', 'that', 'this', 'one']);
const HUNDREDS: ReadonlyArray<readonly string[]> = LEXICON.weights.hundreds.map((h) => h.split(' ')).sort((a, b) => b.length - a.length);
const ELISION = /^(l|d|j|qu|n|s|c|m|t)'(.{2,})$/;

export function normalizeWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/['\u2019]/g, '');
}

/** The text as the reader sees it: compatibility forms folded, typographic apostrophes and minus signs made plain. */
function plainText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\u2212/g, '-');
}

function tokenize(text: string, nlp: ThesisNlp): Token[] {
  const out: Token[] = [];
  let at = 0;
  let newline = false;
  let hyphen = false;
  const raw = nlp.tokens(text);
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    const start = at + t.space.length;
    at = start + t.value.length;
    if (t.space.includes('\n')) newline = true;
    if (t.type === 'tabCRLF' || t.type === 'space') {
      if (t.value.includes('\n')) newline = true;
      continue;
    }
    if (t.type === 'emoji' || t.type === 'emoticon' || t.type === 'url' || t.type === 'email') continue;
    const base = { newlineBefore: newline, negated: t.negated, pos: t.pos };
    newline = false;
    // A hyphen with nothing on either side joins two words ("T-bills", "self-driving").
    if (t.value === '-' && t.space === '' && raw[i + 1] && raw[i + 1]!.space === '' && out.length > 0) {
      hyphen = true;
      continue;
    }
    const joined = hyphen && t.space === '';
    hyphen = false;
    // "$nvda": the currency sign and the ticker after it.
    if (t.value === '$' && raw[i + 1]?.space === '' && raw[i + 1]?.type === 'word') {
      const next = raw[i + 1]!;
      i++;
      at += next.value.length;
      out.push(word(`$${next.value}`, next.lemma, start, at, { ...base, hyphenBefore: false }));
      continue;
    }
    if (t.type === 'number') {
      out.push({
        raw: t.value,
        norm: t.value,
        lemma: t.value,
        kind: 'number',
        startChar: start,
        endChar: at,
        hyphenBefore: joined,
        ...base,
      });
      continue;
    }
    if (t.type === 'punctuation' || t.type === 'symbol' || t.type === 'currency' || t.type === 'unk') {
      out.push({ raw: t.value, norm: t.value, lemma: t.value, kind: 'punct', startChar: start, endChar: at, hyphenBefore: false, ...base });
      continue;
    }
    let value = t.value.replace(/^[#@]/, '');
    let offset = start + (t.value.length - value.length);
    // A contraction the library split off: "n't" is "not", "'d" is "would"; "'s" carries nothing.
    const lower = value.toLowerCase();
    if (lower === "'s" || lower === "'") continue;
    const clitic = CLITICS.get(lower);
    if (clitic && (lower.startsWith("'") || lower === "n't" || lower === 'nt')) {
      out.push(word(value, clitic, offset, offset + value.length, { ...base, hyphenBefore: false }, clitic));
      continue;
    }
    if (clitic && /^n'?t$/i.test(raw[i + 1]?.value ?? '') && raw[i + 1]?.space === '') {
      out.push(word(value, clitic, offset, offset + value.length, { ...base, hyphenBefore: joined }, clitic));
      continue;
    }
    // French elision: "l'énergie", "d'IA".
    const elided = ELISION.exec(lower);
    if (elided) {
      const cut = elided[1]!.length + 1;
      out.push(word(value.slice(0, cut), elided[1]!, offset, offset + cut, { ...base, hyphenBefore: joined }));
      value = value.slice(cut);
      offset += cut;
    }
    // Hyphenated words are read as their parts, as the lexicon's phrases are.
    const parts = value.split('-');
    if (parts.length > 1 && parts.every((p) => p.length > 0)) {
      parts.forEach((p, k) => {
        out.push(word(p, p, offset, offset + p.length, { ...base, hyphenBefore: k > 0 || joined }));
        offset += p.length + 1;
      });
      continue;
    }
    out.push(word(value, t.lemma, offset, offset + value.length, { ...base, hyphenBefore: joined }));
  }
  return out;
}

function word(
  raw: string,
  lemma: string,
  startChar: number,
  endChar: number,
  flags: { hyphenBefore: boolean; newlineBefore: boolean; negated: boolean; pos: string },
  norm = normalizeWord(raw),
): Token {
  return { raw, norm, lemma: normalizeWord(lemma), kind: 'word', startChar, endChar, ...flags };
}

// ---------------------------------------------------------------------------------------------
// The lexicon, compiled once per library instance (its phrases go through the same tokeniser)

type Effect =
  | { type: 'mention'; target: MentionTarget; lexiconWord: string }
  | { type: 'risk'; tolerance: RiskTolerance }
  | { type: 'cue'; cue: CueKind | 'percent' | 'bps' }
  | { type: 'fraction'; bps: number };

interface Entry {
  words: string[];
  /** The last word matches any word that starts with it. */
  prefix: boolean;
  effect: Effect;
}

class Lexicon {
  private readonly exact = new Map<string, Entry[]>();
  private readonly prefixes: Entry[] = [];

  constructor(
    private readonly nlp: ThesisNlp,
    /** Single words also match by lemma ("tanked" is "tank"). */
    private readonly byLemma = false,
  ) {}

  add(phrase: string, effect: Effect): void {
    const prefix = phrase.endsWith('*');
    const words = tokenize(prefix ? phrase.slice(0, -1) : phrase, this.nlp).map((t) => t.norm);
    if (words.length === 0) return;
    const entry = { words, prefix, effect };
    if (prefix) {
      this.prefixes.push(entry);
      return;
    }
    const list = this.exact.get(words[0]!) ?? [];
    // The first entry of a phrase wins: assets are added before themes, themes before what no asset fits.
    if (list.some((e) => e.words.join(' ') === words.join(' '))) return;
    list.push(entry);
    list.sort((a, b) => b.words.length - a.words.length);
    this.exact.set(words[0]!, list);
  }

  /** The longest entry that matches at `i`, and how many tokens it covers. */
  match(tokens: readonly Token[], i: number, usable: (j: number) => boolean): { entry: Entry; length: number } | undefined {
    const plain = this.matchAt(tokens, i, usable, false);
    // A cue phrase with an adverb inside it ("steering well clear of", "totally done with").
    // Only when an adverb follows within the next three words (most cue matches skip this second pass).
    if (!this.byLemma || ![1, 2, 3].some((d) => INTENSIFIERS.has(tokens[i + d]?.norm ?? ''))) return plain;
    const loose = this.matchAt(tokens, i, usable, true);
    return loose && (!plain || loose.length > plain.length) ? loose : plain;
  }

  private matchAt(
    tokens: readonly Token[],
    i: number,
    usable: (j: number) => boolean,
    skipIntensifiers: boolean,
  ): { entry: Entry; length: number } | undefined {
    const first = tokens[i];
    if (!first) return undefined;
    const forms = wordForms(first.norm);
    const stems = this.byLemma ? [first.lemma, ...verbStems(first.norm)] : [];
    for (const f of stems) if (!forms.includes(f)) forms.push(f);
    for (const form of forms) {
      for (const entry of this.exact.get(form) ?? []) {
        const n = entry.words.length;
        // Plurals only for single words; a lemma also for the first word of a cue phrase ("steering clear of" is "steer clear of").
        if (n > 1 && form !== first.norm && !stems.includes(form)) continue;
        let ok = true;
        let at = i + 1;
        for (let k = 1; k < n; k++) {
          while (skipIntensifiers && tokens[at] && INTENSIFIERS.has(tokens[at]!.norm) && tokens[at]!.norm !== entry.words[k] && usable(at))
            at++;
          const t = tokens[at];
          if (!t || !usable(at) || t.norm !== entry.words[k] || t.newlineBefore) {
            ok = false;
            break;
          }
          at++;
        }
        if (ok && (!skipIntensifiers || at - i > n)) return { entry, length: at - i };
      }
    }
    if (first.kind === 'word') {
      for (const entry of this.prefixes) {
        if (entry.words.length === 1 && first.norm.startsWith(entry.words[0]!)) return { entry, length: 1 };
      }
    }
    return undefined;
  }

  /** Single words of at least `minLength` letters, for the misspelling reader. */
  singleWords(minLength: number): Array<{ word: string; effect: Effect }> {
    const out: Array<{ word: string; effect: Effect }> = [];
    for (const list of this.exact.values())
      for (const e of list) if (e.words.length === 1 && e.words[0]!.length >= minLength) out.push({ word: e.words[0]!, effect: e.effect });
    return out;
  }
}

/**
 * The stems a verb form may have ("steering" → steer, "giving" → give, "dumped" → dump,
 * "slipping" → slip): the library's lemma misses some of them when it reads the word as a noun.
 */
function verbStems(norm: string): string[] {
  const out: string[] = [];
  for (const suffix of ['ing', 'ed']) {
    if (norm.length < suffix.length + 3 || !norm.endsWith(suffix)) continue;
    const base = norm.slice(0, -suffix.length);
    out.push(base, `${base}e`);
    if (base.length > 2 && base[base.length - 1] === base[base.length - 2]) out.push(base.slice(0, -1));
  }
  return out;
}

function wordForms(norm: string): string[] {
  const forms = [norm];
  if (norm.length > 4 && norm.endsWith('ies')) forms.push(`${norm.slice(0, -3)}y`);
  if (norm.length > 4 && norm.endsWith('es')) forms.push(norm.slice(0, -2));
  if (norm.length > 3 && norm.endsWith('s')) forms.push(norm.slice(0, -1));
  return forms;
}

const TICKER_SET: ReadonlySet<string> = new Set(STOCK_TOKENS.map((t) => t.ticker));
const LOWER_TICKERS = new Map(LEXICON.assets.lowercaseTickers.map((t) => [t.toLowerCase(), t]));

interface FuzzyTarget {
  word: string;
  effect: Effect;
  companyOnly: boolean;
}

interface Compiled {
  mentions: Lexicon;
  risk: Lexicon;
  cues: Lexicon;
  fuzzyByLetter: Map<string, FuzzyTarget[]>;
}

const compiled = new WeakMap<ThesisNlp, Compiled>();

function compile(nlp: ThesisNlp): Compiled {
  const known = compiled.get(nlp);
  if (known) return known;
  const mentions = new Lexicon(nlp);
  for (const [ticker, a] of Object.entries(LEXICON.assets.assets)) {
    for (const c of a.companies) mentions.add(c, { type: 'mention', target: { kind: 'asset', ticker, via: 'company' }, lexiconWord: c });
    for (const p of a.people) mentions.add(p, { type: 'mention', target: { kind: 'asset', ticker, via: 'person' }, lexiconWord: p });
    for (const p of a.products) mentions.add(p, { type: 'mention', target: { kind: 'asset', ticker, via: 'product' }, lexiconWord: p });
  }
  for (const theme of LEXICON.themes.themes)
    for (const k of theme.keywords) mentions.add(k, { type: 'mention', target: { kind: 'theme', theme }, lexiconWord: k });
  for (const group of ['themes', 'companies', 'markets'] as const)
    for (const [label, words] of Object.entries(LEXICON.noRegistryFit[group]))
      for (const w of words) mentions.add(w, { type: 'mention', target: { kind: 'unfit', label, group }, lexiconWord: w });

  const risk = new Lexicon(nlp);
  for (const tolerance of ['low', 'medium', 'high'] as const)
    for (const w of LEXICON.risk[tolerance]) risk.add(w, { type: 'risk', tolerance });

  const cues = new Lexicon(nlp, true);
  for (const [cue, words] of Object.entries(LEXICON.cues.cues) as Array<[CueKind, string[]]>)
    for (const w of words) cues.add(w, { type: 'cue', cue });
  for (const [w, bps] of Object.entries(LEXICON.weights.fixed)) cues.add(w, { type: 'fraction', bps });
  for (const w of LEXICON.weights.percent) cues.add(w, { type: 'cue', cue: 'percent' });
  for (const w of LEXICON.weights.bps) cues.add(w, { type: 'cue', cue: 'bps' });

  /**
   * Misspellings: a word the lexicon does not know is read as a lexicon word one edit away (a
   * letter added, dropped, changed, or two swapped), with the same first letter. Only names,
   * themes and risk words of five letters or more are candidates (four-letter typos count for
   * company names only), and real words one edit from them ("apply") never are.
   */
  const fuzzyByLetter = new Map<string, FuzzyTarget[]>();
  for (const { word: w, effect } of [...mentions.singleWords(5), ...risk.singleWords(7)]) {
    if (effect.type === 'mention' && effect.target.kind === 'theme' && effect.target.theme.vague) continue;
    const list = fuzzyByLetter.get(w[0]!) ?? [];
    list.push({
      word: w,
      effect,
      companyOnly: effect.type === 'mention' && effect.target.kind === 'asset' && effect.target.via !== 'product',
    });
    fuzzyByLetter.set(w[0]!, list);
  }
  const result = { mentions, risk, cues, fuzzyByLetter };
  compiled.set(nlp, result);
  return result;
}

/** Damerau-Levenshtein distance (optimal string alignment), stopping above `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

function misspelling(lexicon: Compiled, norm: string): FuzzyTarget | undefined {
  if (norm.length < 4 || !/^[a-z]+$/.test(norm) || STOPWORDS.has(norm) || NOT_MISSPELLINGS.has(norm)) return undefined;
  const max = 1;
  let found: FuzzyTarget | undefined;
  let foundDistance = max + 1;
  for (const target of lexicon.fuzzyByLetter.get(norm[0]!) ?? []) {
    if (norm.length === 4 && !target.companyOnly) continue;
    const d = editDistance(norm, target.word, max);
    // The closest wins; on a tie, the first in lexicon order (deterministic).
    if (d > 0 && d < foundDistance) {
      found = target;
      foundDistance = d;
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Reading

interface CueItem {
  type: 'cue';
  cue: CueKind | 'percent' | 'bps';
  text: string;
  start: number;
  end: number;
  /** A grammatical negation (the library's scope), with the last token of its scope. */
  negation?: { runEnd: number };
}

type Item =
  | { type: 'mention'; mention: Mention & { vague?: boolean }; start: number }
  | CueItem
  | {
      type: 'weight';
      bps: number;
      text: string;
      start: number;
      end: number;
      each: boolean;
      negative: boolean;
      /** A sum of money ("$5k in Apple"): weights are the bound sums' shares. */
      amount?: number;
    }
  /** A number with no unit ("AAPL 25 / MSFT 25 / NVDA 50"): weights only when such numbers beside names sum to 100. */
  | { type: 'bare'; value: number; text: string; start: number; end: number }
  | { type: 'split'; bps: number[]; text: string; start: number; end: number }
  | { type: 'punct'; norm: string; start: number; level: 'sentence' | 'clause' | 'comma' | 'soft' }
  | { type: 'word'; norm: string; start: number; pos: string; known?: boolean };

const SENTENCE_PUNCT = new Set(['.', ';', '!', '?', '\n']);
const CLAUSE_PUNCT = new Set(['(', ')', '[', ']', '—', '–', '|']);

/** Reads the words of a thesis. Pure and deterministic; `nlp` is the loaded library (nlp.ts). */
export function readThesisWords(thesis: string, nlp: ThesisNlp): ThesisWords {
  const lexicon = compile(nlp);
  const text = plainText(thesis);
  const tokens = tokenize(text, nlp);
  const owner = new Array<string | undefined>(tokens.length).fill(undefined);
  const free = (j: number) => owner[j] === undefined;
  const slice = (start: number, end: number) => text.slice(tokens[start]!.startChar, tokens[end - 1]!.endChar);

  const mentions: Array<Mention & { vague?: boolean }> = [];
  const addMention = (target: MentionTarget, start: number, end: number, readAs?: string) => {
    for (let k = start; k < end; k++) owner[k] = 'mention';
    const vague = target.kind === 'theme' && target.theme.vague;
    mentions.push({
      target,
      text: slice(start, end),
      start,
      end,
      polarity: 'include',
      ...(readAs ? { readAs } : {}),
      ...(vague ? { vague } : {}),
    });
  };

  // 1. Names, themes and what no asset fits: tickers first, then the longest lexicon phrase.
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct') continue;
    const symbol = t.raw.startsWith('$') ? t.raw.slice(1).toUpperCase() : t.raw;
    if (TICKER_SET.has(symbol)) {
      addMention({ kind: 'asset', ticker: symbol, via: 'ticker' }, i, i + 1);
      continue;
    }
    if (LOWER_TICKERS.has(t.norm)) {
      addMention({ kind: 'asset', ticker: LOWER_TICKERS.get(t.norm)!, via: 'ticker' }, i, i + 1);
      continue;
    }
    // "SQQQ", "$SH": an inverse fund bets against the asset it inverts.
    const inverted = LEXICON.assets.inverseFunds[symbol];
    if (inverted) {
      addMention({ kind: 'asset', ticker: inverted, via: 'ticker' }, i, i + 1);
      const m = mentions[mentions.length - 1]!;
      m.polarity = 'bearish';
      m.cue = `${t.raw}, an inverse fund`;
      continue;
    }
    // "Meta" with a capital is the company; "meta" in prose is not.
    if (t.raw === 'Meta') {
      addMention({ kind: 'asset', ticker: 'META', via: 'company' }, i, i + 1);
      continue;
    }
    const hit = lexicon.mentions.match(tokens, i, free);
    // A longer cue wins over a name inside it: "cash out of" is a sale, not cash; "take chips off the table" is not chips.
    const cue = lexicon.cues.match(tokens, i, free);
    if (cue && cue.length > Math.max(1, hit?.length ?? 0) && cue.entry.effect.type === 'cue' && cue.entry.effect.cue !== 'notACue') {
      i += cue.length - 1;
      continue;
    }
    if (hit && hit.entry.effect.type === 'mention') {
      addMention(hit.entry.effect.target, i, i + hit.length);
      i += hit.length - 1;
    }
  }
  qualifyByMarket(mentions, tokens, text);
  dropAttachedWords(mentions, tokens);
  // "cut Google loose", "kick my Tesla shares out": a phrasal verb of leaving out around its object.
  for (const m of mentions) {
    let v = m.start - 1;
    while (v >= 0 && v > m.start - 4 && OBJECT_FILLERS.has(tokens[v]!.norm)) v--;
    let p = m.end;
    while (p < tokens.length && p < m.end + 3 && OBJECT_FILLERS.has(tokens[p]!.norm)) p++;
    const verb = tokens[v];
    const particle = tokens[p];
    if (!verb || !particle || verb.kind !== 'word' || owner[v] !== undefined || owner[p] !== undefined) continue;
    const pair = [verb.norm, verb.lemma].find((form) => SEPARABLE_EXCLUDE.has(`${form} ${particle.norm}`));
    if (!pair) continue;
    owner[v] = 'cue';
    owner[p] = 'cue';
    m.polarity = 'exclude';
    m.cue = `${verb.raw} … ${particle.raw}`;
  }

  // 2. Risk words.
  const riskWords: Array<RiskWord & { start: number }> = [];
  // A phrase may be a theme and a risk word at once ("cash-like"): risk words read every token.
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind === 'punct') continue;
    // "too risky" says something about the asset before it (a bearish predicate: leave it
    // out), not how much risk the person wants: the cue pass reads it.
    const predicate = lexicon.cues.match(tokens, i, () => true);
    if (predicate && predicate.entry.effect.type === 'cue' && predicate.entry.effect.cue === 'bearishPredicate' && predicate.length > 1) {
      i += predicate.length - 1;
      continue;
    }
    const hit = lexicon.risk.match(tokens, i, () => true);
    if (hit && hit.entry.effect.type === 'risk') {
      for (let k = i; k < i + hit.length; k++) owner[k] ??= 'risk';
      riskWords.push({ text: slice(i, i + hit.length), tolerance: hit.entry.effect.tolerance, start: i });
      i += hit.length - 1;
    }
  }

  // 3. Cues and weights. A line break ends a sentence.
  const items: Item[] = [];
  tokens.forEach((t, i) => t.newlineBefore && items.push({ type: 'punct', norm: '\n', start: i - 0.5, level: 'sentence' }));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (owner[i] === 'risk') items.push({ type: 'word', norm: t.norm, start: i, pos: t.pos, known: true });
    if (!free(i)) continue;
    if (t.kind === 'punct') {
      if (t.raw === '%') continue; // read with its number
      const level = SENTENCE_PUNCT.has(t.raw) ? 'sentence' : CLAUSE_PUNCT.has(t.raw) ? 'clause' : t.raw === ',' ? 'comma' : 'soft';
      if (t.raw === '>') items.push({ type: 'cue', cue: 'preferOver', text: '>', start: i, end: i + 1 });
      else items.push({ type: 'punct', norm: t.raw, start: i, level });
      continue;
    }
    if (t.kind === 'number') {
      const weight = readWeight(lexicon, tokens, i);
      if (weight) {
        for (let k = weight.start; k < weight.end; k++) owner[k] = 'weight';
        const weightText = slice(weight.start, weight.end);
        items.push(
          weight.type === 'split'
            ? { type: 'split', bps: weight.bps, text: weightText, start: weight.start, end: weight.end }
            : {
                type: 'weight',
                bps: weight.bps,
                text: weightText,
                start: weight.start,
                end: weight.end,
                each: false,
                negative: weight.negative,
              },
        );
        i = weight.end - 1;
        continue;
      }
      const money = readAmount(tokens, i);
      if (money) {
        for (let k = money.start; k < money.end; k++) owner[k] = 'weight';
        const amountText = slice(money.start, money.end);
        items.push({
          type: 'weight',
          bps: Math.abs(money.value),
          text: amountText,
          start: money.start,
          end: money.end,
          each: false,
          negative: money.value < 0,
          amount: Math.abs(money.value),
        });
        i = money.end - 1;
        continue;
      }
      const phrase = lexicon.cues.match(tokens, i, free);
      if (phrase?.entry.effect.type === 'cue') {
        for (let k = i; k < i + phrase.length; k++) owner[k] = 'cue';
        items.push({ type: 'cue', cue: phrase.entry.effect.cue, text: slice(i, i + phrase.length), start: i, end: i + phrase.length });
        i += phrase.length - 1;
        continue;
      }
      const value = Number(t.raw.replace(/^\+/, ''));
      if (Number.isFinite(value)) items.push({ type: 'bare', value, text: t.raw, start: i, end: i + 1 });
      continue;
    }
    // "ex-energy": a prefix that excludes the word it is joined to.
    if (t.norm === 'ex' && tokens[i + 1]?.hyphenBefore) {
      owner[i] = 'cue';
      items.push({ type: 'cue', cue: 'exclude', text: `${t.raw}-`, start: i, end: i + 1 });
      continue;
    }
    // "minus 10% oil", "negative 5% QQQ": a sign in words, read with its number.
    const spelledAfterSign =
      NEGATIVE_SIGNS.has(t.norm) && tokens[i + 1] ? (readSpelledWeight(lexicon, tokens, i + 1) ?? readFraction(tokens, i + 1)) : undefined;
    if (spelledAfterSign) {
      for (let k = i; k < spelledAfterSign.end; k++) owner[k] = 'weight';
      items.push({
        type: 'weight',
        bps: spelledAfterSign.bps,
        text: slice(i, spelledAfterSign.end),
        start: i,
        end: spelledAfterSign.end,
        each: false,
        negative: true,
      });
      i = spelledAfterSign.end - 1;
      continue;
    }
    if (NEGATIVE_SIGNS.has(t.norm) && tokens[i + 1]?.kind === 'number') {
      const weight = readWeight(lexicon, tokens, i + 1);
      if (weight?.type === 'weight') {
        for (let k = i; k < weight.end; k++) owner[k] = 'weight';
        items.push({ type: 'weight', bps: weight.bps, text: slice(i, weight.end), start: i, end: weight.end, each: false, negative: true });
        i = weight.end - 1;
        continue;
      }
    }
    const spelled = readSpelledWeight(lexicon, tokens, i);
    if (spelled) {
      for (let k = i; k < spelled.end; k++) owner[k] = 'weight';
      items.push({
        type: 'weight',
        bps: spelled.bps,
        text: slice(i, spelled.end),
        start: i,
        end: spelled.end,
        each: false,
        negative: false,
      });
      i = spelled.end - 1;
      continue;
    }
    const hit = lexicon.cues.match(tokens, i, free);
    if (hit) {
      for (let k = i; k < i + hit.length; k++) owner[k] = 'cue';
      const end = i + hit.length;
      if (hit.entry.effect.type === 'fraction')
        items.push({ type: 'weight', bps: hit.entry.effect.bps, text: slice(i, end), start: i, end, each: false, negative: false });
      else if (hit.entry.effect.type === 'cue') items.push({ type: 'cue', cue: hit.entry.effect.cue, text: slice(i, end), start: i, end });
      i = end - 1;
      continue;
    }
    const fraction = readFraction(tokens, i);
    if (fraction) {
      for (let k = i; k < fraction.end; k++) owner[k] = 'weight';
      items.push({
        type: 'weight',
        bps: fraction.bps,
        text: slice(i, fraction.end),
        start: i,
        end: fraction.end,
        each: false,
        negative: false,
      });
      i = fraction.end - 1;
      continue;
    }
    // 4. A word nothing else matched may be a misspelt name, theme or risk word.
    const typo = misspelling(lexicon, t.norm);
    if (typo?.effect.type === 'mention') {
      addMention(typo.effect.target, i, i + 1, typo.word);
      continue;
    }
    if (typo?.effect.type === 'risk') {
      owner[i] = 'risk';
      riskWords.push({ text: t.raw, tolerance: typo.effect.tolerance, start: i });
      continue;
    }
    items.push({ type: 'word', norm: t.norm, start: i, pos: t.pos });
  }
  for (const m of mentions) items.push({ type: 'mention', mention: m, start: m.start });
  items.push(...negations(tokens, owner, text));
  items.sort((a, b) => a.start - b.start);
  // "each" belongs to the weight just before it ("a third each"), or just after it ("each a third").
  for (let k = 1; k < items.length; k++) {
    const it = items[k]!;
    const prev = items[k - 1]!;
    if (it.type === 'cue' && it.cue === 'each' && prev.type === 'weight') prev.each = true;
    if (prev.type === 'cue' && prev.cue === 'each' && it.type === 'weight') it.each = true;
  }
  // "33% in each of Apple, Microsoft and Google": an "each" among the fillers after a weight.
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'weight' || it.each) continue;
    for (let n = k + 1; n < items.length; n++) {
      const x = items[n]!;
      if (x.type === 'cue' && x.cue === 'each') {
        it.each = true;
        break;
      }
      const filler =
        (x.type === 'word' && BIND_FILLERS.has(x.norm)) || (x.type === 'cue' && (x.cue === 'include' || x.cue === 'destination'));
      if (!filler) break;
    }
  }

  cancelNegatedCues(items);
  applyScopes(items, tokens);
  applyPredicates(items);
  applyNamePredicates(items);
  applyAppositions(items);
  shareClauseWithAlso(items);
  markDestinations(items);
  markSelfCorrections(items, tokens);
  const equalWeight = items.some((it) => it.type === 'cue' && it.cue === 'equalWeight');
  readBareNumbers(items);
  const negativeWeights: string[] = [];
  const capWords = readCapWords(items);
  const restEven = bindWeights(items, equalWeight, negativeWeights);

  const kept = mentions
    .filter((m) => !m.vague || m.pinBps !== undefined || m.rest || m.polarity !== 'include')
    .sort((a, b) => a.start - b.start);
  const seen = new Set<string>();
  const notUnderstood: string[] = [];
  for (const it of items) {
    if (it.type !== 'word' || it.known || STOPWORDS.has(it.norm) || it.norm.length < 2 || seen.has(it.norm)) continue;
    seen.add(it.norm);
    notUnderstood.push(tokens[it.start]!.raw);
  }
  return {
    mentions: kept.map(({ vague: _v, ...m }) => m),
    riskWords: negateRiskWords(riskWords, tokens),
    equalWeight,
    restEven,
    negativeWeights,
    capWords,
    bullishWords: items.filter((it) => it.type === 'cue' && it.cue === 'bullishPredicate').length,
    notUnderstood,
  };
}

/**
 * Words that belong to the name beside them: "Amazon shares", "shares of Tesla", "tech stocks"
 * are the name, not the whole stock market; "move everything into Nvidia" is all the money, not
 * the whole registry.
 */
function dropAttachedWords(mentions: Array<Mention & { vague?: boolean }>, tokens: readonly Token[]): void {
  mentions.sort((a, b) => a.start - b.start);
  for (let k = mentions.length - 1; k >= 0; k--) {
    const m = mentions[k]!;
    const prev = mentions[k - 1];
    const next = mentions[k + 1];
    const attached =
      m.vague &&
      (tokens[m.start - 1]?.kind === 'number' ||
        (prev && !prev.vague && prev.end === m.start) ||
        (next && !next.vague && next.start === m.end + 1 && tokens[m.end]!.norm === 'of'));
    const heading =
      m.target.kind === 'theme' &&
      m.target.theme.id === 'everything' &&
      next !== undefined &&
      next.start === m.end + 1 &&
      ['in', 'of', 'across'].includes(tokens[m.end]!.norm);
    const allMoney =
      m.target.kind === 'theme' &&
      m.target.theme.id === 'everything' &&
      [m.start - 1, m.start - 2].some((j) => j >= 0 && (MOVING_VERBS.has(tokens[j]!.norm) || MOVING_VERBS.has(tokens[j]!.lemma)));
    if (attached || allMoney || heading) mentions.splice(k, 1);
  }
}

/**
 * "Japanese robotics", "Korean chipmakers", "AI in China": a market the registry lacks, next to a
 * theme, makes the theme that market's too, so no registry asset fits it (robotics is not Tesla
 * when it is Japanese).
 */
function qualifyByMarket(mentions: Array<Mention & { vague?: boolean }>, tokens: readonly Token[], text: string): void {
  mentions.sort((a, b) => a.start - b.start);
  for (let k = 0; k < mentions.length; k++) {
    const market = mentions[k]!;
    if (market.target.kind !== 'unfit' || market.target.group !== 'markets') continue;
    const next = mentions[k + 1];
    const prev = mentions[k - 1];
    const isTheme = (m: Mention | undefined) => m?.target.kind === 'theme' && !m.target.theme.vague;
    if (next && isTheme(next) && next.start === market.end) {
      next.target = market.target;
      next.text = text.slice(tokens[market.start]!.startChar, tokens[next.end - 1]!.endChar);
      next.start = market.start;
      mentions.splice(k, 1);
      k--;
    } else if (prev && isTheme(prev) && market.start - prev.end === 1 && ['in', 'from', 'of'].includes(tokens[prev.end]!.norm)) {
      prev.target = market.target;
      prev.text = text.slice(tokens[prev.start]!.startChar, tokens[market.end - 1]!.endChar);
      prev.end = market.end;
      mentions.splice(k, 1);
      k--;
    }
  }
}

/**
 * The library's negation scopes, as exclusion cues: the negation word (with its verb: "don't
 * trust", "never touch", "without holding") and the last token of its scope. A negation a
 * lexicon cue already reads ("don't want", "not sure about", "not only") is left to that cue.
 */
function negations(tokens: readonly Token[], owner: ReadonlyArray<string | undefined>, text: string): CueItem[] {
  const out: CueItem[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!tokens[i]!.negated || (i > 0 && tokens[i - 1]!.negated)) continue;
    const trigger = i - 1;
    if (trigger < 0 || owner[trigger] !== undefined || tokens[trigger]!.kind !== 'word' || !NEGATORS.has(tokens[trigger]!.norm)) continue;
    let runEnd = i;
    for (let j = i + 1; j < tokens.length; j++) {
      if (tokens[j]!.negated) runEnd = j;
      else if (tokens[j]!.kind !== 'punct' || !tokens[j + 1]?.negated) break;
    }
    // The words that did it: the auxiliary of a contraction, the negation, and the verb it negates.
    const from =
      tokens[trigger]!.norm === 'not' && trigger > 0 && tokens[trigger - 1]!.kind === 'word' && owner[trigger - 1] === undefined
        ? trigger - 1
        : trigger;
    const verb = tokens[i]!.kind === 'word' && owner[i] === undefined && !STOPWORDS.has(tokens[i]!.norm) ? i : i - 1;
    const verbEnd =
      verb >= i && tokens[verb + 1]?.kind === 'word' && owner[verb + 1] === undefined && BIND_FILLERS.has(tokens[verb + 1]!.norm)
        ? verb + 1
        : verb;
    out.push({
      type: 'cue',
      cue: 'exclude',
      text: text.slice(tokens[from]!.startChar, tokens[Math.max(trigger, verbEnd)]!.endChar),
      start: trigger,
      end: trigger + 1,
      negation: { runEnd },
    });
  }
  return out;
}

/** A number and what follows it: "25%", "25 percent", "1500 bps", "-30%", "1/3", "60/40", "50-50". */
function readWeight(
  lexicon: Compiled,
  tokens: readonly Token[],
  i: number,
):
  | { type: 'weight'; bps: number; start: number; end: number; negative: boolean }
  | { type: 'split'; bps: number[]; start: number; end: number }
  | undefined {
  const t = tokens[i]!;
  const raw = t.raw.replace(/^\+/, '');
  const unit = (j: number): { kind: 'percent' | 'bps'; end: number } | undefined => {
    if (tokens[j]?.raw === '%') return { kind: 'percent', end: j + 1 };
    const hit = lexicon.cues.match(tokens, j, () => true);
    if (hit?.entry.effect.type === 'cue' && (hit.entry.effect.cue === 'percent' || hit.entry.effect.cue === 'bps'))
      return { kind: hit.entry.effect.cue, end: j + hit.length };
    return undefined;
  };
  // A split written as one number ("60/40", "40/30/30", "50-50"), or a fraction ("1/3").
  const parts = raw.split(/[/-]/).filter((p) => p !== '');
  if (parts.length > 1 && !raw.startsWith('-') && parts.every((p) => /^\d+(?:\.\d+)?$/.test(p))) {
    const values = parts.map(Number);
    const sum = values.reduce((s, p) => s + p, 0);
    if (values.every((p) => p > 0) && sum >= 99 && sum <= 101) {
      const end = tokens[i + 1]?.raw === '%' ? i + 2 : i + 1;
      return { type: 'split', bps: values.map((p) => Math.round(p * 100)), start: i, end };
    }
    if (raw.includes('/') && values.length === 2 && values[0]! < values[1]! && values[1]! <= 12)
      return { type: 'weight', bps: (values[0]! / values[1]!) * 10_000, start: i, end: i + 1, negative: false };
    return undefined;
  }
  // "12,5" is a decimal, "1,500" a thousand.
  const value = Number(/^-?\d+,\d{3}$/.test(raw) ? raw.replace(',', '') : raw.replace(',', '.'));
  if (!Number.isFinite(value)) return undefined;
  const u = unit(i + 1);
  if (!u) return undefined;
  const bps = u.kind === 'percent' ? value * 100 : value;
  return { type: 'weight', bps: Math.abs(bps), start: i, end: u.end, negative: value < 0 };
}

/**
 * "twenty-five percent", "forty per cent", "a hundred percent": a number in words (a tens word,
 * a ones word, or both) read as a weight only when a percent or basis-point word follows it.
 */
function readSpelledWeight(lexicon: Compiled, tokens: readonly Token[], i: number): { bps: number; end: number } | undefined {
  const { cardinals } = LEXICON.weights;
  let value: number | undefined;
  let end = i;
  for (const h of HUNDREDS) {
    if (h.every((w, k) => tokens[i + k]?.norm === w)) {
      value = 100;
      end = i + h.length;
      break;
    }
  }
  if (value === undefined) {
    const first = cardinals[tokens[i]!.norm];
    if (first === undefined) return undefined;
    value = first;
    end = i + 1;
    const next = tokens[end];
    const ones = next ? cardinals[next.norm] : undefined;
    if (first >= 20 && first % 10 === 0 && ones !== undefined && ones > 0 && ones < 10) {
      value += ones;
      end++;
    }
  }
  const hit = lexicon.cues.match(tokens, end, () => true);
  if (hit?.entry.effect.type !== 'cue' || (hit.entry.effect.cue !== 'percent' && hit.entry.effect.cue !== 'bps')) return undefined;
  return { bps: hit.entry.effect.cue === 'percent' ? value * 100 : value, end: end + hit.length };
}

/** "$5k", "$5,000", "€2.5K": a sum of money (the currency sign just before it). */
function readAmount(tokens: readonly Token[], i: number): { value: number; start: number; end: number } | undefined {
  const sign = tokens[i - 1];
  if (!sign || !['$', '€', '£'].includes(sign.raw) || tokens[i]!.startChar !== sign.endChar) return undefined;
  const raw = tokens[i]!.raw.replace(/,(?=\d{3}\b)/g, '');
  let value = Number(raw);
  if (!Number.isFinite(value)) return undefined;
  let end = i + 1;
  const suffix = tokens[i + 1];
  if (suffix && suffix.startChar === tokens[i]!.endChar && /^[kmb]$/i.test(suffix.raw)) {
    value *= { k: 1e3, m: 1e6, b: 1e9 }[suffix.raw.toLowerCase() as 'k' | 'm' | 'b'];
    end++;
  }
  return { value, start: i - 1, end };
}

/**
 * "AAPL 25 / MSFT 25 / NVDA 50": numbers with no unit, each right beside a name, that sum to 100
 * are percentages (to 10000, basis points). Anything else is left as a number (a year, a count, a price).
 */
function readBareNumbers(items: Item[]): void {
  const beside = (k: number) => items[k - 1]?.type === 'mention' || items[k + 1]?.type === 'mention';
  const bare = items.flatMap((x, k) => (x.type === 'bare' && x.value > 0 && beside(k) ? [k] : []));
  const sum = bare.reduce((s, k) => s + (items[k] as { value: number }).value, 0);
  // Summing to 100 they are percentages; to 10000, basis points ("MSFT 3300, GOOGL 3300, AMZN 3400").
  const scale = sum >= 99 && sum <= 101 ? 100 : sum >= 9_999 && sum <= 10_001 ? 1 : 0;
  if (bare.length < 2 || scale === 0) return;
  for (const k of bare) {
    const x = items[k] as { value: number; text: string; start: number; end: number };
    items[k] = { type: 'weight', bps: x.value * scale, text: x.text, start: x.start, end: x.end, each: false, negative: false };
  }
}

/** "a third", "two-fifths", "three quarters", "half": a share in words, exact. */
function readFraction(tokens: readonly Token[], i: number): { bps: number; end: number } | undefined {
  const { numerators, denominators } = LEXICON.weights;
  const t = tokens[i]!;
  const numerator = numerators[t.norm];
  const next = tokens[i + 1];
  if (numerator !== undefined && next && denominators[next.norm] !== undefined && !next.newlineBefore) {
    const denominator = denominators[next.norm]!;
    if (numerator >= denominator) return undefined;
    return { bps: (numerator / denominator) * 10_000, end: i + 2 };
  }
  if (t.norm === 'half') return { bps: 5000, end: i + 1 };
  return undefined;
}

const EXCLUDING: ReadonlySet<string> = new Set([
  'exclude',
  'excludeNext',
  'insteadOf',
  'doubt',
  'bearish',
  'bearishPredicate',
  'excludePredicate',
]);

/**
 * Double negations cancel: "not overvalued", "won't crash", "never sell", "not worried about",
 * "I don't think Tesla will fall". A negator (or a negation cue) just before an excluding cue, or
 * an excluding cue inside a negation's scope, turns both off.
 */
function cancelNegatedCues(items: Item[]): void {
  const off = (k: number) => {
    const it = items[k] as CueItem;
    items[k] = { type: 'cue', cue: 'notACue', text: it.text, start: it.start, end: it.end };
  };
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || !EXCLUDING.has(it.cue) || it.negation) continue;
    for (let b = k - 1; b >= 0 && it.start - items[b]!.start <= 3; b--) {
      const before = items[b]!;
      if (before.type === 'punct' || before.type === 'mention') break;
      const negator =
        (before.type === 'word' && NEGATORS.has(before.norm)) ||
        (before.type === 'cue' && before.negation !== undefined) ||
        (before.type === 'cue' && before.cue === 'exclude' && normalizedWords(before.text).some((w) => NEGATORS.has(w) || w === 'not'));
      if (negator) {
        items[b] = { type: 'word', norm: 'not', start: before.start, pos: 'PART', known: true };
        off(k);
        break;
      }
    }
  }
  // A negation whose scope holds an excluding cue negates that cue, not the names around it.
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || !it.negation) continue;
    const inner: number[] = [];
    for (let n = k + 1; n < items.length && items[n]!.start <= it.negation.runEnd; n++) {
      const x = items[n]!;
      if (x.type === 'cue' && EXCLUDING.has(x.cue)) inner.push(n);
    }
    if (inner.length) {
      off(k);
      for (const n of inner) off(n);
    }
  }
}

function normalizedWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map(normalizeWord)
    .flatMap((w) => (w.endsWith('nt') && w.length > 3 ? [w, 'not'] : [w]));
}

type Forward = {
  polarity: 'exclude' | 'bearish' | 'unsure';
  cue: string;
  single: boolean;
  /** A name was already covered: a positive word or a destination now ends it ("sell Tesla and buy Apple"). */
  covered: boolean;
  /** The library's scope ends at this token; past it only a list keeps going ("not Tesla, Meta or Amazon"). */
  runEnd?: number;
  /** A negation ("don't", "never", "without"): a positive verb inside it is negated, not a new clause. */
  negation?: boolean;
  /** A preference ("X over Y", "rather X than Y"): it leaves out the list right after it, no more. */
  listScope?: boolean;
};

/**
 * Forward scopes. An exclusion, a doubt, a sale, a bet against or a negation covers what follows
 * it up to the end of its clause (sentence punctuation, a bracket or dash, "but", "because"),
 * across a list joined by commas and "and" ("avoid Tesla, Meta and Amazon"); once it covered a
 * name, a positive word or a destination ends it ("dump Tesla and move into treasuries", "swap
 * Meta for Google"). "X over Y", "rather X than Y", "prefer X to Y": what follows is left out.
 * "only", "mostly" and "a little" cover the names right after them, across a list.
 */
function applyScopes(items: Item[], tokens: readonly Token[]): void {
  let forward: Forward | undefined;
  let scope: Scope | undefined;
  let listOnly = true;
  let clauseStart = 0;
  const opened: Array<{ forward: Forward; at: number; clauseStart: number }> = [];
  const nextIsMention = (k: number) => {
    for (let n = k + 1; n < items.length; n++) {
      const it = items[n]!;
      if (it.type === 'word' && LIST_GLUE.has(it.norm)) continue;
      return it.type === 'mention';
    }
    return false;
  };
  /** ", and Meta with it", ", Amazon too": a name after the comma that says it shares the clause before. */
  const nextIsAlso = (k: number) => {
    let n = k + 1;
    while (items[n]?.type === 'word' && LIST_GLUE.has((items[n] as { norm: string }).norm)) n++;
    if (items[n]?.type !== 'mention') return false;
    while (items[n + 1]?.type === 'mention' || (items[n + 1]?.type === 'word' && LIST_GLUE.has((items[n + 1] as { norm: string }).norm)))
      n++;
    const after = items[n + 1];
    return after?.type === 'cue' && after.cue === 'also';
  };
  /** The mention just before `k` in its clause, skipping fillers, if any. */
  const mentionBefore = (k: number): Mention | undefined => {
    for (let n = k - 1; n >= clauseStart; n--) {
      const it = items[n]!;
      if (it.type === 'mention') return it.mention;
      if (it.type === 'word' && (BIND_FILLERS.has(it.norm) || LIST_GLUE.has(it.norm) || STOPWORDS.has(it.norm))) continue;
      if (it.type === 'cue' && (it.cue === 'include' || it.cue === 'strong' || it.cue === 'weak')) continue;
      return undefined;
    }
    return undefined;
  };
  const joinedByAnd = (k: number) => {
    const before = items[k - 1];
    return (before?.type === 'word' && JOINERS.has(before.norm)) || (before?.type === 'punct' && before.level === 'comma');
  };
  /** A destination with a name after it, later in the sentence ("..., into SGOV"). */
  const destinationAhead = (k: number) => {
    for (let n = k + 1; n < items.length; n++) {
      const x = items[n]!;
      if (x.type === 'punct' && x.level === 'sentence') return false;
      if (x.type === 'cue' && (x.cue === 'destination' || x.cue === 'include') && nextIsMention(n)) return true;
    }
    return false;
  };
  /** "I'm moving my Amazon shares into Microsoft": the names between a moving verb and a destination are sold. */
  const movedFrom = (k: number) => {
    const verb = clauseHas(k, MOVING_VERBS);
    if (!verb) return;
    const from = items.indexOf(verb);
    for (let n = from + 1; n < k; n++) {
      const x = items[n]!;
      if (x.type === 'mention' && x.mention.polarity === 'include') {
        x.mention.polarity = 'exclude';
        x.mention.cue = `${tokens[verb.start]!.raw} … ${(items[k] as CueItem).text}`;
      }
    }
  };
  const clauseHas = (k: number, words: ReadonlySet<string>) => {
    for (let n = k - 1; n >= clauseStart; n--) {
      const it = items[n]!;
      const norms = it.type === 'word' ? [it.norm] : it.type === 'cue' ? normalizedWords(it.text) : [];
      const found = norms.find((w) => words.has(w) || words.has(tokens[it.start]?.lemma ?? ''));
      if (found) return it;
    }
    return undefined;
  };
  const end = () => {
    forward = undefined;
    scope = undefined;
  };
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (forward?.runEnd !== undefined && it.start > forward.runEnd) {
      // Past the library's scope only a list keeps the negation going.
      const listItem =
        it.type === 'mention' || (it.type === 'word' && LIST_GLUE.has(it.norm)) || (it.type === 'punct' && it.level === 'comma');
      if (!listItem) forward = undefined;
    }
    switch (it.type) {
      case 'punct':
        if (it.level === 'sentence' || it.level === 'clause') {
          end();
          clauseStart = k + 1;
        } else if (it.level === 'comma' && !(listOnly && nextIsMention(k)) && !(forward && nextIsAlso(k))) {
          end();
          clauseStart = k + 1;
        }
        break;
      case 'cue':
        // "Liquidate Apple and spread it across ...": after a sale named its object, "and" with a
        // cue of another kind starts a new clause.
        if (forward?.covered && !forward.negation && joinedByAnd(k) && !EXCLUDING.has(it.cue) && it.cue !== 'also' && it.cue !== 'each')
          forward = undefined;
        switch (it.cue) {
          case 'exclude':
          case 'bearish':
          case 'doubt': {
            // "AMD though, I've given up on them", "other than that": a pronoun object speaks of
            // the name before it, and what follows is not ruled out.
            const object = items[k + 1];
            if (object?.type === 'word' && PRONOUNS.has(object.norm) && items[k + 2]?.type !== 'mention') {
              const back = nearestMentionBefore(items, k);
              if (back?.polarity === 'include') {
                back.polarity = it.cue === 'bearish' ? 'bearish' : it.cue === 'doubt' ? 'unsure' : 'exclude';
                back.cue = `${it.text} ${tokens[object.start]!.raw}`;
              }
              forward = undefined;
              break;
            }
            forward = {
              polarity: it.cue === 'bearish' ? 'bearish' : it.cue === 'doubt' ? 'unsure' : 'exclude',
              cue: it.text,
              single: it.text.endsWith('-'),
              covered: false,
              ...(it.negation ? { runEnd: it.negation.runEnd } : {}),
              negation: it.negation !== undefined || normalizedWords(it.text).some((w) => NEGATORS.has(w)),
            };
            if (!forward.negation && !forward.single) opened.push({ forward, at: k, clauseStart });
            scope = undefined;
            listOnly = true;
            break;
          }
          case 'include':
          case 'destination':
            // "sell everything and buy Apple": a positive verb joined by "and" ends a sale even
            // before it named anything; "don't buy Tesla", "without holding Amazon" stay negated.
            if (forward?.covered || (forward && it.cue === 'include' && joinedByAnd(k) && !forward.negation)) forward = undefined;
            else if (!forward && it.cue === 'destination' && nextIsMention(k)) {
              // "prefer silver to oil": what follows "to" is left out; else a moving verb sold what came before.
              const before = mentionBefore(k);
              if (normalizeWord(it.text) === 'to' && before && clauseHas(k, PREFER_VERBS)) {
                forward = { polarity: 'exclude', cue: `prefer ${before.text} to`, single: false, covered: false, listScope: true };
                listOnly = true;
              } else movedFrom(k);
            }
            if (it.cue === 'include' && !forward) scope = scope === 'a little' ? scope : undefined;
            break;
          case 'source': {
            // "move everything from Coinbase into Nvidia", "out of QQQ, into SGOV": the source is sold.
            const verb = clauseHas(k, MOVING_VERBS);
            if (!forward && nextIsMention(k) && (verb || destinationAhead(k))) {
              forward = {
                polarity: 'exclude',
                cue: verb ? `${tokens[verb.start]!.raw} … ${it.text}` : it.text,
                single: false,
                covered: false,
              };
              listOnly = true;
            }
            break;
          }
          case 'excludeNext':
            if (items[k + 1]?.type === 'mention') forward = { polarity: 'exclude', cue: it.text, single: true, covered: false };
            break;
          case 'insteadOf':
            forward = { polarity: 'exclude', cue: it.text, single: false, covered: false, listScope: true };
            listOnly = true;
            break;
          case 'preferOver': {
            const before = mentionBefore(k);
            if (before && nextIsMention(k)) {
              forward = { polarity: 'exclude', cue: `${before.text} ${it.text}`, single: false, covered: false, listScope: true };
              listOnly = true;
            }
            break;
          }
          case 'preferThan': {
            const next = items[k + 1];
            const preference = clauseHas(k, PREFERENCE_WORDS);
            if (preference && next?.type !== 'weight' && next?.type !== 'split') {
              forward = {
                polarity: 'exclude',
                cue: `${tokens[preference.start]!.raw} … ${it.text}`,
                single: false,
                covered: false,
                listScope: true,
              };
              listOnly = true;
            }
            break;
          }
          case 'only':
            forward = undefined;
            scope = 'only';
            listOnly = true;
            break;
          case 'strong':
            forward = undefined;
            scope = 'mostly';
            listOnly = true;
            break;
          case 'weak':
            scope = 'a little';
            listOnly = true;
            break;
          case 'contrast':
          case 'scopeEnd': {
            // "every stock but Tesla", "everything but Google": after a theme of everything, "but" is "except".
            const head = items[k - 1];
            if (
              normalizeWord(it.text) === 'but' &&
              head?.type === 'mention' &&
              head.mention.target.kind === 'theme' &&
              (head.mention.target.theme.each || head.mention.target.theme.id === 'everything') &&
              nextIsMention(k)
            ) {
              forward = { polarity: 'exclude', cue: `${head.mention.text} ${it.text}`, single: false, covered: false, listScope: true };
              listOnly = true;
              break;
            }
            end();
            clauseStart = k + 1;
            break;
          }
          default:
            break;
        }
        break;
      case 'mention': {
        const m = it.mention;
        if (forward) {
          if (m.polarity === 'include' || forward.polarity === 'bearish') {
            m.polarity = forward.polarity;
            m.cue = forward.cue;
          }
          forward.covered = true;
          if (forward.single) forward = undefined;
        }
        if (scope) m.scope = scope;
        break;
      }
      case 'word':
        // "sell Tesla and park it in T-bills": after the sold name, "and" with a new word (not a
        // name, not a filler) starts a new clause.
        if (forward?.covered && joinedByAnd(k) && !LIST_GLUE.has(it.norm) && !STOPWORDS.has(it.norm) && !BIND_FILLERS.has(it.norm))
          forward = undefined;
        if (forward?.listScope && forward.covered && !LIST_GLUE.has(it.norm)) forward = undefined;
        if (!LIST_GLUE.has(it.norm)) listOnly = false;
        if (scope && !ONLY_FILLERS.has(it.norm) && !LIST_GLUE.has(it.norm)) scope = undefined;
        break;
      default:
        break;
    }
  }
  // "Tesla I would sell", "the market dropping 20%": a cue that named nothing after it in its
  // clause speaks of what its clause named before it (unless something there was bought).
  for (const { forward: f, at, clauseStart: from } of opened) {
    if (f.covered) continue;
    const before = items.slice(from, at);
    if (before.some((x) => x.type === 'cue' && (x.cue === 'include' || x.cue === 'destination'))) continue;
    for (const x of before)
      if (x.type === 'mention' && x.mention.polarity === 'include') {
        x.mention.polarity = f.polarity;
        x.mention.cue = f.cue;
      }
  }
  backwardNegations(items, tokens);
}

/** "rotate out of big tech (apple, microsoft, google)": a bracketed list right after a name is that name, and shares its polarity. */
function applyAppositions(items: Item[]): void {
  for (let k = 1; k < items.length; k++) {
    const open = items[k]!;
    const head = items[k - 1]!;
    if (open.type !== 'punct' || open.norm !== '(' || head.type !== 'mention' || head.mention.polarity === 'include') continue;
    const inside: Mention[] = [];
    let n = k + 1;
    for (; n < items.length; n++) {
      const x = items[n]!;
      if (x.type === 'punct' && x.norm === ')') break;
      if (x.type === 'mention') inside.push(x.mention);
      else if (!((x.type === 'punct' && x.level === 'comma') || x.type === 'word')) break;
    }
    if (items[n]?.type !== 'punct' || (items[n] as { norm: string }).norm !== ')') continue;
    for (const m of inside)
      if (m.polarity === 'include') {
        m.polarity = head.mention.polarity;
        m.cue = head.mention.cue;
      }
  }
}

/** "Nasdaq down, oil higher": a bearish word right after a name speaks of that name only. */
function applyNamePredicates(items: Item[]): void {
  for (let k = 1; k < items.length; k++) {
    const it = items[k]!;
    // "Oil: down 30%": a colon may stand between.
    const gap = items[k - 1]?.type === 'punct' && (items[k - 1] as { level: string }).level === 'soft' ? 2 : 1;
    const before = items[k - gap];
    if (it.type !== 'cue' || it.cue !== 'bearishAfterName' || before?.type !== 'mention') continue;
    if (before.mention.polarity === 'include') {
      before.mention.polarity = 'bearish';
      before.mention.cue = it.text;
    }
  }
}

/**
 * "Crypto will crash and take Coinbase with it", "Tesla is overvalued, and Rivian too": a name
 * followed by "with it" or "too" shares what its sentence said of the name before it.
 */
function shareClauseWithAlso(items: Item[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'mention' || it.mention.polarity !== 'include') continue;
    const after = items[k + 1];
    const before = items[k - 1];
    const next =
      after?.type === 'cue' && after.cue === 'also' ? after : before?.type === 'cue' && before.cue === 'alsoBefore' ? before : undefined;
    if (!next) continue;
    const from = next === before ? k - 2 : k - 1;
    for (let b = from; b >= 0; b--) {
      const x = items[b]!;
      if (x.type === 'punct' && x.level === 'sentence') break;
      // "buy Microsoft with it" is the money, not the clause before.
      if (x.type === 'cue' && (x.cue === 'include' || x.cue === 'destination')) break;
      if (x.type !== 'mention') continue;
      if (x.mention.polarity !== 'include') {
        it.mention.polarity = x.mention.polarity;
        it.mention.cue = `${x.mention.cue ?? ''} … ${next.text}`.trim();
      }
      break;
    }
  }
}

/**
 * Moving money: "offload Tesla and shove all of it into T-bills", "take my Amazon money off the
 * table and stick it in cash". When every wanted name of the thesis comes after a name its own
 * sentence sold or ruled out, those names are where the money goes, and only them: the basket is
 * the destination (no broad funds added beside it).
 */
function markDestinations(items: Item[]): void {
  const destinations: Mention[] = [];
  let soldInSentence = false;
  let wantedElsewhere = false;
  for (const it of items) {
    if (it.type === 'punct' && it.level === 'sentence') soldInSentence = false;
    if (it.type !== 'mention') continue;
    const m = it.mention;
    if (m.polarity === 'exclude') soldInSentence = true;
    else if (m.polarity === 'include' && m.target.kind !== 'unfit') {
      if (soldInSentence) destinations.push(m);
      else wantedElsewhere = true;
    }
  }
  if (wantedElsewhere) return;
  for (const m of destinations) m.scope ??= 'only';
}

/** "... actually drop the social media one, on second thought": an exclusion in a sentence that corrects itself. */
function markSelfCorrections(items: Item[], tokens: readonly Token[]): void {
  const sentences: Item[][] = [[]];
  for (const it of items) {
    if (it.type === 'punct' && it.level === 'sentence') sentences.push([]);
    else sentences[sentences.length - 1]!.push(it);
  }
  for (const sentence of sentences) {
    if (sentence.length === 0) continue;
    const from = Math.ceil(sentence[0]!.start);
    const to = Math.max(...sentence.map((x) => ('end' in x ? x.end : Math.ceil(x.start) + 1)));
    const said = ` ${tokens
      .slice(from, to)
      .map((t) => t.norm)
      .join(' ')} `;
    if (!SELF_CORRECTIONS.some((c) => said.includes(` ${c} `))) continue;
    for (const x of sentence) if (x.type === 'mention' && x.mention.polarity !== 'include') x.mention.corrects = true;
  }
}

/** The mention nearest before `k`: in its sentence, else in the sentence before. */
function nearestMentionBefore(items: readonly Item[], k: number): Mention | undefined {
  let sentences = 0;
  for (let n = k - 1; n >= 0; n--) {
    const x = items[n]!;
    if (x.type === 'mention') return x.mention;
    if (x.type === 'punct' && x.level === 'sentence' && items[n + 1]?.type !== 'punct' && ++sentences > 1) return undefined;
  }
  return undefined;
}

/**
 * "Tesla is not for me", "crypto's not my thing": a negated copula after a name, with nothing
 * named in its scope, rules out the name before it.
 */
function backwardNegations(items: Item[], tokens: readonly Token[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || !it.negation) continue;
    const copula = tokens[it.start - 1];
    let named = false;
    let rising = false;
    for (let n = k + 1; n < items.length && items[n]!.start <= it.negation.runEnd; n++) {
      const x = items[n]!;
      if (x.type === 'mention') named = true;
      if ((x.type === 'word' && RISING.has(x.norm)) || (x.type === 'cue' && x.cue === 'bullishPredicate')) rising = true;
    }
    if (named) continue;
    // "The S&P can't keep going up", "Nvidia won't go higher": a negated rise bets against the name before it.
    if (rising) {
      for (let b = k - 1; b >= 0; b--) {
        const x = items[b]!;
        if ((x.type === 'punct' && x.level !== 'soft') || (x.type === 'cue' && (x.cue === 'contrast' || x.cue === 'scopeEnd'))) break;
        if (x.type === 'mention' && x.mention.polarity !== 'bearish') {
          x.mention.polarity = 'bearish';
          x.mention.cue = `${it.text} … rise`;
        }
      }
      continue;
    }
    if (!copula || !COPULAS.has(copula.norm)) continue;
    for (let b = k - 1; b >= 0; b--) {
      const x = items[b]!;
      if (x.type === 'punct' && x.level !== 'soft') break;
      if (x.type === 'cue' && (x.cue === 'contrast' || x.cue === 'scopeEnd')) break;
      if (x.type === 'mention' && x.mention.polarity === 'include') {
        x.mention.polarity = 'exclude';
        x.mention.cue = `${copula.raw} ${it.text}`.replace(/^(\S+) \1\b/, '$1');
      }
    }
  }
}

/**
 * Predicates ("is overvalued", "will crash", "is a bubble"; "is dead to me", "hard pass") apply
 * to what their clause names before them, else to what it names after them; a predicate whose
 * clause names nothing and is only the predicate, or refers back ("it", "they"), applies to the
 * clause before ("Tesla? Hard pass.", "I liked Tesla but it has peaked"). A clause ends at
 * punctuation, "but", "because", "if".
 */
function applyPredicates(items: Item[]): void {
  const boundary = (it: Item) => it.type === 'punct' || (it.type === 'cue' && (it.cue === 'contrast' || it.cue === 'scopeEnd'));
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || (it.cue !== 'bearishPredicate' && it.cue !== 'excludePredicate')) continue;
    const before: Mention[] = [];
    let b = k - 1;
    let onlyPredicate = true;
    let refersBack = false;
    // "Meta, Apple, Google, all going lower": a sentence that is only a list before the predicate names its subject.
    let start = k - 1;
    while (start >= 0 && !(items[start]!.type === 'punct' && (items[start] as { level: string }).level === 'sentence')) start--;
    const span = items.slice(start + 1, k);
    const onlyList =
      span.some((x) => x.type === 'mention') &&
      span.every(
        (x) =>
          x.type === 'mention' ||
          (x.type === 'punct' && (x.level === 'comma' || x.level === 'soft')) ||
          (x.type === 'word' && (LIST_GLUE.has(x.norm) || STOPWORDS.has(x.norm))),
      );
    if (onlyList) for (const x of span) if (x.type === 'mention') before.push(x.mention);
    for (; !onlyList && b >= 0 && !boundary(items[b]!); b--) {
      const x = items[b]!;
      if (x.type === 'mention') before.push(x.mention);
      else if (x.type === 'word' && PRONOUNS.has(x.norm)) refersBack = true;
      else if (!(x.type === 'word' && STOPWORDS.has(x.norm))) onlyPredicate = false;
    }
    const after: Mention[] = [];
    if (before.length === 0) {
      for (let a = k + 1; a < items.length && !boundary(items[a]!); a++) {
        const x = items[a]!;
        if (x.type === 'mention') after.push(x.mention);
      }
    }
    const previous: Mention[] = [];
    if (before.length === 0 && after.length === 0 && (onlyPredicate || refersBack) && b >= 0) {
      let from = b - 1;
      while (from >= 0 && items[from]!.type === 'punct') from--;
      for (let p = from; p >= 0 && !boundary(items[p]!); p--) {
        const x = items[p]!;
        if (x.type === 'mention') previous.push(x.mention);
      }
    }
    for (const m of before.length ? before : after.length ? after : previous) {
      if (m.polarity !== 'include') continue;
      m.polarity = it.cue === 'bearishPredicate' ? 'bearish' : 'exclude';
      m.cue = it.text;
    }
  }
}

/**
 * The person's word on the cap. "max 60% per position", "no more than 35% in any one name": a
 * cap word, then a weight that no name follows, states the cap (the weight is the cap's, not a
 * pin, so it is taken out of the items). "no cap", "concentration is fine": a lift.
 */
function readCapWords(items: Item[]): Array<{ text: string; bps?: number }> {
  const out: Array<{ text: string; bps?: number }> = [];
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue') continue;
    if (it.cue === 'liftCap') out.push({ text: it.text });
    if (it.cue !== 'capAt') continue;
    const weight = items[k + 1];
    if (weight?.type !== 'weight' || weight.negative || weight.amount !== undefined || weight.bps <= 0) continue;
    // Only a weight said of every position is a cap: "max 60% per position", "no more than 35% in any one name" ("Nvidia at max 50%" is a pin).
    let n = k + 2;
    while (
      items[n]?.type === 'word' &&
      BIND_FILLERS.has((items[n] as { norm: string }).norm) &&
      !CAP_SCOPE.has((items[n] as { norm: string }).norm)
    )
      n++;
    const scoped = items[n];
    if (!((scoped?.type === 'word' && CAP_SCOPE.has(scoped.norm)) || (scoped?.type === 'cue' && scoped.cue === 'each'))) continue;
    out.push({ text: `${it.text} ${weight.text}`, bps: Math.round(weight.bps) });
    items.splice(k + 1, 1);
  }
  return out;
}

/**
 * Weights: a percentage, a fraction or a number of bps weighs the name right after it ("20% in
 * silver", "half in SGOV"), else the one right before it ("Tesla 30%"); with "each" it weighs
 * every wanted name of its sentence; a split ("60/40") weighs the next names in order (else the
 * previous ones); "equal weight" gives every wanted name the same share; "the rest" goes to the
 * names after it (before it when none follow). A weight of 0 excludes ("0% crypto"); a negative
 * weight, or one on a name the thesis shorts ("short 20% of QQQ"), is recorded for the refusal.
 * Returns whether the rest is split evenly.
 */
function bindWeights(items: Item[], equalWeight: boolean, negativeWeights: string[]): boolean {
  const wanted = (m: Mention) => m.polarity === 'include' && m.target.kind !== 'unfit';
  const isSentenceEnd = (it: Item | undefined) => it?.type === 'punct' && it.level === 'sentence';
  const sentenceOf = (k: number): [number, number] => {
    let s = k;
    while (s > 0 && !isSentenceEnd(items[s - 1])) s--;
    let e = k;
    while (e < items.length - 1 && !isSentenceEnd(items[e + 1])) e++;
    return [s, e];
  };
  const fillerItem = (it: Item) =>
    (it.type === 'word' && BIND_FILLERS.has(it.norm)) ||
    (it.type === 'punct' && BIND_FILLERS.has(it.norm)) ||
    (it.type === 'cue' && (it.cue === 'include' || it.cue === 'each' || it.cue === 'destination'));
  const boundWeights = new Set<string>();
  const pin = (m: Mention, bps: number, text: string) => {
    boundWeights.add(text);
    m.pinBps = bps;
    m.pinText = text;
    if (bps === 0) {
      m.polarity = 'exclude';
      m.cue = text;
    }
  };
  const mentionAt = (
    k: number,
    step: 1 | -1,
    accept: (m: Mention) => boolean = (m) => m.pinBps === undefined && wanted(m),
  ): Mention | undefined => {
    for (let n = k + step; n >= 0 && n < items.length; n += step) {
      const it = items[n]!;
      if (it.type === 'mention') return accept(it.mention) ? it.mention : undefined;
      if (!fillerItem(it)) return undefined;
    }
    return undefined;
  };
  let restEven = false;
  const weighted = items.filter((x) => x.type === 'weight' || x.type === 'split').length;
  /** "down 30%", "a 20% correction", "rally 15% a year": a percentage next to a move is a forecast, not a weight. */
  const forecast = (k: number) => {
    const around = [items[k - 1], items[k + 1]];
    return around.some(
      (x) =>
        (x?.type === 'word' && FORECAST_WORDS.has(x.norm)) ||
        (x?.type === 'cue' && (x.cue === 'bearishPredicate' || x.cue === 'bullishPredicate' || FORECAST_WORDS.has(normalizeWord(x.text)))),
    );
  };
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type === 'weight' && !it.negative && forecast(k)) continue;
    if (it.type === 'weight') {
      if (it.negative) {
        const on = mentionAt(k, 1, () => true) ?? mentionAt(k, -1, () => true);
        negativeWeights.push(on ? (on.start > it.start ? `${it.text} ${on.text}` : `${on.text} ${it.text}`) : it.text);
      }
      // A weight on a name the thesis shorts or bets against, or beside a short ("a 10% short position"), is a short position.
      const shorted = mentionAt(k, 1, () => true) ?? mentionAt(k, -1, () => true);
      const shortBeside = [items[k - 1], items[k + 1]].find((x) => x?.type === 'cue' && x.cue === 'bearish') as CueItem | undefined;
      if (!it.negative && it.bps > 0 && shorted?.polarity === 'bearish' && shorted.cue) negativeWeights.push(`${shorted.cue} ${it.text}`);
      else if (!it.negative && it.bps > 0 && shortBeside) negativeWeights.push(`${it.text} ${shortBeside.text}`);
      if (it.each) {
        const [s, e] = sentenceOf(k);
        const takers = namedFirst(
          items
            .slice(s, e + 1)
            .flatMap((x) => (x.type === 'mention' && x.mention.pinBps === undefined && wanted(x.mention) ? [x.mention] : [])),
        );
        for (const m of takers) pin(m, it.bps, it.text);
        continue;
      }
      const after = mentionAt(k, 1);
      const before = mentionAt(k, -1);
      // "Apple 30% Microsoft 30%": a name right before the weight, with another weight after the next name, takes it.
      const adjacentBefore = k > 0 && items[k - 1]!.type === 'mention';
      const target = adjacentBefore && before && after && nextWeightAfter(items, after) ? before : (after ?? before);
      if (target) pin(target, it.bps, it.text);
    } else if (it.type === 'split') {
      const list = it.bps;
      const [s, e] = sentenceOf(k);
      const next = items
        .slice(k + 1, e + 1)
        .flatMap((x) => (x.type === 'mention' && wanted(x.mention) && x.mention.pinBps === undefined ? [x.mention] : []));
      const prev = items
        .slice(s, k)
        .flatMap((x) => (x.type === 'mention' && wanted(x.mention) && x.mention.pinBps === undefined ? [x.mention] : []))
        .slice(-list.length);
      const targets = next.length >= list.length ? next.slice(0, list.length) : prev.length === list.length ? prev : [];
      targets.forEach((m, n) => pin(m, list[n]!, it.text));
    } else if (it.type === 'cue' && it.cue === 'remainder' && weighted > 0) {
      const [s, e] = sentenceOf(k);
      const free = (x: Item) => (x.type === 'mention' && wanted(x.mention) && x.mention.pinBps === undefined ? [x.mention] : []);
      let takers = items.slice(k + 1, e + 1).flatMap(free);
      if (takers.length === 0) takers = items.slice(s, k).flatMap(free).slice(-1);
      for (const m of takers) m.rest = true;
      if (items.slice(s, e + 1).some((x) => x.type === 'cue' && (x.cue === 'split' || x.cue === 'equalWeight' || x.cue === 'each')))
        restEven = true;
    }
  }
  // "sell short Palantir, size it at 30%": a weight bound to no name, in a sentence that shorts or
  // bets against one, sizes that short.
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'weight' || it.negative || it.amount !== undefined || boundWeights.has(it.text) || forecast(k)) continue;
    const [s, e] = sentenceOf(k);
    const shorted = items.slice(s, e + 1).find((x) => x.type === 'mention' && x.mention.polarity === 'bearish' && x.mention.cue) as
      { mention: Mention } | undefined;
    if (shorted) negativeWeights.push(`${shorted.mention.cue} ${shorted.mention.text} … ${it.text}`);
  }
  // Sums of money: the bound sums' shares ("$6k in SPY and $4k in SGOV" is 60/40); an unbound sum is the total when only one is bound.
  const bound = items.flatMap((x, k) => {
    if (x.type !== 'weight' || x.amount === undefined) return [];
    const m = mentionAt(k, 1, (y) => y.pinText === x.text) ?? mentionAt(k, -1, (y) => y.pinText === x.text);
    return m ? [{ m, amount: x.amount }] : [];
  });
  const unbound = items.filter((x) => x.type === 'weight' && x.amount !== undefined).length - bound.length;
  const totalAmount =
    bound.length === 1 && unbound === 1
      ? Math.max(...items.flatMap((x) => (x.type === 'weight' && x.amount !== undefined ? [x.amount] : [])))
      : bound.reduce((s, b) => s + b.amount, 0);
  for (const { m, amount } of bound) {
    if (bound.length < 2 && unbound !== 1) {
      delete m.pinBps;
      delete m.pinText;
    } else m.pinBps = (amount / totalAmount) * 10_000;
  }
  if (equalWeight) {
    const named = items.flatMap((x) =>
      x.type === 'mention' && wanted(x.mention) && !(x.mention as { vague?: boolean }).vague ? [x.mention] : [],
    );
    const distinct = namedFirst(dedupeTargets(named));
    // "every single stock plus SPY and QQQ, equal weight": a list theme is one share per member.
    const shares = (m: Mention) => (m.target.kind === 'theme' && m.target.theme.each ? (m.target.theme.members?.length ?? 1) : 1);
    const totalShares = distinct.reduce((sum, m) => sum + shares(m), 0);
    if (distinct.length > 0 && distinct.every((m) => m.pinBps === undefined && !m.rest)) {
      distinct.forEach((m) => pin(m, (10_000 * shares(m)) / totalShares, 'equal weight'));
    }
  }
  return restEven;
}

/**
 * "an equal-weight basket of the seven biggest tech names: Apple, Microsoft, ...": when two or
 * more assets are named, a theme beside them is their heading, not one more share.
 */
function namedFirst(mentions: Mention[]): Mention[] {
  const assets = mentions.filter((m) => m.target.kind === 'asset');
  if (mentions.some((m) => m.target.kind === 'theme' && m.target.theme.each)) return mentions;
  return assets.length >= 2 ? assets : mentions;
}

function nextWeightAfter(items: readonly Item[], mention: Mention): boolean {
  const k = items.findIndex((x) => x.type === 'mention' && x.mention === mention);
  return items[k + 1]?.type === 'weight';
}

export function targetKey(t: MentionTarget): string {
  return t.kind === 'asset' ? `asset:${t.ticker}` : t.kind === 'theme' ? `theme:${t.theme.id}` : `unfit:${t.label}`;
}

function dedupeTargets(mentions: Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    const key = targetKey(m.target);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "not aggressive" asks for a low risk; a negated low-risk word asks for nothing. */
function negateRiskWords(words: Array<RiskWord & { start: number }>, tokens: readonly Token[]): RiskWord[] {
  const out: RiskWord[] = [];
  for (const w of words) {
    const negated = [w.start - 1, w.start - 2].some((k) => k >= 0 && NEGATORS.has(tokens[k]!.norm));
    if (!negated) out.push({ text: w.text, tolerance: w.tolerance });
    else if (w.tolerance === 'high') out.push({ text: `${tokens[w.start - 1]!.raw} ${w.text}`, tolerance: 'low' });
  }
  return out;
}
