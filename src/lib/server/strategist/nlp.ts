/**
 * The natural-language library the thesis reader stands on: wink-nlp with its English lite
 * model (wink-eng-lite-web-model). It does the tokenising (contractions, numbers such as "-30",
 * "60/40" or "1,500", abbreviations such as "U.S." or "Dr."), the sentence splitting, the part
 * of speech and lemma of each English word ("tanks", "tanked" and "tanking" are all "tank"), and
 * the scope of a grammatical negation ("I don't trust the CEO of Tesla": every word after
 * "n't" up to the clause's end is negated). What the words mean for a basket (names, themes,
 * cues of selling, doubt, preference, weights) is the project's own data, in lexicon/.
 *
 * Why this library (measured on this machine, Node 20.20, 2 cores under a load average of
 * about 12, December 2026; scripts in docs/coil-tooling.md#why-wink-nlp):
 *
 * | | wink-nlp 2.4 + wink-eng-lite-web-model 1.8 | compromise 14.17 |
 * |---|---|---|
 * | installs from npm on Node 20 | yes, no dependency of its own | yes (3 small dependencies) |
 * | size on disk | 0.8 MB + 3.8 MB model | 4.7 MB |
 * | load (import + instantiate) | 0.5 to 1.5 s, about 60 MB | 1.4 to 3.9 s |
 * | time per thesis, p50 / p95 | 0.14 / 0.5 ms (2000 characters: 1.7 ms) | 14 / 75 ms (2000 characters: 141 ms) |
 * | deterministic (same text, same output) | yes | not byte for byte (its JSON differed between two runs) |
 * | negation scope | yes (`its.negationFlag`) | only a `#Negative` tag on "not"/"never" |
 *
 * compromise misses the 5 ms budget per thesis by a factor of three at the median; wink-nlp
 * is under a millisecond and marks negation scope itself. Its load is the price: the model is
 * imported on the first thesis read (a dynamic import, so a service that never reads a thesis
 * never pays it, and the start-up of the server, the MCP server and the CLI is unchanged).
 *
 * Deterministic: the model is a fixed table and the library has no randomness, clock or I/O
 * (tests/unit/strategist-nlp.test.ts reads the same theses twice and compares).
 */
import type { WinkMethods } from 'wink-nlp';

export interface NlpToken {
  /** As written. */
  value: string;
  /** wink's type: word, number, punctuation, symbol, currency, tabCRLF, emoji, url, ... */
  type: string;
  /** The whitespace before the token, as written. */
  space: string;
  /** Universal part of speech (English; noise on other languages). */
  pos: string;
  /** The lemma (English). */
  lemma: string;
  /** Inside the scope of a grammatical negation. */
  negated: boolean;
  /** The index of its sentence. */
  sentence: number;
}

export interface ThesisNlp {
  /** The tokens of a text, in order; their values and spaces put together give the text back. */
  tokens(text: string): NlpToken[];
}

let loading: Promise<ThesisNlp> | undefined;
let loaded: ThesisNlp | undefined;

function wrap(nlp: WinkMethods): ThesisNlp {
  const its = nlp.its;
  return {
    tokens(text) {
      const doc = nlp.readDoc(text);
      const tokens = doc.tokens();
      const values = tokens.out(its.value) as string[];
      const types = tokens.out(its.type) as string[];
      const spaces = tokens.out(its.precedingSpaces) as string[];
      const pos = tokens.out(its.pos) as string[];
      const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
      const negated = tokens.out(its.negationFlag) as unknown as boolean[];
      const sentenceOf = new Array<number>(values.length).fill(0);
      const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>;
      spans.forEach(([start, end], s) => {
        for (let i = start; i <= end; i++) sentenceOf[i] = s;
      });
      return values.map((value, i) => ({
        value,
        type: types[i]!,
        space: spaces[i]!,
        pos: pos[i]!,
        lemma: lemmas[i]!,
        negated: Boolean(negated[i]),
        sentence: sentenceOf[i]!,
      }));
    },
  };
}

/** Loads the library and its model once (the first call pays it; every later call is free). */
export function loadThesisNlp(): Promise<ThesisNlp> {
  loading ??= Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model')]).then(([wink, model]) => {
    const winkNLP = (wink as unknown as { default: typeof wink.default }).default ?? wink;
    loaded = wrap(winkNLP(model.default ?? model, ['sbd', 'negation', 'pos']));
    return loaded;
  });
  return loading;
}

/** The library when it is loaded; callers that cannot wait await `loadThesisNlp()` first. */
export function thesisNlp(): ThesisNlp {
  if (!loaded) throw new Error('the thesis reader is not loaded: await loadThesisNlp() first');
  return loaded;
}
