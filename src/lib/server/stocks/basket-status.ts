/**
 * `GET /api/stocks/baskets/{basketHash}`: each leg's status, read from its receipt after asking
 * the partner about its open job (as the job poll does), and a summary never stronger than the
 * weakest leg: prepared < job_pending, job_processing < job_completed_unconfirmed <
 * onchain_confirmed. A leg that failed, was cancelled or reverted is listed apart and makes the
 * summary `incomplete`. There is no "filled".
 */
import { findSvcError } from '../errors';
import { readPartnerJob } from '../partner/agent-api';
import { unknownBasket } from './basket';
import type { StockBasketStore } from './basket-store';
import type { PollDeps } from './job-poll';
import { partnerEndpoint } from './lane-config';
import { notePartnerWallet, publicExecutor } from './executor';
import { proofBindingOf } from './receipt-view';
import { STATUS_MEANING, type ReceiptStatus } from './status';
import type { StockReceiptRecord } from './store';
import { jobChange, transition } from './transition';

/** The order of a leg's progress; stopped states have none (they make the basket incomplete). */
export const LEG_PROGRESS: Partial<Record<ReceiptStatus, number>> = {
  prepared: 0,
  job_pending: 1,
  job_processing: 1,
  job_completed_unconfirmed: 2,
  onchain_confirmed: 3,
};
const STOPPED: ReadonlySet<ReceiptStatus> = new Set(['job_failed', 'job_cancelled', 'onchain_reverted']);
const OPEN_JOB: ReadonlySet<ReceiptStatus> = new Set(['job_pending', 'job_processing']);

export const BASKET_SUMMARY_MEANING = {
  prepared: 'At least one leg is only prepared: it has not been handed to the partner.',
  job_pending: "Every leg is with the partner or further; at least one job is still open (the partner's word, nothing on chain).",
  job_processing: "Every leg is with the partner or further; at least one job is still open (the partner's word, nothing on chain).",
  job_completed_unconfirmed:
    'The partner reports every job completed; at least one leg has no on-chain proof yet, so the basket is not confirmed.',
  onchain_confirmed: 'Every leg holds a chain 4663 transaction that proves it (each leg says how its proof is bound).',
  incomplete:
    'At least one leg failed, was cancelled or reverted: the basket will not be complete as planned (those legs are listed apart).',
} as const;

export interface BasketStatusDeps extends PollDeps {
  baskets: StockBasketStore;
}

/** Reads an open job's status from the partner and records it; a failed read leaves the leg as it was. */
async function refreshLeg(record: StockReceiptRecord, deps: BasketStatusDeps) {
  const endpoint = partnerEndpoint(deps.config);
  if (!record.jobId || !endpoint || !OPEN_JOB.has(record.status)) return { record, partnerReadError: null };
  try {
    const job = await readPartnerJob(endpoint, record.jobId);
    const start = await notePartnerWallet(deps.store, record, job);
    const updated = await transition(deps.store, start, (current) => jobChange(current, job.partnerStatus, 'job_poll', deps.serverTime));
    return { record: updated, partnerReadError: null };
  } catch (error) {
    const refusal = findSvcError(error);
    if (!refusal) throw error;
    return { record, partnerReadError: refusal.code };
  }
}

export async function getBasketStatus(basketHash: string, deps: BasketStatusDeps) {
  const basket = await deps.baskets.find(basketHash.toLowerCase());
  if (!basket) throw unknownBasket();
  const legs = [];
  for (const leg of basket.legs) {
    const found = await deps.store.findByPlanHash(leg.planHash);
    if (!found) throw unknownBasket();
    const { record, partnerReadError } = await refreshLeg(found, deps);
    legs.push({
      ...leg,
      status: record.status,
      statusMeaning: STATUS_MEANING[record.status],
      jobId: record.jobId,
      partnerJobStatus: record.partnerJobStatus,
      txHash: record.txHash,
      ...proofBindingOf(record),
      ...publicExecutor(record),
      partnerReadError,
    });
  }
  const stopped = legs.filter((l) => STOPPED.has(l.status));
  const going = legs.filter((l) => !STOPPED.has(l.status));
  const weakest = going.reduce<(typeof legs)[number] | null>(
    (low, l) => (low === null || LEG_PROGRESS[l.status]! < LEG_PROGRESS[low.status]! ? l : low),
    null,
  );
  const summary = stopped.length > 0 || !weakest ? ('incomplete' as const) : (weakest.status as keyof typeof BASKET_SUMMARY_MEANING);
  return {
    basketHash: basket.basketHash,
    generatedAt: basket.generatedAt.toISOString(),
    totalAmountUsdg: basket.totalAmountUsdg,
    summary,
    summaryMeaning: BASKET_SUMMARY_MEANING[summary],
    legs: going,
    stoppedLegs: stopped,
    checkedAt: deps.now.toISOString(),
    svcExecutesTrade: false as const,
  };
}
