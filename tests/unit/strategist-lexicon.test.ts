/**
 * The strategist's words are data (src/lib/server/strategist/lexicon/*.json), checked against
 * their schema when imported: a bad file fails this test and `vite build`. The library under the
 * reader (wink-nlp) is deterministic: the same text, the same tokens and the same reading.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEXICON, parseLexicon } from '../../src/lib/server/strategist/lexicon';
import { loadThesisNlp, readThesisWords, type ThesisNlp } from '../../src/lib/server/strategist';

const DIR = new URL('../../src/lib/server/strategist/lexicon/', import.meta.url);
const file = (name: string) => JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as Record<string, unknown>;
const files = () => ({
  assets: file('assets.json'),
  themes: file('themes.json'),
  noRegistryFit: file('no-registry-fit.json'),
  cues: file('cues.json'),
  risk: file('risk.json'),
  weights: file('weights.json'),
  words: file('words.json'),
});

describe('the lexicon files', () => {
  it('parse against their schema, every registry ticker has an entry', () => {
    expect(() => parseLexicon(files())).not.toThrow();
    expect(Object.keys(LEXICON.assets.assets).sort()).toEqual(
      ['AAPL', 'AMD', 'AMZN', 'COIN', 'GOOGL', 'META', 'MSFT', 'NVDA', 'PLTR', 'QQQ', 'SGOV', 'SLV', 'SPY', 'TSLA', 'USO'].sort(),
    );
  });

  it('refuse a ticker outside the registry, an upper-case or accented phrase, an unknown cue kind, a phrase with two meanings', () => {
    const bad = (edit: (f: ReturnType<typeof files>) => void, message: RegExp) => {
      const f = files();
      edit(f);
      expect(() => parseLexicon(f)).toThrow(message);
    };
    bad((f) => ((f.themes as { themes: Array<{ affinity: Record<string, number> }> }).themes[0]!.affinity.INTC = 3), /INTC|Invalid/);
    bad((f) => (f.assets as { assets: Record<string, { products: string[] }> }).assets.AAPL!.products.push('iPod'), /lower case/);
    bad((f) => (f.risk as { low: string[] }).low.push('sécurité'), /without accents/);
    bad((f) => ((f.cues as { cues: Record<string, string[]> }).cues.sarcasm = ['yeah right']), /sarcasm|Unrecognized/);
    bad((f) => (f.assets as { assets: Record<string, { products: string[] }> }).assets.MSFT!.products.push('iphone'), /"iphone" is both/);
    bad((f) => delete (f.assets as { assets: Record<string, unknown> }).assets.SLV, /SLV/);
  });
});

describe('the library under the reader', () => {
  let nlp: ThesisNlp;
  beforeAll(async () => {
    nlp = await loadThesisNlp();
  }, 60_000);

  it('gives the text back token by token, with sentences, lemmas and negation scope', () => {
    const text = "Dr. Smith doesn't trust Tesla. Nvidia tanked, U.S. stocks rallied.\n-30% TSLA";
    const tokens = nlp.tokens(text);
    expect(tokens.map((t) => t.space + t.value).join('')).toBe(text);
    expect(tokens.find((t) => t.value === 'Tesla')!.negated).toBe(true);
    expect(tokens.find((t) => t.value === 'Nvidia')!.negated).toBe(false);
    expect(tokens.find((t) => t.value === 'tanked')!.lemma).toBe('tank');
    expect(tokens.find((t) => t.value === 'Nvidia')!.sentence).toBe(1);
    expect(tokens.find((t) => t.value === '-30')!.type).toBe('number');
  });

  it('is deterministic: the same thesis read twice gives the same words', () => {
    const thesis = "I'd never touch oil; sell Apple, put it into Microsoft, a third each in AMD and Nvidia, not Tesla";
    expect(JSON.stringify(readThesisWords(thesis, nlp))).toBe(JSON.stringify(readThesisWords(thesis, nlp)));
    expect(JSON.stringify(nlp.tokens(thesis))).toBe(JSON.stringify(nlp.tokens(thesis)));
  });
});
