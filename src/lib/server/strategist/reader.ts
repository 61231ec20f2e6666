/**
 * Reads a thesis the way a person means it: what it names (tickers, companies, products,
 * themes, themes no registry asset fits), which of those it wants and which it excludes or is
 * bearish on, the scope words ("only", "mostly", "a little"), the weights it pins ("20% in
 * silver", "60/40", "25% each", "equal weight"), its risk words, and the words it did not
 * understand.
 *
 * Why a hand-written reader and not an NLP library: the registry holds 15 assets, so the
 * vocabulary that matters is small and closed, and what the reader must get right (a
 * negation's scope, a bearish predicate, a weight's target) is a handful of rules a reviewer
 * can read next to the lexicon (themes.ts, cues.ts). A general tagger or parser would add
 * megabytes and still need these rules and this lexicon on top; it would also be harder to
 * keep deterministic and under a millisecond. The rules and their limits are in
 * docs/coil-tooling.md#how-a-thesis-is-read.
 *
 * Pure and deterministic: no clock, no randomness, no I/O.
 */
import { STOCK_TOKENS } from '../registry';
import {
  CUES,
  FRACTIONS,
  NEGATORS,
  RISK_WORDS,
  STOPWORDS,
  BIND_FILLERS,
  ONLY_FILLERS,
  LIST_GLUE,
  NOT_MISSPELLINGS,
  type CueKind,
} from './cues';
import { COMPANY_ALIASES, LOWERCASE_TICKERS, NO_REGISTRY_FIT, THEMES, type Theme } from './themes';
import type { RiskTolerance } from './types';

export type Polarity = 'include' | 'exclude' | 'bearish';
export type Scope = 'only' | 'mostly' | 'a little';

export type MentionTarget =
  | { kind: 'asset'; ticker: string; via: 'ticker' | 'company' | 'product' }
  | { kind: 'theme'; theme: Theme }
  | { kind: 'unfit'; label: string };

export interface Mention {
  target: MentionTarget;
  /** The words as written in the thesis. */
  text: string;
  /** The lexicon word a misspelling was read as ("telsa" → "tesla"). */
  readAs?: string;
  polarity: Polarity;
  /** The words that made it excluded or bearish. */
  cue?: string;
  scope?: Scope;
  /** A weight the thesis pinned on it, in bps, and the words that pinned it. */
  pinBps?: number;
  pinText?: string;
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
  /** Bullish words (stance only: a holding is already long). */
  bullishWords: number;
  notUnderstood: string[];
}

// ---------------------------------------------------------------------------------------------
// Tokens

interface Token {
  /** As written (apostrophes straightened). */
  raw: string;
  /** Lower case, no accents, no apostrophes. */
  norm: string;
  kind: 'word' | 'number' | 'punct';
  value?: number;
  startChar: number;
  endChar: number;
  /** A hyphen joins it to the previous token ("ex-energy", "50-50"). */
  hyphenBefore: boolean;
  /** A line break or nothing at all stands between it and the previous token. */
  newlineBefore: boolean;
  adjacentBefore: boolean;
}

const TOKEN_RE = /\$?[\p{L}\p{N}]+(?:[&'.][\p{L}\p{N}]+)*|[%,;:.!?()/+=@&-]/gu;
const ELISION = /^(l|d|j|qu|n|s|c|m|t)'(.{2,})$/;
const POSSESSIVE = /^(.{2,})'s$/;
const NUMBER = /^\d+(?:\.\d+)?$/;

export function normalizeWord(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/'/g, '');
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let hyphen = false;
  let lastEnd = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    const raw = m[0];
    const at = m.index;
    const gap = text.slice(lastEnd, at);
    lastEnd = at + raw.length;
    if (raw === '-') {
      hyphen = gap === '';
      continue;
    }
    const base = {
      hyphenBefore: hyphen && gap === '',
      newlineBefore: gap.includes('\n'),
      adjacentBefore: gap === '',
    };
    hyphen = false;
    const lower = raw.toLowerCase();
    const elided = ELISION.exec(lower);
    if (elided && !raw.startsWith('$')) {
      const cut = elided[1]!.length + 1;
      tokens.push({ raw: raw.slice(0, cut), norm: normalizeWord(elided[1]!), kind: 'word', startChar: at, endChar: at + cut, ...base });
      tokens.push({
        raw: raw.slice(cut),
        norm: normalizeWord(elided[2]!),
        kind: 'word',
        startChar: at + cut,
        endChar: at + raw.length,
        hyphenBefore: false,
        newlineBefore: false,
        adjacentBefore: true,
      });
      continue;
    }
    const possessive = POSSESSIVE.exec(lower);
    const word = possessive ? raw.slice(0, -2) : raw;
    if (/^[%,;:.!?()/+=@&]$/.test(raw)) {
      tokens.push({ raw, norm: raw, kind: 'punct', startChar: at, endChar: at + raw.length, ...base });
    } else if (NUMBER.test(raw)) {
      tokens.push({ raw, norm: raw, kind: 'number', value: Number(raw), startChar: at, endChar: at + raw.length, ...base });
    } else {
      tokens.push({ raw: word, norm: normalizeWord(word), kind: 'word', startChar: at, endChar: at + word.length, ...base });
    }
  }
  return mergeNumbers(tokens);
}

/** "12,5 %" is a decimal and "1,500" a thousand: a comma between digits with no space. */
function mergeNumbers(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const comma = tokens[i + 1];
    const next = tokens[i + 2];
    if (t.kind === 'number' && comma?.raw === ',' && comma.adjacentBefore && next?.kind === 'number' && next.adjacentBefore) {
      const value = next.raw.length === 3 ? Number(`${t.raw}${next.raw}`) : Number(`${t.raw}.${next.raw}`);
      out.push({ ...t, raw: `${t.raw},${next.raw}`, norm: String(value), value, endChar: next.endChar });
      i += 2;
      continue;
    }
    out.push(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The lexicon, compiled once

type Effect =
  | { type: 'mention'; target: MentionTarget; lexiconWord: string }
  | { type: 'risk'; tolerance: RiskTolerance }
  | { type: 'cue'; cue: CueKind }
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

  add(phrase: string, effect: Effect): void {
    const prefix = phrase.endsWith('*');
    const words = tokenize(prefix ? phrase.slice(0, -1) : phrase).map((t) => t.norm);
    if (words.length === 0) return;
    const entry = { words, prefix, effect };
    if (prefix) {
      this.prefixes.push(entry);
      return;
    }
    const list = this.exact.get(words[0]!) ?? [];
    // The first entry of a phrase wins: assets are added before themes, themes before no-fit themes.
    if (list.some((e) => e.words.join(' ') === words.join(' '))) return;
    list.push(entry);
    list.sort((a, b) => b.words.length - a.words.length);
    this.exact.set(words[0]!, list);
  }

  /** The longest entry that matches at `i`, and how many tokens it covers. */
  match(tokens: readonly Token[], i: number, usable: (j: number) => boolean): { entry: Entry; length: number } | undefined {
    const first = tokens[i];
    if (!first) return undefined;
    for (const form of wordForms(first.norm)) {
      for (const entry of this.exact.get(form) ?? []) {
        const n = entry.words.length;
        if (n > 1 && form !== first.norm) continue; // plurals only for single words
        let ok = true;
        for (let k = 1; k < n; k++) {
          const t = tokens[i + k];
          if (!t || !usable(i + k) || t.norm !== entry.words[k] || t.newlineBefore) {
            ok = false;
            break;
          }
        }
        if (ok) return { entry, length: n };
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

function wordForms(norm: string): string[] {
  const forms = [norm];
  if (norm.length > 4 && norm.endsWith('ies')) forms.push(`${norm.slice(0, -3)}y`);
  if (norm.length > 4 && norm.endsWith('es')) forms.push(norm.slice(0, -2));
  if (norm.length > 3 && norm.endsWith('s')) forms.push(norm.slice(0, -1));
  return forms;
}

const TICKERS = STOCK_TOKENS.map((t) => t.ticker);
const TICKER_SET = new Set(TICKERS);
const LOWER_TICKERS = new Map(LOWERCASE_TICKERS.map((t) => [t.toLowerCase(), t]));

const MENTIONS = new Lexicon();
for (const [ticker, { companies, products }] of Object.entries(COMPANY_ALIASES)) {
  for (const c of companies) MENTIONS.add(c, { type: 'mention', target: { kind: 'asset', ticker, via: 'company' }, lexiconWord: c });
  for (const p of products) MENTIONS.add(p, { type: 'mention', target: { kind: 'asset', ticker, via: 'product' }, lexiconWord: p });
}
for (const theme of THEMES)
  for (const k of theme.keywords) MENTIONS.add(k, { type: 'mention', target: { kind: 'theme', theme }, lexiconWord: k });
for (const [label, words] of Object.entries(NO_REGISTRY_FIT))
  for (const w of words) MENTIONS.add(w, { type: 'mention', target: { kind: 'unfit', label }, lexiconWord: w });

const RISK = new Lexicon();
for (const [tolerance, words] of Object.entries(RISK_WORDS) as Array<[RiskTolerance, readonly string[]]>)
  for (const w of words) RISK.add(w, { type: 'risk', tolerance });

const CUE_LEXICON = new Lexicon();
for (const [cue, words] of Object.entries(CUES) as Array<[CueKind, readonly string[]]>)
  for (const w of words) CUE_LEXICON.add(w, { type: 'cue', cue });
for (const [w, bps] of Object.entries(FRACTIONS)) CUE_LEXICON.add(w, { type: 'fraction', bps });

/**
 * Misspellings: a word the lexicon does not know is read as a lexicon word one edit away
 * (a letter added, dropped, changed, or two swapped), with the same first letter. Only names, themes and risk
 * words of five letters or more are candidates (four-letter typos count for company names
 * only), and real words one edit from them ("apply") never are.
 */
interface FuzzyTarget {
  word: string;
  effect: Effect;
  companyOnly: boolean;
}
const FUZZY_BY_LETTER = new Map<string, FuzzyTarget[]>();
for (const { word, effect } of [...MENTIONS.singleWords(5), ...RISK.singleWords(7)]) {
  if (effect.type === 'mention' && effect.target.kind === 'theme' && effect.target.theme.pinnedOnly) continue;
  const list = FUZZY_BY_LETTER.get(word[0]!) ?? [];
  list.push({ word, effect, companyOnly: effect.type === 'mention' && effect.target.kind === 'asset' && effect.target.via === 'company' });
  FUZZY_BY_LETTER.set(word[0]!, list);
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

function misspelling(norm: string): FuzzyTarget | undefined {
  if (norm.length < 4 || !/^[a-z]+$/.test(norm) || STOPWORDS.has(norm) || NOT_MISSPELLINGS.has(norm)) return undefined;
  const max = 1;
  let found: FuzzyTarget | undefined;
  let foundDistance = max + 1;
  for (const target of FUZZY_BY_LETTER.get(norm[0]!) ?? []) {
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

type Item =
  | { type: 'mention'; mention: Mention & { pinnedOnly?: boolean }; start: number }
  | { type: 'cue'; cue: CueKind; text: string; start: number; end: number }
  | { type: 'weight'; bps: number; text: string; start: number; end: number; each: boolean }
  | { type: 'split'; bps: number[]; text: string; start: number; end: number }
  | { type: 'punct'; norm: string; start: number; hard: boolean }
  | { type: 'word'; norm: string; start: number };

const HARD_PUNCT = new Set(['.', ';', '!', '?']);

/** Reads the words of a thesis. Pure and deterministic. */
export function readThesisWords(thesis: string): ThesisWords {
  const text = thesis.normalize('NFKC').replace(/[\u2018\u2019\u02bc]/g, "'");
  const tokens = tokenize(text);
  const owner = new Array<string | undefined>(tokens.length).fill(undefined);
  const free = (j: number) => owner[j] === undefined;
  const slice = (start: number, end: number) => text.slice(tokens[start]!.startChar, tokens[end - 1]!.endChar);

  const mentions: Array<Mention & { pinnedOnly?: boolean }> = [];
  const addMention = (target: MentionTarget, start: number, end: number, readAs?: string) => {
    for (let k = start; k < end; k++) owner[k] = 'mention';
    const pinnedOnly = target.kind === 'theme' && target.theme.pinnedOnly;
    mentions.push({
      target,
      text: slice(start, end),
      start,
      end,
      polarity: 'include',
      ...(readAs ? { readAs } : {}),
      ...(pinnedOnly ? { pinnedOnly } : {}),
    });
  };

  // 1. Names, themes and themes no asset fits: tickers first, then the longest lexicon phrase.
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
    // "Meta" with a capital is the company; "meta" in prose is not.
    if (t.raw === 'Meta') {
      addMention({ kind: 'asset', ticker: 'META', via: 'company' }, i, i + 1);
      continue;
    }
    const hit = MENTIONS.match(tokens, i, free);
    if (hit && hit.entry.effect.type === 'mention') {
      addMention(hit.entry.effect.target, i, i + hit.length);
      i += hit.length - 1;
    }
  }

  // 2. Risk words.
  const riskWords: Array<RiskWord & { start: number }> = [];
  // A phrase may be a theme and a risk word at once ("cash-like"): risk words read every token.
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind === 'punct') continue;
    // "too risky" says something about the asset before it (a bearish predicate: leave it
    // out), not how much risk the person wants: the cue pass reads it.
    const predicate = CUE_LEXICON.match(tokens, i, () => true);
    if (predicate && predicate.entry.effect.type === 'cue' && predicate.entry.effect.cue === 'bearishPredicate') {
      i += predicate.length - 1;
      continue;
    }
    const hit = RISK.match(tokens, i, () => true);
    if (hit && hit.entry.effect.type === 'risk') {
      for (let k = i; k < i + hit.length; k++) owner[k] ??= 'risk';
      riskWords.push({ text: slice(i, i + hit.length), tolerance: hit.entry.effect.tolerance, start: i });
      i += hit.length - 1;
    }
  }

  // 3. Cues and weights. A line break ends a sentence.
  const items: Item[] = [];
  tokens.forEach((t, i) => t.newlineBefore && items.push({ type: 'punct', norm: '\n', start: i - 0.5, hard: true }));
  for (let i = 0; i < tokens.length; i++) {
    if (!free(i)) continue;
    const t = tokens[i]!;
    if (t.kind === 'punct') {
      if (t.raw === '%') continue; // read with its number
      items.push({ type: 'punct', norm: t.raw, start: i, hard: HARD_PUNCT.has(t.raw) });
      continue;
    }
    if (t.kind === 'number') {
      const weight = readWeight(tokens, i);
      if (weight) {
        for (let k = i; k < weight.end; k++) owner[k] = 'weight';
        const weightText = slice(i, weight.end);
        items.push(
          weight.type === 'split' ? { ...weight, start: i, text: weightText } : { ...weight, start: i, text: weightText, each: false },
        );
        i = weight.end - 1;
      }
      continue;
    }
    // "ex-energy": a prefix that excludes the word it is joined to.
    if (t.norm === 'ex' && tokens[i + 1]?.hyphenBefore) {
      owner[i] = 'cue';
      items.push({ type: 'cue', cue: 'exclude', text: `${t.raw}-`, start: i, end: i + 1 });
      continue;
    }
    const hit = CUE_LEXICON.match(tokens, i, free);
    if (hit) {
      for (let k = i; k < i + hit.length; k++) owner[k] = 'cue';
      const end = i + hit.length;
      if (hit.entry.effect.type === 'fraction')
        items.push({ type: 'weight', bps: hit.entry.effect.bps, text: slice(i, end), start: i, end, each: false });
      else if (hit.entry.effect.type === 'cue') items.push({ type: 'cue', cue: hit.entry.effect.cue, text: slice(i, end), start: i, end });
      i = end - 1;
      continue;
    }
    // 4. A word nothing else matched may be a misspelt name, theme or risk word.
    const typo = misspelling(t.norm);
    if (typo?.effect.type === 'mention') {
      addMention(typo.effect.target, i, i + 1, typo.word);
      continue;
    }
    if (typo?.effect.type === 'risk') {
      owner[i] = 'risk';
      riskWords.push({ text: t.raw, tolerance: typo.effect.tolerance, start: i });
      continue;
    }
    items.push({ type: 'word', norm: t.norm, start: i });
  }
  for (const m of mentions) items.push({ type: 'mention', mention: m, start: m.start });
  items.sort((a, b) => a.start - b.start);
  // "each" belongs to the weight just before it.
  for (let k = 1; k < items.length; k++) {
    const it = items[k]!;
    const prev = items[k - 1]!;
    if (it.type === 'cue' && it.cue === 'each' && prev.type === 'weight') prev.each = true;
  }

  cancelNegatedCues(items, tokens);
  applyScopes(items);
  applyPredicates(items);
  const equalWeight = items.some((it) => it.type === 'cue' && it.cue === 'equalWeight');
  bindWeights(items, equalWeight);

  const kept = mentions.filter((m) => !m.pinnedOnly || m.pinBps !== undefined).sort((a, b) => a.start - b.start);
  const seen = new Set<string>();
  const notUnderstood: string[] = [];
  for (const it of items) {
    if (it.type !== 'word' || STOPWORDS.has(it.norm) || it.norm.length < 2 || seen.has(it.norm)) continue;
    if (mentions.some((m) => m.pinnedOnly && m.start === it.start)) continue;
    seen.add(it.norm);
    notUnderstood.push(tokens[it.start]!.raw);
  }
  return {
    mentions: kept.map(({ pinnedOnly: _p, ...m }) => m),
    riskWords: negateRiskWords(riskWords, tokens),
    equalWeight,
    bullishWords: items.filter((it) => it.type === 'cue' && it.cue === 'bullishPredicate').length,
    notUnderstood,
  };
}

/** A number and what follows it: "25%", "25 percent", "1500 bps", "60/40", "50-50". */
function readWeight(
  tokens: readonly Token[],
  i: number,
): { type: 'weight'; bps: number; end: number } | { type: 'split'; bps: number[]; end: number } | undefined {
  const t = tokens[i]!;
  // A split: 60/40, 70/30, 40/30/30, 50-50.
  const parts = [t.value!];
  let j = i + 1;
  for (;;) {
    if (tokens[j]?.raw === '/' && tokens[j + 1]?.kind === 'number') j++;
    else if (!(tokens[j]?.kind === 'number' && tokens[j]!.hyphenBefore && parts.length === 1)) break;
    parts.push(tokens[j]!.value!);
    j++;
  }
  if (parts.length > 1) {
    const sum = parts.reduce((s, p) => s + p, 0);
    if (!parts.every((p) => p > 0) || sum < 99 || sum > 101) return undefined;
    if (tokens[j]?.raw === '%') j++;
    return { type: 'split', bps: parts.map((p) => Math.round(p * 100)), end: j };
  }
  if (tokens[i + 1]?.raw === '%') return { type: 'weight', bps: Math.round(t.value! * 100), end: i + 2 };
  const hit = CUE_LEXICON.match(tokens, i + 1, () => true);
  if (hit?.entry.effect.type !== 'cue') return undefined;
  if (hit.entry.effect.cue === 'percent') return { type: 'weight', bps: Math.round(t.value! * 100), end: i + 1 + hit.length };
  if (hit.entry.effect.cue === 'bps') return { type: 'weight', bps: Math.round(t.value!), end: i + 1 + hit.length };
  return undefined;
}

/** "not overvalued", "won't crash", "not bearish on": the negator and the cue cancel out. */
function cancelNegatedCues(items: Item[], tokens: readonly Token[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || (it.cue !== 'bearishPredicate' && it.cue !== 'bearish')) continue;
    for (let b = k - 1; b >= 0 && it.start - items[b]!.start <= 3; b--) {
      const before = items[b]!;
      if (before.type === 'punct' || before.type === 'mention') break;
      const norm = before.type === 'word' ? before.norm : before.type === 'cue' ? tokens[before.start]!.norm : '';
      if (NEGATORS.has(norm)) {
        items[b] = { type: 'word', norm: 'not', start: before.start };
        items[k] = { type: 'cue', cue: 'notACue', text: it.text, start: it.start, end: it.end };
        break;
      }
    }
  }
}

/**
 * Forward scopes. An exclusion or a bearish word covers what follows it up to the end of the
 * clause (".", ";", "but", "because", or a positive word such as "buy"), across a list joined
 * by commas and "and" ("avoid Tesla, Meta and Amazon"); a comma that is not followed by
 * another item of the list ends it. "only", "mostly" and "a little" cover the names right after
 * them ("only buy Tesla", "a little silver"), across a list.
 */
function applyScopes(items: Item[]): void {
  let forward: { polarity: 'exclude' | 'bearish'; cue: string; single: boolean } | undefined;
  let scope: Scope | undefined;
  let listOnly = true;
  const nextIsMention = (k: number) => {
    for (let n = k + 1; n < items.length; n++) {
      const it = items[n]!;
      if (it.type === 'word' && LIST_GLUE.has(it.norm)) continue;
      return it.type === 'mention';
    }
    return false;
  };
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    switch (it.type) {
      case 'punct':
        if (it.hard) {
          forward = undefined;
          scope = undefined;
        } else if (it.norm === ',' && !(listOnly && nextIsMention(k))) {
          forward = undefined;
          scope = undefined;
        }
        break;
      case 'cue':
        switch (it.cue) {
          case 'exclude':
          case 'bearish':
            forward = { polarity: it.cue, cue: it.text, single: it.text.endsWith('-') };
            scope = undefined;
            listOnly = true;
            break;
          case 'include':
            forward = undefined;
            break;
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
          case 'scopeEnd':
            forward = undefined;
            scope = undefined;
            break;
          default:
            break;
        }
        break;
      case 'mention': {
        const m = it.mention;
        if (forward) {
          m.polarity = forward.polarity;
          m.cue = forward.cue;
          if (forward.single) forward = undefined;
        }
        if (scope) m.scope = scope;
        break;
      }
      case 'word':
        if (!LIST_GLUE.has(it.norm)) listOnly = false;
        if (scope && !ONLY_FILLERS.has(it.norm) && !LIST_GLUE.has(it.norm)) scope = undefined;
        break;
      default:
        break;
    }
  }
}

/**
 * Bearish predicates ("is overvalued", "will crash", "is a bubble") apply to what their clause
 * names before them, else to what it names after them; a clause ends at punctuation, "but" or
 * "because".
 */
function applyPredicates(items: Item[]): void {
  const boundary = (it: Item) => it.type === 'punct' || (it.type === 'cue' && (it.cue === 'contrast' || it.cue === 'scopeEnd'));
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type !== 'cue' || it.cue !== 'bearishPredicate') continue;
    const before: Mention[] = [];
    for (let b = k - 1; b >= 0 && !boundary(items[b]!); b--) {
      const x = items[b]!;
      if (x.type === 'mention') before.push(x.mention);
    }
    const after: Mention[] = [];
    if (before.length === 0) {
      for (let a = k + 1; a < items.length && !boundary(items[a]!); a++) {
        const x = items[a]!;
        if (x.type === 'mention') after.push(x.mention);
      }
    }
    for (const m of before.length ? before : after) {
      if (m.polarity !== 'include') continue;
      m.polarity = 'bearish';
      m.cue = it.text;
    }
  }
}

/**
 * Weights: a percentage, a fraction or a number of bps weighs the name right after it ("20% in
 * silver", "half in SGOV"), else the one right before it ("Tesla 30%"); with "each" it weighs
 * every wanted name of its sentence; a split ("60/40") weighs the next names in order (else
 * the previous ones); "equal weight" gives every wanted name the same share. A weight of 0
 * excludes ("0% crypto").
 */
function bindWeights(items: Item[], equalWeight: boolean): void {
  const wanted = (m: Mention) => m.polarity === 'include' && m.target.kind !== 'unfit';
  const sentenceOf = (k: number): [number, number] => {
    let s = k;
    while (s > 0 && !(items[s - 1]!.type === 'punct' && (items[s - 1] as { hard: boolean }).hard)) s--;
    let e = k;
    while (e < items.length - 1 && !(items[e + 1]!.type === 'punct' && (items[e + 1] as { hard: boolean }).hard)) e++;
    return [s, e];
  };
  const fillerItem = (it: Item) =>
    (it.type === 'word' && BIND_FILLERS.has(it.norm)) ||
    (it.type === 'punct' && BIND_FILLERS.has(it.norm)) ||
    (it.type === 'cue' && (it.cue === 'include' || it.cue === 'each'));
  const pin = (m: Mention, bps: number, text: string) => {
    m.pinBps = bps;
    m.pinText = text;
    if (bps === 0) {
      m.polarity = 'exclude';
      m.cue = text;
    }
  };
  const mentionAt = (k: number, step: 1 | -1): Mention | undefined => {
    for (let n = k + step; n >= 0 && n < items.length; n += step) {
      const it = items[n]!;
      if (it.type === 'mention') return it.mention.pinBps === undefined && wanted(it.mention) ? it.mention : undefined;
      if (!fillerItem(it)) return undefined;
    }
    return undefined;
  };
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.type === 'weight') {
      if (it.each) {
        const [s, e] = sentenceOf(k);
        for (let n = s; n <= e; n++) {
          const x = items[n]!;
          if (x.type === 'mention' && x.mention.pinBps === undefined && wanted(x.mention)) pin(x.mention, it.bps, it.text);
        }
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
    }
  }
  if (equalWeight) {
    const named = items.flatMap((x) =>
      x.type === 'mention' && wanted(x.mention) && !(x.mention as { pinnedOnly?: boolean }).pinnedOnly ? [x.mention] : [],
    );
    const distinct = dedupeTargets(named);
    if (distinct.length > 0 && distinct.every((m) => m.pinBps === undefined)) {
      const base = Math.floor(10_000 / distinct.length);
      distinct.forEach((m, n) => pin(m, base + (n < 10_000 - base * distinct.length ? 1 : 0), 'equal weight'));
    }
  }
}

function nextWeightAfter(items: readonly Item[], mention: Mention): boolean {
  const k = items.findIndex((x) => x.type === 'mention' && x.mention === mention);
  return items[k + 1]?.type === 'weight';
}

function targetKey(t: MentionTarget): string {
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

export { targetKey };
