/**
 * The submit gates (interface 4.5) and `POST /api/stocks/submit-partner-intent/preview`, which
 * runs them and sends nothing: the transmitting submit runs the same function.
 */
import { SvcError } from '../errors';
import { PARTNER_API_URL_PLACEHOLDER, PARTNER_PROMPT_PATH, partnerCommand, publicPartnerApiBase } from './command-pack';
import { normalizeIntent, validateStockIntent, type StockIntentInput } from './intent';
import { computePlanHash } from './plan';
import { requireLane, STOCK_ERROR, type StockLaneConfig } from './lane-config';
import { receiptIdFor } from './receipt-view';

export interface SubmitInput {
  intent: StockIntentInput;
  userConfirmedPlanHash: string;
  /** The `generatedAt` that prepare returned (the request's `nowIso`). */
  planGeneratedAt: Date;
}

/**
 * Submit gates, in order (interface 4.5): 1 lane enabled (503), 2 confirmed plan hash (409),
 * 3 intent revalidated, notional cap included (422), 4 no vault_operator_rebalance (403).
 * Pure: it reads no store and contacts no one, so a caller that must never transmit (the MCP
 * tool) can run the same gates.
 */
export function checkSubmitGates(input: SubmitInput, cfg: StockLaneConfig) {
  const endpoint = requireLane(cfg);

  const planHash = computePlanHash(normalizeIntent(input.intent), input.planGeneratedAt);
  if (planHash !== input.userConfirmedPlanHash.toLowerCase()) {
    throw new SvcError(
      STOCK_ERROR.PLAN_HASH_MISMATCH,
      'userConfirmedPlanHash is not the plan hash of this intent at this nowIso; nothing was sent',
      {
        issues: [
          {
            code: STOCK_ERROR.PLAN_HASH_MISMATCH,
            message: 'send the exact intent you prepared, its planHash, and its generatedAt as nowIso',
            path: 'userConfirmedPlanHash',
          },
        ],
      },
    );
  }

  const { intent, target } = validateStockIntent(input.intent, { maxNotionalUsd: cfg.partner.stockTradeMaxNotionalUsd });

  if (intent.mode === 'vault_operator_rebalance') {
    throw new SvcError(
      STOCK_ERROR.VAULT_REBALANCE_NOT_ALLOWED_HERE,
      'A vault_operator_rebalance intent is never submitted through this lane; it stays a prepared command pack',
      {
        issues: [
          {
            code: STOCK_ERROR.VAULT_REBALANCE_NOT_ALLOWED_HERE,
            message: 'only personal_partner_trade intents may be submitted',
            path: 'intent.mode',
          },
        ],
      },
    );
  }
  return { endpoint, planHash, intent, target };
}

/** The submit gates of interface 4.5, in the order `checkSubmitGates` runs them. */
export const SUBMIT_GATES = ['LANE_ENABLED', 'PLAN_HASH_CONFIRMED', 'INTENT_REVALIDATED', 'NOT_VAULT_REBALANCE'] as const;

/**
 * What submit WOULD send, after the same gates, in the same order (`checkSubmitGates`):
 * the one partner request with the header and environment variable named, never the key.
 * Nothing is sent and nothing is recorded (`transmitted: false`): the MCP submit tool is
 * this function, and the transmitting route runs the same gates.
 */
export function previewStockSubmit(input: SubmitInput, cfg: StockLaneConfig) {
  const { planHash, intent, target } = checkSubmitGates(input, cfg);
  return {
    transmitted: false as const,
    gatesPassed: [...SUBMIT_GATES],
    planHash,
    receiptId: receiptIdFor(planHash),
    intent,
    target: { symbol: target.ticker, tokenAddress: target.address },
    wouldSend: {
      method: 'POST' as const,
      url: `${publicPartnerApiBase(cfg.partner.apiUrl) ?? PARTNER_API_URL_PLACEHOLDER}${PARTNER_PROMPT_PATH}`,
      authHeaderName: 'X-API-Key' as const,
      keySource: 'the server-only PARTNER_API_KEY setting (never in a request or a response)',
      body: { prompt: partnerCommand(intent) },
    },
    receiptStatusIfSent: 'job_pending' as const,
    svcExecutesTrade: false as const,
    partnerContacted: false as const,
    note: 'Nothing was sent to the partner and no receipt was written. POST /api/stocks/submit-partner-intent with the same body sends exactly this request, once per plan; a job id is not a fill.',
  };
}
