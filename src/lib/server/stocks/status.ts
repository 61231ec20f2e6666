/**
 * Stock-trade receipt states and their transitions (spec 3.1). A status moves only on proof:
 * the partner's word moves it between the `job_*` states, a chain 4663 transaction receipt
 * moves it to `onchain_*`. There is no fill state, and nothing here ever invents one.
 *
 * Names of the `job_*` states: the partner's five job statuses map one to one:
 *   pending → job_pending, processing → job_processing,
 *   completed → job_completed_unconfirmed (the partner's word, not settlement),
 *   failed → job_failed, cancelled → job_cancelled.
 *
 * On-chain proof outranks the partner's word: once a receipt is `onchain_confirmed` or
 * `onchain_reverted`, a job poll records the partner's status but never moves the receipt,
 * and a reconciliation that obtains no proof leaves it where it is. Only a new transaction
 * receipt read from chain 4663 moves it again (see `chainProofTransition`).
 */

export const PARTNER_JOB_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type PartnerJobStatus = (typeof PARTNER_JOB_STATUSES)[number];

export const RECEIPT_STATUSES = [
  'prepared',
  'job_pending',
  'job_processing',
  'job_completed_unconfirmed',
  'job_failed',
  'job_cancelled',
  'onchain_confirmed',
  'onchain_reverted',
] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const JOB_STATUS_TO_RECEIPT: Record<PartnerJobStatus, ReceiptStatus> = {
  pending: 'job_pending',
  processing: 'job_processing',
  completed: 'job_completed_unconfirmed',
  failed: 'job_failed',
  cancelled: 'job_cancelled',
};

/** What each state means, in words that never claim an execution. */
export const STATUS_MEANING: Record<ReceiptStatus, string> = {
  prepared:
    'Plan and command pack prepared. No on-chain proof is recorded for this plan, and this service places no order.',
  job_pending: 'The partner reports the job as pending. A job id is not a fill; nothing is confirmed on chain.',
  job_processing: 'The partner reports the job as processing. Nothing is confirmed on chain.',
  job_completed_unconfirmed:
    'The partner reports the job as completed; unconfirmed until reconciled on chain with a transaction receipt of chain 4663.',
  job_failed: 'The partner reports the job as failed. No on-chain proof is recorded for this plan.',
  job_cancelled: 'The partner reports the job as cancelled. No on-chain proof is recorded for this plan.',
  onchain_confirmed:
    'onchain_confirmed: a chain 4663 transaction receipt with status 0x1 that moved the target token is recorded as proof.',
  onchain_reverted:
    'onchain_reverted: the recorded chain 4663 transaction receipt has status 0x0, so that transaction moved no tokens.',
};

export function isOnchainStatus(status: ReceiptStatus): boolean {
  return status === 'onchain_confirmed' || status === 'onchain_reverted';
}

export function isPartnerJobStatus(value: unknown): value is PartnerJobStatus {
  return typeof value === 'string' && (PARTNER_JOB_STATUSES as readonly string[]).includes(value);
}

/** Why a reconciliation moved a receipt, or why it did not. Stable codes. */
export const REASON = {
  TX_RECEIPT_NOT_FOUND: 'TX_RECEIPT_NOT_FOUND',
  TX_NOT_FOR_TARGET_TOKEN: 'TX_NOT_FOR_TARGET_TOKEN',
  CHAIN_RPC_NOT_CONFIGURED: 'CHAIN_RPC_NOT_CONFIGURED',
  CHAIN_RPC_UNREACHABLE: 'CHAIN_RPC_UNREACHABLE',
  CHAIN_ID_MISMATCH: 'CHAIN_ID_MISMATCH',
  TX_RECEIPT_READ_FAILED: 'TX_RECEIPT_READ_FAILED',
  ONCHAIN_PROOF_KEPT: 'ONCHAIN_PROOF_KEPT',
  ALREADY_CONFIRMED_BY_OTHER_TX: 'ALREADY_CONFIRMED_BY_OTHER_TX',
  NO_PROOF_SUPPLIED: 'NO_PROOF_SUPPLIED',
  PARTNER_LANE_NOT_ENABLED: 'PARTNER_LANE_NOT_ENABLED',
  PARTNER_JOB_READ_FAILED: 'PARTNER_JOB_READ_FAILED',
} as const;
export type ReasonCode = (typeof REASON)[keyof typeof REASON];

export const REASON_MEANING: Record<ReasonCode, string> = {
  TX_RECEIPT_NOT_FOUND: 'chain 4663 has no transaction receipt for this hash; no proof was obtained',
  TX_NOT_FOR_TARGET_TOKEN: 'the transaction has status 0x1 but emitted no Transfer of the plan\'s target token, so it is no proof of this plan',
  CHAIN_RPC_NOT_CONFIGURED: 'no chain 4663 RPC is configured (BROKER_CHAIN_RPC_URL); nothing was read and the status is unchanged',
  CHAIN_RPC_UNREACHABLE: 'the chain RPC did not answer; nothing was read and the status is unchanged',
  CHAIN_ID_MISMATCH: 'the RPC does not serve chain 4663, so its answers are not trusted; the status is unchanged',
  TX_RECEIPT_READ_FAILED: 'reading the transaction receipt failed; the status is unchanged',
  ONCHAIN_PROOF_KEPT: 'the receipt already holds on-chain proof; a read without new proof does not move it',
  ALREADY_CONFIRMED_BY_OTHER_TX: 'the receipt is onchain_confirmed by another transaction; a different transaction does not move it',
  NO_PROOF_SUPPLIED: 'no transaction hash was given and no partner job is recorded; no proof was obtained',
  PARTNER_LANE_NOT_ENABLED: 'the partner lane is not enabled, so the job was not read; the status is unchanged',
  PARTNER_JOB_READ_FAILED: 'reading the partner job failed; the status is unchanged',
};

export interface Transition {
  next: ReceiptStatus;
  /** Set when the status stays put although the input asked for a move, or when it moved for want of proof. */
  reason?: ReasonCode;
}

/** A partner job status observed by a poll or a reconciliation. */
export function jobStatusTransition(current: ReceiptStatus, partnerStatus: PartnerJobStatus): Transition {
  if (isOnchainStatus(current)) return { next: current, reason: REASON.ONCHAIN_PROOF_KEPT };
  return { next: JOB_STATUS_TO_RECEIPT[partnerStatus] };
}

/** The outcome of reading one transaction on the configured chain. */
export type ChainProof =
  | { kind: 'receipt'; txHash: string; success: boolean; blockNumber: string; touchesTarget: boolean }
  | { kind: 'not_found'; txHash: string }
  /** Nothing trustworthy was read (no RPC, unreachable, another chain, a failed read). */
  | { kind: 'unverified'; txHash: string; reason: ReasonCode };

export function chainProofTransition(current: ReceiptStatus, currentTxHash: string | null, proof: ChainProof): Transition {
  if (proof.kind === 'unverified') return { next: current, reason: proof.reason };
  const sameTx = currentTxHash !== null && currentTxHash.toLowerCase() === proof.txHash.toLowerCase();
  if (current === 'onchain_confirmed' && !sameTx) return { next: current, reason: REASON.ALREADY_CONFIRMED_BY_OTHER_TX };
  if (proof.kind === 'not_found') {
    return isOnchainStatus(current) ? { next: current, reason: REASON.ONCHAIN_PROOF_KEPT } : { next: 'prepared', reason: REASON.TX_RECEIPT_NOT_FOUND };
  }
  if (!proof.success) return { next: 'onchain_reverted' };
  if (!proof.touchesTarget) {
    return isOnchainStatus(current) ? { next: current, reason: REASON.TX_NOT_FOR_TARGET_TOKEN } : { next: 'prepared', reason: REASON.TX_NOT_FOR_TARGET_TOKEN };
  }
  return { next: 'onchain_confirmed' };
}
