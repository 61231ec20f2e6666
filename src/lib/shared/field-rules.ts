/**
 * The field rules the pages apply while a person types: an amount of USDG, an address, a
 * 32-byte hash. Each rule answers null when the text reads, else what to write instead in plain
 * words, with the service's own code as detail (the same code the service answers when it
 * refuses the value, so the page and the API never disagree on what is wrong). The service
 * checks again; these only speak first.
 *
 * USDG parsing is the service's one conversion (`$lib/shared/usdg`); `parseUsdg` adds the words.
 */
import * as usdg from './usdg';

export interface FieldProblem {
  /** What to write instead, in plain words. */
  words: string;
  /** The service's code for the same refusal, shown as detail. */
  code: string;
}

export { USDG_DECIMALS } from './usdg';
const UNIT = 10n ** BigInt(usdg.USDG_DECIMALS);

export type ParsedUsdg = { ok: true; units: bigint } | { ok: false; code: string; words: string };

/**
 * A decimal USDG amount as 6-decimal integer units, through the service's one conversion
 * (`$lib/shared/usdg`), with the words a person reads and the service's codes:
 * AMOUNT_MALFORMED, AMOUNT_NOT_POSITIVE, AMOUNT_TOO_MANY_DECIMALS.
 */
export function parseUsdg(text: string): ParsedUsdg {
  const parsed = usdg.parse(text.trim());
  if (!parsed.ok && parsed.reason === 'MALFORMED')
    return { ok: false, code: 'AMOUNT_MALFORMED', words: 'Write the amount in digits, with a point for decimals, e.g. 25 or 12.5.' };
  if (!parsed.ok)
    return {
      ok: false,
      code: 'AMOUNT_TOO_MANY_DECIMALS',
      words: `USDG has ${usdg.USDG_DECIMALS} decimals: write at most ${usdg.USDG_DECIMALS} digits after the point (nothing is rounded for you).`,
    };
  if (parsed.units <= 0n) return { ok: false, code: 'AMOUNT_NOT_POSITIVE', words: 'The amount must be above zero.' };
  return parsed;
}

/** 6-decimal units as the shortest decimal string ("12500000" → "12.5"). */
export const usdgText = (units: bigint): string => usdg.format(units);

/**
 * An amount of USDG. An empty field says nothing yet (the form stays closed instead);
 * `max` is a cap the service enforces (the deposit pack's 10,000 USDG), refused, never clamped.
 */
export function usdgAmountRule(text: string, options: { max?: { units: bigint; code: string; what: string } } = {}): FieldProblem | null {
  if (!text.trim()) return null;
  const parsed = parseUsdg(text);
  if (!parsed.ok) return { words: parsed.words, code: parsed.code };
  if (options.max && parsed.units > options.max.units)
    return { words: `${options.max.what} at most ${usdgText(options.max.units)} USDG: lower the amount.`, code: options.max.code };
  return null;
}

/** The deposit pack's cap (docs/vaults.md "Pack rules"), as the service states it. */
export const PACK_MAX = { units: 10_000n * UNIT, code: 'AMOUNT_ABOVE_PACK_MAX', what: 'A deposit carries' } as const;

/** An address on chain 4663: 0x and 40 hex digits. Empty says nothing yet. `code`: the route's own code for it. */
export function addressRule(text: string, code = 'ADDRESS_MALFORMED'): FieldProblem | null {
  const t = text.trim();
  if (!t) return null;
  if (/^0x[0-9a-fA-F]{40}$/.test(t)) return null;
  const words = /^0x[0-9a-fA-F]*$/.test(t)
    ? `An address is 0x and 40 hex digits; this one has ${t.length - 2}. Copy it again from your wallet.`
    : 'An address is 0x and 40 hex digits (0-9, a-f), e.g. 0x70997970C51812dc3A010C7d01b50e0d17dc79C8.';
  return { words, code };
}

/**
 * A 32-byte hash: a transaction hash (0x and 64 hex digits, code TX_HASH_MALFORMED) or, with
 * `plain`, a plan hash (64 hex digits, no 0x). Empty says nothing yet.
 */
export function hashRule(text: string, options: { what?: string; code?: string; plain?: boolean } = {}): FieldProblem | null {
  const { what = 'A transaction hash', code = 'TX_HASH_MALFORMED', plain = false } = options;
  const t = text.trim();
  if (!t) return null;
  const body = plain ? t : t.replace(/^0x/, '');
  if ((plain || t.startsWith('0x')) && /^[0-9a-fA-F]{64}$/.test(body)) return null;
  const shape = plain ? '64 hex digits, without 0x' : '0x and 64 hex digits';
  const words =
    /^[0-9a-fA-F]*$/.test(body) && (plain || t.startsWith('0x'))
      ? `${what} is ${shape}; this one has ${body.length}. Copy it again in full.`
      : `${what} is ${shape} (0-9, a-f).`;
  return { words, code };
}
