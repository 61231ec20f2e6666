/**
 * What the stock lane needs from persistence. The Prisma implementation lives in
 * src/lib/server/db/stock-receipt-repository.ts; the lane functions take a store as an
 * argument so they run the same from HTTP, the MCP server or a test.
 */
import type { ServerTime } from '../clock';
import { ProofTransactionTakenError, type ProofBinding, type ProofHolderReader } from '../proof/rule';
import type { PartnerJobStatus, ReceiptStatus } from './status';

export { ProofTransactionTakenError };

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
  /** The server's clock when the change was stored (never a pinned `nowIso`). */
  at: ServerTime;
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
  firstPreparedAt: ServerTime;
  targetSymbol: string;
  targetTokenAddress: string;
  jobId: string | null;
  partnerJobStatus: PartnerJobStatus | null;
  txHash: string | null;
  blockNumber: string | null;
  /** How `txHash` is bound to this plan (proof/rule.ts); null when it holds none. */
  proofBinding: ProofBinding | null;
  /** The wallet of the signed-in session that prepared or submitted the plan (checksummed), if any. */
  sessionWallet: string | null;
  /** The wallet the plan's partner job reports as trading for it (checksummed), if any. */
  partnerWallet: string | null;
  version: number;
  /** The server's clock, like every stored time of a receipt. */
  createdAt: ServerTime;
  updatedAt: ServerTime;
  events: StockReceiptEventRecord[];
}

export interface NewPreparedReceipt {
  id: string;
  planHash: string;
  intentJson: string;
  generatedAt: Date;
  /** The server's clock (never a pinned `nowIso`); kept from the first write only. */
  firstPreparedAt: ServerTime;
  targetSymbol: string;
  targetTokenAddress: string;
  /** The server's clock: the row's `createdAt`, `updatedAt` and its first event's `at`. */
  at: ServerTime;
  /**
   * The signed-in session's wallet: recorded on a new receipt, and on an existing one that has
   * none yet (a plan's executor, once known, is never replaced).
   */
  sessionWallet?: string | null;
}

/** The fields a change writes; omitted fields keep their value. */
export interface ReceiptChange {
  status: ReceiptStatus;
  statusReason: string | null;
  jobId?: string;
  partnerJobStatus?: PartnerJobStatus;
  txHash?: string | null;
  blockNumber?: string | null;
  /** With a `txHash`: how it is bound to the plan (written to the proof binding). */
  proofBinding?: ProofBinding;
  /** Ends the submission lease in the same write. */
  releaseSubmitClaim?: boolean;
}

/** An event as the lane writes it: the store numbers it and takes its `toStatus` from the change. */
export interface ReceiptEventInput extends Omit<StockReceiptEventRecord, 'seq' | 'fromStatus' | 'toStatus'> {
  /** Filled in by the lane from the version it read. */
  fromStatus?: ReceiptStatus;
}

/**
 * A plan whose caller-claimed proof is taken over in the same write: the change its receipt
 * makes (computed from the version read inside that write) and the event.
 */
export interface ProofTakeOver {
  receiptId: string;
  /** The taker's binding: only a weaker claim of the loser is released. */
  by: ProofBinding;
  changeFor: (current: StockReceiptRecord) => { change: ReceiptChange; event: ReceiptEventInput };
}

export interface StockReceiptStore extends ProofHolderReader {
  findByPlanHash(planHash: string): Promise<StockReceiptRecord | null>;
  findByJobId(jobId: string): Promise<StockReceiptRecord | null>;
  /** The receipt that records this transaction hash as its proof (at most one: the hash is unique). */
  findByTxHash(txHash: string): Promise<StockReceiptRecord | null>;
  /**
   * Creates the receipt in state `prepared` (with its first event) unless the plan hash exists;
   * safe under concurrency. Records `sessionWallet` on an existing receipt that has none.
   */
  ensurePrepared(receipt: NewPreparedReceipt): Promise<{ record: StockReceiptRecord; created: boolean }>;
  /**
   * Takes the submission lease of a plan in one atomic write: succeeds only while no job is
   * recorded and no other unexpired lease is held.
   */
  claimSubmission(planHash: string, now: ServerTime, leaseMs: number): Promise<boolean>;
  releaseSubmission(planHash: string): Promise<void>;
  /**
   * Writes a change and its event if the receipt is still at `expectedVersion`; returns the
   * updated receipt, or null when another writer moved it first. A change that records a
   * `txHash` binds it to the plan in the same write (and, with `takeOver`, first moves it from
   * the plan that held it by a caller claim). Throws `ProofTransactionTakenError` when another
   * subject holds the transaction (the store's unique key decides, so concurrent writers have
   * one winner); nothing is written then.
   */
  applyChange(
    id: string,
    expectedVersion: number,
    change: ReceiptChange,
    event: ReceiptEventInput,
    takeOver?: ProofTakeOver,
  ): Promise<StockReceiptRecord | null>;
  /** Strengthens the plan's binding of the transaction it holds to `binding`, when that outranks it. */
  strengthenProofBinding(id: string, txHash: string, binding: ProofBinding): Promise<void>;
  /** Records the wallet the plan's partner job reports, unless one is recorded already. */
  recordPartnerWallet(id: string, wallet: string): Promise<void>;
}
