/** `GET /api/stocks/partner-job/{jobId}`: reads the job from the partner and maps it (interface 3.1). */
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { isPlausibleJobId, readPartnerJob } from '../partner/agent-api';
import { requireLane, STOCK_ERROR, type StockLaneConfig } from './lane-config';
import { notePartnerWallet } from './executor';
import { publicReceipt } from './receipt-view';
import { jobStatusTransition, REASON_MEANING, STATUS_MEANING } from './status';
import type { StockReceiptStore } from './store';
import { jobChange, transition } from './transition';

export interface PollDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The answer's clock (`polledAt`). */
  now: Date;
  /** The server's clock: the time of every stored change. */
  serverTime: ServerTime;
}

/** GET /api/stocks/partner-job/{jobId}: reads the job from the partner and maps it (interface 3.1). */
export async function pollPartnerJob(jobId: string, deps: PollDeps) {
  const found = isPlausibleJobId(jobId) ? await deps.store.findByJobId(jobId) : null;
  if (!found) {
    throw new SvcError(STOCK_ERROR.STOCK_JOB_UNKNOWN, 'No receipt of this service records this partner job; the partner was not asked', {
      issues: [{ code: STOCK_ERROR.STOCK_JOB_UNKNOWN, message: 'unknown job id', path: 'jobId' }],
    });
  }
  const endpoint = requireLane(deps.config);
  const job = await readPartnerJob(endpoint, jobId);
  const { partnerStatus } = job;
  const record = await notePartnerWallet(deps.store, found, job);
  const updated = await transition(deps.store, record, (current) => jobChange(current, partnerStatus, 'job_poll', deps.serverTime));
  const kept = jobStatusTransition(updated.status, partnerStatus).reason;
  return {
    jobId,
    partnerJobStatus: partnerStatus,
    receiptStatus: updated.status,
    statusMeaning: STATUS_MEANING[updated.status],
    ...(kept ? { statusKeptReason: kept, statusKeptMeaning: REASON_MEANING[kept] } : {}),
    polledAt: deps.now.toISOString(),
    receipt: publicReceipt(updated),
    svcExecutesTrade: false as const,
  };
}
