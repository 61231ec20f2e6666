/**
 * `POST /api/stocks/submit-partner-intent`: runs the gates, then hands the plan to the partner
 * as at most one job per plan hash.
 */
import type { ServerTime } from '../clock';
import { canonicalJson } from '../canonical';
import { SvcError } from '../errors';
import { submitPartnerPrompt, type PartnerJobStatus } from '../partner/agent-api';
import { partnerCommand } from './command-pack';
import { planExpiresAt, STOCK_PLAN_LIFETIME_SECONDS } from './plan';
import { STOCK_ERROR, type StockLaneConfig } from './lane-config';
import { assertSessionMayUse, sessionExecutor } from './executor';
import { receiptIdFor } from './receipt-view';
import { checkSubmitGates, type SubmitInput } from './submit-gates';
import { STATUS_MEANING, type ReceiptStatus } from './status';
import type { StockReceiptRecord, StockReceiptStore } from './store';
import { transition } from './transition';

export interface SubmitDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The real time of the request: the time recorded for the submission and its lease. */
  observedAt: ServerTime;
  /** Real time, for the submission lease and for how long a concurrent submit waits for the first. */
  wallClock: () => ServerTime;
  sleep?: (ms: number) => Promise<void>;
  /** The wallet of the caller's signed-in session, if any: the plan's executor (executor.ts). */
  sessionWallet?: string | null;
}

const SUBMIT_POLL_INTERVAL_MS = 100;
const SUBMIT_LEASE_EXTRA_MS = 30_000;
const SUBMIT_WAIT_EXTRA_MS = 5_000;

function submitAnswer(record: StockReceiptRecord, replayed: boolean) {
  return {
    jobId: record.jobId!,
    receiptStatus: record.status,
    statusMeaning: STATUS_MEANING[record.status],
    planHash: record.planHash,
    receiptId: record.id,
    partnerJobStatus: record.partnerJobStatus,
    replayed,
    pollPath: `/api/stocks/partner-job/${encodeURIComponent(record.jobId!)}`,
    svcExecutesTrade: false as const,
    note: replayed
      ? 'This plan already has a partner job; nothing new was submitted. A job id is not a fill.'
      : 'The partner accepted a job for this plan. A job id is not a fill: nothing is confirmed until a chain 4663 transaction receipt is reconciled.',
  };
}

/**
 * Runs the gates, then hands the plan to the partner as at most one job per plan hash,
 * however many times or however concurrently the plan is submitted.
 */
export async function submitStockIntent(input: SubmitInput, deps: SubmitDeps) {
  const { endpoint, planHash: recomputed, intent, target } = checkSubmitGates(input, deps.config);

  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const wallClock = deps.wallClock;
  const sessionWallet = sessionExecutor(deps.sessionWallet);
  let { record } = await deps.store.ensurePrepared({
    id: receiptIdFor(recomputed),
    planHash: recomputed,
    intentJson: canonicalJson(intent),
    generatedAt: input.planGeneratedAt,
    firstPreparedAt: deps.observedAt,
    targetSymbol: target.ticker,
    targetTokenAddress: target.address,
    at: deps.observedAt,
    sessionWallet,
  });
  assertSessionMayUse(record, sessionWallet);

  const leaseMs = endpoint.timeoutMs + SUBMIT_LEASE_EXTRA_MS;
  const waitUntil = wallClock().getTime() + endpoint.timeoutMs + SUBMIT_WAIT_EXTRA_MS;
  for (;;) {
    if (record.jobId) return submitAnswer(record, true);
    if (record.status !== 'prepared') {
      throw new SvcError(
        STOCK_ERROR.RECEIPT_NOT_SUBMITTABLE,
        `This plan's receipt is ${record.status}; only a prepared plan without a job may be submitted`,
        {
          issues: [{ code: STOCK_ERROR.RECEIPT_NOT_SUBMITTABLE, message: STATUS_MEANING[record.status] }],
        },
      );
    }
    const expiresAt = planExpiresAt(record.firstPreparedAt);
    if (deps.observedAt.getTime() > expiresAt.getTime()) {
      // The server's clock decides: a nowIso that names the plan never extends its life.
      throw new SvcError(
        STOCK_ERROR.PLAN_EXPIRED,
        `This plan expired at ${expiresAt.toISOString()}, ${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes after this server first prepared it; nothing was sent. Prepare the intent again and confirm the new plan.`,
        {
          issues: [
            {
              code: STOCK_ERROR.PLAN_EXPIRED,
              message: `a plan may be submitted for ${STOCK_PLAN_LIFETIME_SECONDS} seconds after its first prepare`,
              path: 'userConfirmedPlanHash',
            },
          ],
        },
      );
    }
    if (await deps.store.claimSubmission(recomputed, wallClock(), leaseMs)) break;
    if (wallClock().getTime() > waitUntil) {
      throw new SvcError(
        STOCK_ERROR.SUBMIT_IN_PROGRESS,
        'Another submission of this plan is still talking to the partner; poll or submit again shortly',
      );
    }
    await sleep(SUBMIT_POLL_INTERVAL_MS);
    record = (await deps.store.findByPlanHash(recomputed)) ?? record;
  }

  let accepted: { jobId: string; partnerStatus: PartnerJobStatus };
  try {
    accepted = await submitPartnerPrompt(endpoint, partnerCommand(intent));
  } catch (error) {
    // The receipt stays where it was; the lease ends so the plan can be submitted again.
    await deps.store.releaseSubmission(recomputed);
    throw error;
  }

  const latest = (await deps.store.findByPlanHash(recomputed)) ?? record;
  const updated = await transition(deps.store, latest, (current) => {
    // A reconciliation may have proven something on chain meanwhile: the job is still
    // recorded, but on-chain proof keeps its status.
    const next: ReceiptStatus = current.status === 'prepared' ? 'job_pending' : current.status;
    return {
      change: { status: next, statusReason: null, jobId: accepted.jobId, partnerJobStatus: 'pending', releaseSubmitClaim: true },
      event: {
        trigger: 'submit',
        reason: null,
        jobId: accepted.jobId,
        partnerJobStatus: 'pending',
        txHash: null,
        blockNumber: null,
        chainId: null,
        at: deps.observedAt,
      },
    };
  });
  return submitAnswer(updated, false);
}
