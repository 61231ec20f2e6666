/**
 * The one loop that writes a receipt's change (compare-and-set on its version, recomputed on a
 * stale read), and the change a partner job status makes. Used by submit, the job poll and
 * reconcile.
 */
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { STOCK_ERROR } from './lane-config';
import { jobStatusTransition, type PartnerJobStatus } from './status';
import type { ProofTakeOver, ReceiptChange, ReceiptEventInput, StockReceiptRecord, StockReceiptStore } from './store';

export type ChangeFor = (
  current: StockReceiptRecord,
) => { change: ReceiptChange; event: ReceiptEventInput; takeOver?: ProofTakeOver } | null;

/**
 * Applies a change computed from the receipt's latest version; when another writer moved the
 * receipt first, re-reads and recomputes, so a decision is never made on a stale status
 * (e.g. a job poll can never undo an `onchain_confirmed` that landed meanwhile).
 */
export async function transition(store: StockReceiptStore, start: StockReceiptRecord, changeFor: ChangeFor): Promise<StockReceiptRecord> {
  let current = start;
  for (let attempt = 0; attempt < 8; attempt++) {
    const next = changeFor(current);
    if (!next) return current;
    const updated = await store.applyChange(
      current.id,
      current.version,
      next.change,
      { ...next.event, fromStatus: current.status },
      next.takeOver,
    );
    if (updated) return updated;
    const reread = await store.findByPlanHash(current.planHash);
    if (!reread) throw new SvcError(STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, 'The receipt disappeared while it was being updated');
    current = reread;
  }
  throw new SvcError('CONFLICT', 'The receipt kept changing while it was being updated; try again');
}

export function jobChange(
  current: StockReceiptRecord,
  partnerStatus: PartnerJobStatus,
  trigger: 'job_poll' | 'reconcile',
  at: ServerTime,
): { change: ReceiptChange; event: ReceiptEventInput } | null {
  const t = jobStatusTransition(current.status, partnerStatus);
  if (t.next === current.status && current.partnerJobStatus === partnerStatus) return null;
  return {
    change: { status: t.next, statusReason: t.next === current.status ? current.statusReason : null, partnerJobStatus: partnerStatus },
    event: {
      trigger,
      reason: t.reason ?? null,
      jobId: current.jobId,
      partnerJobStatus: partnerStatus,
      txHash: null,
      blockNumber: null,
      chainId: null,
      at,
    },
  };
}
