/**
 * What the stock lane needs from persistence. The Prisma implementation lives in
 * src/lib/server/db/stock-receipt-repository.ts; the lane functions take a store as an
 * argument so they run the same from HTTP, the MCP server or a test.
 */
import type { PartnerJobStatus, ReceiptStatus } from './status';

export type ReceiptTrigger = 'prepare' | 'submit' | 'job_poll' | 'reconcile';

export interface StockReceiptEventRecord {
  seq: number;
  trigger: ReceiptTrigger;
  fromStatus: ReceiptStatus | null;
  toStatus: ReceiptStatus;
  reason: string | null;
  jobId: string | null;
  partnerJobStatus: PartnerJobStatus | null;
  txHash: string | null;
  blockNumber: string | null;
  chainId: number | null;
  at: Date;
}

export interface StockReceiptRecord {
  id: string;
  planHash: string;
  status: ReceiptStatus;
  statusReason: string | null;
  /** Canonical JSON of the normalised intent. */
  intentJson: string;
  generatedAt: Date;
  targetSymbol: string;
  targetTokenAddress: string;
  jobId: string | null;
  partnerJobStatus: PartnerJobStatus | null;
  txHash: string | null;
  blockNumber: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  events: StockReceiptEventRecord[];
}

export interface NewPreparedReceipt {
  id: string;
  planHash: string;
  intentJson: string;
  generatedAt: Date;
  targetSymbol: string;
  targetTokenAddress: string;
  at: Date;
}

/** The fields a change writes; omitted fields keep their value. */
export interface ReceiptChange {
  status: ReceiptStatus;
  statusReason: string | null;
  jobId?: string;
  partnerJobStatus?: PartnerJobStatus;
  txHash?: string | null;
  blockNumber?: string | null;
  /** Ends the submission lease in the same write. */
  releaseSubmitClaim?: boolean;
}

export interface ReceiptEventInput {
  trigger: ReceiptTrigger;
  /** Filled in by the lane from the version it read. */
  fromStatus?: ReceiptStatus;
  reason: string | null;
  jobId: string | null;
  partnerJobStatus: PartnerJobStatus | null;
  txHash: string | null;
  blockNumber: string | null;
  chainId: number | null;
  at: Date;
}

export interface StockReceiptStore {
  findByPlanHash(planHash: string): Promise<StockReceiptRecord | null>;
  findByJobId(jobId: string): Promise<StockReceiptRecord | null>;
  /** The newest receipt that records this transaction hash as its proof. */
  findByTxHash(txHash: string): Promise<StockReceiptRecord | null>;
  /** Creates the receipt in state `prepared` (with its first event) unless the plan hash exists; safe under concurrency. */
  ensurePrepared(receipt: NewPreparedReceipt): Promise<{ record: StockReceiptRecord; created: boolean }>;
  /**
   * Takes the submission lease of a plan in one atomic write: succeeds only while no job is
   * recorded and no other unexpired lease is held.
   */
  claimSubmission(planHash: string, now: Date, leaseMs: number): Promise<boolean>;
  releaseSubmission(planHash: string): Promise<void>;
  /**
   * Writes a change and its event if the receipt is still at `expectedVersion`; returns the
   * updated receipt, or null when another writer moved it first.
   */
  applyChange(id: string, expectedVersion: number, change: ReceiptChange, event: ReceiptEventInput): Promise<StockReceiptRecord | null>;
}
