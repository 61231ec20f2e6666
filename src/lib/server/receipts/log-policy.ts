/**
 * Which stored receipts are appended to the receipt log (issue 34 item 2,
 * docs/trust-model.md#what-is-kept-and-what-is-logged). Every receipt a tool issues is signed
 * and stored, for lineage and provenance; the log, which can never be pruned, holds only the
 * receipts someone asked to keep:
 *
 *   generated_coil    a Coil the strategist generated (generate-coil, POST /api/agent/svc)
 *   explicit_receipt  POST /api/tools/receipt and its MCP tool svc_create_receipt
 *   wallet_save       any receipt saved under a wallet (a call with a SIWE session, a claim)
 *
 * Everything else (an anonymous validate, score, drift check, risk audit, capsule, share card,
 * broker path) is `not_requested`: stored, signed, and not logged. The caller can still log
 * such a receipt by asking for it explicitly (POST /api/tools/receipt with the same Coil, kind
 * and nowIso gives the same receipt and the same row).
 */
export type LogReason = 'generated_coil' | 'explicit_receipt' | 'wallet_save' | 'not_requested';
export const LOG_REASONS = ['generated_coil', 'explicit_receipt', 'wallet_save', 'not_requested'] as const satisfies readonly LogReason[];

/** What a tool answer says of its receipt and the log, beside the receipt. */
export interface ReceiptLogStatus {
  logged: boolean;
  reason: LogReason;
  /** Where the receipt's inclusion proof is (a c2sp.org/tlog-proof@v1 file), when logged. */
  proofPath: string | null;
}

export const NOT_LOGGED_MESSAGE =
  'stored and signed for lineage and provenance, but not appended to the receipt log: nobody asked to keep it (an anonymous tool call). POST /api/tools/receipt with the same Coil, kind and nowIso logs it';

/** Why a receipt row is logged: what the call asked for, else a wallet's save, else not at all. */
export function logReasonOf(asked: 'generated_coil' | 'explicit_receipt' | undefined, ownerAddress: string | null): LogReason {
  return asked ?? (ownerAddress !== null ? 'wallet_save' : 'not_requested');
}

export function receiptLogStatus(reason: LogReason, receiptId: string): ReceiptLogStatus {
  const logged = reason !== 'not_requested';
  return { logged, reason, proofPath: logged ? `/api/receipts/log/proof/${receiptId}` : null };
}
