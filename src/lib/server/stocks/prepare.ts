/**
 * `POST /api/stocks/prepare-partner-command`: validates the intent, builds the plan and its
 * command pack and records the receipt in state `prepared`. The partner is never contacted.
 */
import type { ServerTime } from '../clock';
import { canonicalJson } from '../canonical';
import { validateStockIntent, type StockIntentInput } from './intent';
import { buildPlan, computePlanHash, HARD_FLAGS, planExpiresAt, STOCK_PLAN_LIFETIME_SECONDS, type PreparedPlan } from './plan';
import { laneState, type StockLaneConfig } from './lane-config';
import { assertSessionMayUse, publicExecutor, sessionExecutor } from './executor';
import { receiptIdFor } from './receipt-view';
import { STATUS_MEANING } from './status';
import type { StockReceiptStore } from './store';

export interface PrepareDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The request's clock (`nowIso` or the arrival): the plan's `generatedAt`. */
  now: Date;
  /**
   * The server's clock at arrival: the plan's first-prepared time when this server has not
   * seen it yet, and the time of every stored row.
   */
  serverTime: ServerTime;
  /** The wallet of the caller's signed-in session, if any: the plan's executor (executor.ts). */
  sessionWallet?: string | null;
}

/**
 * Validates the intent, builds the plan and its command pack, and records the receipt in
 * state `prepared`. The partner is never contacted.
 */
export async function prepareStockCommand(intentInput: StockIntentInput, deps: PrepareDeps) {
  const { intent, target } = validateStockIntent(intentInput, { maxNotionalUsd: deps.config.partner.stockTradeMaxNotionalUsd });
  const planHash = computePlanHash(intent, deps.now);
  const sessionWallet = sessionExecutor(deps.sessionWallet);
  const { record } = await deps.store.ensurePrepared({
    id: receiptIdFor(planHash),
    planHash,
    intentJson: canonicalJson(intent),
    generatedAt: deps.now,
    firstPreparedAt: deps.serverTime,
    targetSymbol: target.ticker,
    targetTokenAddress: target.address,
    at: deps.serverTime,
    sessionWallet,
  });
  assertSessionMayUse(record, sessionWallet);
  const prepared: PreparedPlan = buildPlan(intent, target, deps.now, {
    notionalCapUsd: deps.config.partner.stockTradeMaxNotionalUsd,
    firstPreparedAt: record.firstPreparedAt,
    partnerApiUrl: deps.config.partner.apiUrl,
    throughThisService: laneState(deps.config).submitAvailable,
  });
  return {
    ...prepared,
    ...HARD_FLAGS,
    partnerContacted: false as const,
    receipt: { receiptId: record.id, status: record.status, statusMeaning: STATUS_MEANING[record.status], ...publicExecutor(record) },
    nextStep:
      deps.serverTime.getTime() > planExpiresAt(record.firstPreparedAt).getTime()
        ? `This plan was first prepared here more than ${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes ago and can no longer be submitted. Prepare the intent again with another nowIso (or none) for a new plan. This service places no order itself.`
        : `Review the command. To hand it to the partner through this service, send the same intent to POST /api/stocks/submit-partner-intent with userConfirmedPlanHash set to planHash and nowIso set to generatedAt, before plan.expiresAt (${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes after this server first prepared the plan). This service places no order itself.`,
  };
}
