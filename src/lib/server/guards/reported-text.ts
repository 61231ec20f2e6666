/**
 * Text someone else reports (an agent's note after a session, an operator's note on a
 * rebalance) is their word, not the service's. When it reads as an execution claim it is
 * quoted as a claim, sentence by sentence, each marked unconfirmed, so it is never relayed
 * as a fact; the output guard judges each quoted sentence with its marker beside it.
 */
import { findExecutionClaim, splitSentences } from './output-guard';

export interface QuotedReport {
  /** The reporter's sentences, each wrapped as an unconfirmed quotation. */
  quoted: string[];
  /** Whether any sentence claims that something was executed. */
  claimsExecution: boolean;
}

export function quoteReportedText(text: string, reporter: string): QuotedReport {
  const sentences = splitSentences(text.replace(/\s+/g, ' '));
  return {
    quoted: sentences.map((s) => `Unconfirmed, in ${reporter}'s words: "${s}"`),
    claimsExecution: sentences.some((s) => findExecutionClaim(s) !== undefined),
  };
}
