/**
 * Two symbol spaces that never mix: broker tickers (display names in a brokerage, e.g.
 * `NVDA`) and chain addresses (the identity of a token on chain 4663, `0x` + 40 hex). A
 * value of one space where the other is expected is an error, `SYMBOL_SPACE_CONFUSION`,
 * never a conversion: a ticker is never resolved to an address behind the caller's back,
 * and an address is never shown to a broker as a ticker.
 */
import { z } from 'zod';

export const SYMBOL_SPACE_CONFUSION = 'SYMBOL_SPACE_CONFUSION';

/** `0x` followed by hex digits: the chain's address space (full or truncated). */
export function looksLikeChainAddress(value: string): boolean {
  return /^0x[0-9a-f]+$/i.test(value.trim());
}

/** A ticker as a broker writes it: a letter, then letters, digits, dots or dashes; no spaces. */
export const BROKER_TICKER_PATTERN = /^\$?[A-Za-z][A-Za-z0-9.-]{0,15}$/;

/** Letters with an optional `$`, dot or dash (`NVDA`, `$nvda`, `BRK.B`): a broker ticker. */
export function looksLikeBrokerTicker(value: string): boolean {
  const v = value.trim();
  return /^\$?[A-Za-z][A-Za-z.-]{0,9}$/.test(v) && !looksLikeChainAddress(v);
}

const confusion = (message: string) => ({ message, params: { code: SYMBOL_SPACE_CONFUSION } });

/** A broker ticker field: a chain address here is refused with SYMBOL_SPACE_CONFUSION. */
export function brokerTickerField(maxLength: number) {
  return z
    .string()
    .min(1)
    .refine(
      (v) => !looksLikeChainAddress(v),
      confusion('a chain address (0x...) where a broker ticker belongs: the symbol spaces never mix'),
    )
    .max(maxLength);
}

/** A chain address field: a broker ticker here is refused with SYMBOL_SPACE_CONFUSION. */
export function chainAddressField(pattern: RegExp, patternMessage: string) {
  return z
    .string()
    .refine(
      (v) => !looksLikeBrokerTicker(v),
      confusion('a broker ticker where a chain address (0x + 40 hex digits) belongs: the symbol spaces never mix'),
    )
    .regex(pattern, patternMessage);
}
