/**
 * The public form of a stored receipt (`{ receipt }` of every lane answer) and
 * `GET /api/stocks/receipts/{planHash}`, which reads nothing external.
 */
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID } from '../registry';
import { PROOF_BINDING_MEANING } from '../proof/rule';
import { planExpiresAt } from './plan';
import { publicExecutor } from './executor';
import { STOCK_ERROR } from './lane-config';
import { STATUS_MEANING } from './status';
import type { StockReceiptRecord, StockReceiptStore } from './store';

export const RECEIPT_VERSION = 'svc-stock-receipt-1.0.0';
export function receiptIdFor(planHash: string): string {
  return `srcpt_${planHash.slice(0, 24)}`;
}

/** How the proof a receipt holds is bound, and what that means in words. */
export function proofBindingOf(record: Pick<StockReceiptRecord, 'proofBinding'>) {
  return {
    proofBinding: record.proofBinding,
    proofBindingMeaning: record.proofBinding ? PROOF_BINDING_MEANING[record.proofBinding] : null,
  };
}

/** The public form of a receipt (`{ receipt }` of reconcile, and the other lane answers). */
export function publicReceipt(record: StockReceiptRecord) {
  return {
    receiptVersion: RECEIPT_VERSION,
    receiptId: record.id,
    planHash: record.planHash,
    status: record.status,
    statusMeaning: STATUS_MEANING[record.status],
    statusReason: record.statusReason,
    chainId: BROKER_CHAIN_ID,
    targetSymbol: record.targetSymbol,
    targetTokenAddress: record.targetTokenAddress,
    generatedAt: record.generatedAt.toISOString(),
    firstPreparedAt: record.firstPreparedAt.toISOString(),
    expiresAt: planExpiresAt(record.firstPreparedAt).toISOString(),
    jobId: record.jobId,
    partnerJobStatus: record.partnerJobStatus,
    txHash: record.txHash,
    blockNumber: record.blockNumber,
    ...proofBindingOf(record),
    ...publicExecutor(record),
    updatedAt: record.updatedAt.toISOString(),
    history: record.events.map((e) => ({
      seq: e.seq,
      trigger: e.trigger,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      reason: e.reason,
      jobId: e.jobId,
      partnerJobStatus: e.partnerJobStatus,
      txHash: e.txHash,
      blockNumber: e.blockNumber,
      chainId: e.chainId,
      at: e.at.toISOString(),
    })),
    svcExecutesTrade: false as const,
  };
}

export type PublicReceipt = ReturnType<typeof publicReceipt>;

export function unknownReceipt(path: string): SvcError {
  return new SvcError(STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, 'No stock receipt matches this reference', {
    issues: [{ code: STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, message: `no receipt for this ${path}`, path }],
  });
}

/** GET /api/stocks/receipts/{planHash}: the receipt as stored; reads nothing external. */
export async function getStockReceipt(planHash: string, store: StockReceiptStore) {
  const record = await store.findByPlanHash(planHash.toLowerCase());
  if (!record) throw unknownReceipt('planHash');
  return { receipt: publicReceipt(record) };
}
