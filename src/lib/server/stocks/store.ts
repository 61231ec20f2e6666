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
  /** This server's clock when it first saw the plan (prepare, or a submit of an unprepared plan). */
  firstPreparedAt: Date;
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
  /** The server's clock (never a pinned `nowIso`); kept from the first write only. */
  firstPreparedAt: Date;
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

/** An event as the lane writes it: the store numbers it and takes its `toStatus` from the change. */
export interface ReceiptEventInput extends Omit<StockReceiptEventRecord, 'seq' | 'fromStatus' | 'toStatus'> {
  /** Filled in by the lane from the version it read. */
  fromStatus?: ReceiptStatus;
}

export interface StockReceiptStore {
  findByPlanHash(planHash: string): Promise<StockReceiptRecord | null>;
  findByJobId(jobId: string): Promise<StockReceiptRecord | null>;
  /** The receipt that records this transaction hash as its proof (at most one: the hash is unique). */
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
   * updated receipt, or null when another writer moved it first. Throws
   * `ProofTransactionTakenError` when the change records a `txHash` that another receipt
   * already holds (the store's unique constraint decides, so concurrent writers have one winner).
   */
  applyChange(id: string, expectedVersion: number, change: ReceiptChange, event: ReceiptEventInput): Promise<StockReceiptRecord | null>;
}

/** The transaction of a change is already the proof of another plan (one transaction proves at most one plan). */
export class ProofTransactionTakenError extends Error {
  constructor(readonly txHash: string) {
    super('this transaction is already the proof of another plan');
    this.name = 'ProofTransactionTakenError';
  }
}
