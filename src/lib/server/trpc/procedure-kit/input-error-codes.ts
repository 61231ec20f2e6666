/** The top-level error codes of invalid input that several families share (SvcMeta.inputErrorCode). */
import type { ErrorIssue } from '../../errors';
import { SYMBOL_SPACE_CONFUSION } from '../../registry/symbol-space';

/** A missing, empty or blank prompt is `PROMPT_REQUIRED`; an over-long one `PROMPT_TOO_LONG`. */
export function promptErrorCode(issue?: ErrorIssue): string {
  return issue?.code === 'TOO_BIG' ? 'PROMPT_TOO_LONG' : 'PROMPT_REQUIRED';
}

/**
 * Tools answer `COIL_SHAPE` for a broken Coil, `RECEIPT_SHAPE` for a broken receipt, and
 * `SYMBOL_SPACE_CONFUSION` when a ticker and a chain address trade places.
 */
export function toolInputErrorCode(path: string, issue?: ErrorIssue): string {
  if (issue?.code === SYMBOL_SPACE_CONFUSION) return SYMBOL_SPACE_CONFUSION;
  if (path === 'coil' || path.startsWith('coil.')) return 'COIL_SHAPE';
  if (path === 'receipt' || path.startsWith('receipt.')) return 'RECEIPT_SHAPE';
  if (path === 'prompt') return promptErrorCode(issue);
  return 'INPUT_INVALID';
}
