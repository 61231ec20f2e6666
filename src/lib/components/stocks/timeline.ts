/**
 * The steps of a stock receipt (interface 3.1) as a timeline. The last step, the trade on chain,
 * is shown as reached only with on-chain proof (onchain_confirmed and its transaction hash);
 * the partner's "completed" is its word and is shown as such. There is no fill step.
 */
import type { LadderStep } from '$lib/ui/Ladder.svelte';

export interface StockReceiptLike {
  status: string;
  jobId: string | null;
  partnerJobStatus: string | null;
  txHash: string | null;
  blockNumber: string | null;
  planHash: string;
  history: { toStatus: string; partnerJobStatus: string | null; txHash: string | null }[];
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
      detail: `Plan hash ${r.planHash}. The partner has not been contacted by preparing.`,
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
        ? `Transaction ${r.txHash}${r.blockNumber ? ` in block ${r.blockNumber}` : ''}.`
        : reverted
          ? `Transaction ${r.txHash} reverted on chain.`
          : 'No on-chain proof yet: nothing counts as traded until a chain 4663 transaction proves it.',
    },
  ];
}
