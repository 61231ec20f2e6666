/**
 * The steps of a stock receipt (interface 3.1) as a timeline. The last step, the trade on chain,
 * is shown as reached only with on-chain proof (onchain_confirmed and its transaction hash);
 * the partner's "completed" is its word and is shown as such. There is no fill step. Who may
 * prove the plan, and how its proof is tied to who traded, is said in words on the first and
 * last steps.
 */
import type { LadderStep } from '$lib/ui/Ladder.svelte';

export interface StockReceiptLike {
  status: string;
  jobId: string | null;
  partnerJobStatus: string | null;
  txHash: string | null;
  blockNumber: string | null;
  planHash: string;
  /** How the proof is tied to the plan (docs/proof-rule.md "Bindings"). */
  proofBinding: string | null;
  executorKnown: boolean;
  executors: { address: string; source: string }[];
  history: { toStatus: string; partnerJobStatus: string | null; txHash: string | null }[];
}

/** Who can prove the plan, in plain words. */
export function whoTradesText(r: Pick<StockReceiptLike, 'executorKnown' | 'executors'>): string {
  if (!r.executorKnown)
    return 'No trader is known for this plan: any matching trade (right token, amount and time) proves it, whoever sent it, and the receipt says so.';
  const wallets = r.executors.map(
    (e) => `${e.address} (${e.source === 'siwe_session' ? 'signed in when preparing' : "reported by the partner's job"})`,
  );
  return `Only a trade sent by ${wallets.join(' or ')}, or one the partner's job names, can prove this plan.`;
}

/** How a held proof is tied to the plan, in plain words. */
export function proofBindingText(binding: string | null): string {
  if (binding === 'partner_job') return "The partner's job for this plan names this transaction.";
  if (binding === 'executor_wallet') return 'It was sent by the wallet known to trade for this plan.';
  return 'It matches this plan by token, amount and time only: it is not tied to who traded.';
}

export function stockTimeline(r: StockReceiptLike): LadderStep[] {
  const seen = (status: string) => r.status === status || r.history.some((h) => h.toStatus === status);
  const partnerCompleted = seen('job_completed_unconfirmed') || r.partnerJobStatus === 'completed';
  const partnerStopped = r.status === 'job_failed' || r.status === 'job_cancelled';
  const proven = r.status === 'onchain_confirmed' && !!r.txHash;
  const reverted = r.status === 'onchain_reverted' && !!r.txHash;
  return [
    {
      key: 'prepared',
      label: 'Plan prepared',
      state: 'done',
      detail: `Plan hash ${r.planHash}. The partner has not been contacted by preparing. ${whoTradesText(r)}`,
    },
    {
      key: 'submitted',
      label: "Handed to the partner's agent",
      state: r.jobId ? 'done' : 'pending',
      detail: r.jobId ? `Job ${r.jobId}. A job id is not a trade.` : 'No job yet: the plan has not been handed to the partner.',
    },
    {
      key: 'partner_completed',
      label: 'The partner reports the job completed',
      state: partnerCompleted ? 'done' : partnerStopped ? 'failed' : r.jobId ? 'current' : 'pending',
      detail: partnerCompleted
        ? "This is the partner's word, not proof of a trade."
        : partnerStopped
          ? `The partner reports the job ${r.status === 'job_failed' ? 'failed' : 'cancelled'}.`
          : r.jobId
            ? `The partner's last word: ${r.partnerJobStatus ?? 'unknown'}.`
            : undefined,
    },
    {
      key: 'onchain',
      label: 'Trade proven on chain 4663',
      state: proven ? 'done' : reverted ? 'failed' : 'pending',
      detail: proven
        ? `Transaction ${r.txHash}${r.blockNumber ? ` in block ${r.blockNumber}` : ''}. ${proofBindingText(r.proofBinding)}`
        : reverted
          ? `Transaction ${r.txHash} reverted on chain. ${proofBindingText(r.proofBinding)}`
          : 'No on-chain proof yet: nothing counts as traded until a chain 4663 transaction proves it.',
    },
  ];
}
