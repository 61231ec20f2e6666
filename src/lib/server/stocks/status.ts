/**
 * Stock-trade receipt states and their transitions (interface 3.1). A status moves only on proof:
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

import { isPartnerJobStatus, PARTNER_JOB_STATUSES, type PartnerJobStatus } from '../partner/agent-api';
import { bindingOutranks, type ProofBinding } from '../proof/rule';

export { isPartnerJobStatus, PARTNER_JOB_STATUSES, type PartnerJobStatus };

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
  prepared: 'Plan and command pack prepared. No on-chain proof is recorded for this plan, and this service places no order.',
  job_pending: 'The partner reports the job as pending. A job id is not a fill; nothing is confirmed on chain.',
  job_processing: 'The partner reports the job as processing. Nothing is confirmed on chain.',
  job_completed_unconfirmed:
    'The partner reports the job as completed; unconfirmed until reconciled on chain with a transaction receipt of chain 4663.',
  job_failed: 'The partner reports the job as failed. No on-chain proof is recorded for this plan.',
  job_cancelled: 'The partner reports the job as cancelled. No on-chain proof is recorded for this plan.',
  onchain_confirmed:
    "onchain_confirmed: a chain 4663 transaction with status 0x1, mined after this plan was first prepared here and the proof of no other subject, in which the transaction's sender received the plan's target token and spent the plan's USDG amount within its slippage (the reverse for a sell), is recorded as this plan's proof.",
  onchain_reverted:
    "onchain_reverted: the recorded chain 4663 transaction, tied to this plan by the partner's job or by its calldata, has status 0x0, so that transaction moved no tokens.",
};

export function isOnchainStatus(status: ReceiptStatus): boolean {
  return status === 'onchain_confirmed' || status === 'onchain_reverted';
}

/** Why a reconciliation moved a receipt, or why it did not. Stable codes. */
export const REASON = {
  TX_RECEIPT_NOT_FOUND: 'TX_RECEIPT_NOT_FOUND',
  TX_MINED_BEFORE_PLAN: 'TX_MINED_BEFORE_PLAN',
  TX_PROVES_OTHER_PLAN: 'TX_PROVES_OTHER_PLAN',
  TX_NOT_FOR_TARGET_TOKEN: 'TX_NOT_FOR_TARGET_TOKEN',
  SENDER_DID_NOT_RECEIVE_TARGET: 'SENDER_DID_NOT_RECEIVE_TARGET',
  SENDER_DID_NOT_SPEND_TARGET: 'SENDER_DID_NOT_SPEND_TARGET',
  SENDER_DID_NOT_SPEND_USDG: 'SENDER_DID_NOT_SPEND_USDG',
  SENDER_DID_NOT_RECEIVE_USDG: 'SENDER_DID_NOT_RECEIVE_USDG',
  USDG_SPENT_ABOVE_PLAN: 'USDG_SPENT_ABOVE_PLAN',
  USDG_RECEIVED_ABOVE_PLAN: 'USDG_RECEIVED_ABOVE_PLAN',
  USDG_SPENT_BELOW_PLAN: 'USDG_SPENT_BELOW_PLAN',
  USDG_RECEIVED_BELOW_PLAN: 'USDG_RECEIVED_BELOW_PLAN',
  TX_CLAIMED_BY_PARTNER_JOB: 'TX_CLAIMED_BY_PARTNER_JOB',
  TX_CLAIMED_BY_EXECUTOR: 'TX_CLAIMED_BY_EXECUTOR',
  TX_NOT_SENT_BY_EXECUTOR: 'TX_NOT_SENT_BY_EXECUTOR',
  PROOF_HELD_BY_STRONGER_BINDING: 'PROOF_HELD_BY_STRONGER_BINDING',
  REVERTED_TX_NOT_TIED_TO_PLAN: 'REVERTED_TX_NOT_TIED_TO_PLAN',
  PROOF_RESET_TX_SHARED_BY_PLANS: 'PROOF_RESET_TX_SHARED_BY_PLANS',
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
  TX_MINED_BEFORE_PLAN: "the transaction's block is older than this plan's first prepare on this server, so it cannot be this plan's trade",
  TX_PROVES_OTHER_PLAN:
    'the transaction is already the proof of another subject (a plan or a vault deposit job); one transaction proves at most one',
  TX_NOT_FOR_TARGET_TOKEN:
    "the transaction has status 0x1 but emitted no Transfer of the plan's target token, so it is no proof of this plan",
  SENDER_DID_NOT_RECEIVE_TARGET:
    "the transaction's sender did not end up with more of the plan's target token, so it is not this plan's purchase",
  SENDER_DID_NOT_SPEND_TARGET:
    "the transaction's sender did not end up with less of the plan's target token, so it is not this plan's sale",
  SENDER_DID_NOT_SPEND_USDG: "the transaction's sender did not spend USDG, so it is not this plan's purchase",
  SENDER_DID_NOT_RECEIVE_USDG: "the transaction's sender did not receive USDG, so it is not this plan's sale",
  USDG_SPENT_ABOVE_PLAN: "the transaction's sender spent more USDG than the plan's inputAmount, so it is not this plan's trade",
  USDG_RECEIVED_ABOVE_PLAN:
    "the transaction's sender received more USDG than the plan's inputAmount plus its slippage allowance, so it is not this plan's sale",
  USDG_SPENT_BELOW_PLAN:
    "the transaction's sender spent less USDG than the plan's inputAmount less its slippage allowance, so it is not this plan's trade",
  USDG_RECEIVED_BELOW_PLAN:
    "the transaction's sender received less USDG than the plan's inputAmount less its slippage allowance, so it is not this plan's sale",
  TX_CLAIMED_BY_PARTNER_JOB:
    "the transaction this plan held on a caller's word is named by another plan's own partner job, which outranks a caller's claim; this plan holds no proof now",
  TX_CLAIMED_BY_EXECUTOR:
    "the transaction this plan held on a caller's word (a match by token, amount and time) has as its sender the wallet known to trade for another plan, whose claim outranks it; this plan holds no proof now",
  TX_NOT_SENT_BY_EXECUTOR:
    "this plan has a known executor (the wallet that prepared or submitted it, or the one its partner job reports), and this transaction's sender is another wallet that the plan's partner job does not name, so it proves nothing for this plan",
  PROOF_HELD_BY_STRONGER_BINDING:
    "the receipt holds a transaction bound to it by its partner job or its executor; a caller's claim (a match by token, amount and time) never replaces it, a revert included",
  REVERTED_TX_NOT_TIED_TO_PLAN:
    "the transaction reverted, but neither the partner's answer for this plan's job names it nor does its calldata carry this plan's parameters, so it says nothing about this plan",
  PROOF_RESET_TX_SHARED_BY_PLANS:
    'the transaction once recorded as proof was recorded for several plans, so it proves none of them; reconcile again',
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

/**
 * What a reconciliation concluded about one transaction for one plan: `confirmed` and
 * `reverted` only for a transaction that is that plan's trade (proof/stock-trade.ts).
 */
export type ChainVerdict =
  | { kind: 'confirmed'; txHash: string; blockNumber: string }
  | { kind: 'reverted'; txHash: string; blockNumber: string }
  /** Mined, but not this plan's trade (the reason names the check that failed). */
  | { kind: 'no_proof'; txHash: string; blockNumber: string; reason: ReasonCode }
  | { kind: 'not_found'; txHash: string }
  /** Nothing trustworthy was read (no RPC, unreachable, another chain, a failed read). */
  | { kind: 'unverified'; txHash: string; reason: ReasonCode };

/**
 * `claim` is how the verdict's transaction is bound to the plan, `held` how the proof it already
 * holds is bound (proof/rule.ts). A proof moves from `onchain_confirmed` to another transaction
 * only for a claim that outranks the held one, and from `onchain_reverted` never for a caller's
 * claim when the revert is bound (by the plan's partner job or its executor).
 */
export function chainProofTransition(
  current: ReceiptStatus,
  currentTxHash: string | null,
  verdict: ChainVerdict,
  bindings: { claim: ProofBinding | null; held: ProofBinding | null } = { claim: null, held: null },
): Transition {
  if (verdict.kind === 'unverified') return { next: current, reason: verdict.reason };
  const sameTx = currentTxHash !== null && currentTxHash.toLowerCase() === verdict.txHash.toLowerCase();
  const proves = verdict.kind === 'confirmed' || verdict.kind === 'reverted';
  const { claim, held } = bindings;
  const outranksHeld = claim !== null && held !== null && bindingOutranks(claim, held);
  if (current === 'onchain_confirmed' && !sameTx && !(proves && outranksHeld))
    return { next: current, reason: REASON.ALREADY_CONFIRMED_BY_OTHER_TX };
  if (current === 'onchain_reverted' && !sameTx && proves && claim === 'caller_claim' && held !== null && held !== 'caller_claim')
    return { next: current, reason: REASON.PROOF_HELD_BY_STRONGER_BINDING };
  if (verdict.kind === 'not_found') {
    return isOnchainStatus(current)
      ? { next: current, reason: REASON.ONCHAIN_PROOF_KEPT }
      : { next: 'prepared', reason: REASON.TX_RECEIPT_NOT_FOUND };
  }
  if (verdict.kind === 'no_proof') {
    // No proof never undoes proof: an on-chain status stays, and says why the new read did not count.
    return isOnchainStatus(current) ? { next: current, reason: verdict.reason } : { next: 'prepared', reason: verdict.reason };
  }
  return { next: verdict.kind === 'reverted' ? 'onchain_reverted' : 'onchain_confirmed' };
}

/** A plan whose caller-claimed proof another plan's stronger claim (`by`) took: it holds no proof now. */
export function proofTakenTransition(by: ProofBinding): Transition {
  return { next: 'prepared', reason: by === 'partner_job' ? REASON.TX_CLAIMED_BY_PARTNER_JOB : REASON.TX_CLAIMED_BY_EXECUTOR };
}
