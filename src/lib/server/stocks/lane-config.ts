/**
 * The stock lane's configuration and its one "is the partner reachable" rule: what
 * `GET /api/stocks/partner-status` and `GET /api/health` report and what submit and the job
 * poll require. Shared by the use-case modules beside this one.
 */
import { SvcError, type ErrorIssue } from '../errors';
import { BROKER_CHAIN_ID } from '../registry';
import type { PartnerEndpoint } from '../partner/agent-api';
import { HARD_FLAGS } from './plan';

/** The slice of the service configuration the lane reads. */
export interface StockLaneConfig {
  partner: {
    apiUrl?: string;
    apiKey?: string;
    agentApiEnabled: boolean;
    stockTradeMaxNotionalUsd: number;
    timeoutMs: number;
  };
  brokerChainRpcUrl?: string;
}

export const STOCK_ERROR = {
  PLAN_HASH_MISMATCH: 'PLAN_HASH_MISMATCH',
  VAULT_REBALANCE_NOT_ALLOWED_HERE: 'VAULT_REBALANCE_NOT_ALLOWED_HERE',
  LANE_NOT_ENABLED: 'LANE_NOT_ENABLED',
  STOCK_JOB_UNKNOWN: 'STOCK_JOB_UNKNOWN',
  STOCK_RECEIPT_UNKNOWN: 'STOCK_RECEIPT_UNKNOWN',
  RECEIPT_REFERENCE_MISMATCH: 'RECEIPT_REFERENCE_MISMATCH',
  RECEIPT_NOT_SUBMITTABLE: 'RECEIPT_NOT_SUBMITTABLE',
  SUBMIT_IN_PROGRESS: 'SUBMIT_IN_PROGRESS',
  RECONCILE_REFERENCE_REQUIRED: 'RECONCILE_REFERENCE_REQUIRED',
  PLAN_EXPIRED: 'PLAN_EXPIRED',
  PLAN_EXECUTOR_MISMATCH: 'PLAN_EXECUTOR_MISMATCH',
} as const;

// ---------------------------------------------------------------------------------------------
// Lane status

export interface LaneState {
  partnerAgentApiEnabled: boolean;
  partnerApiKeyConfigured: boolean;
  partnerApiUrlConfigured: boolean;
  submitAvailable: boolean;
}

export function laneState(cfg: StockLaneConfig): LaneState {
  const partnerAgentApiEnabled = cfg.partner.agentApiEnabled;
  const partnerApiKeyConfigured = Boolean(cfg.partner.apiKey);
  const partnerApiUrlConfigured = Boolean(cfg.partner.apiUrl);
  return {
    partnerAgentApiEnabled,
    partnerApiKeyConfigured,
    partnerApiUrlConfigured,
    submitAvailable: partnerAgentApiEnabled && partnerApiKeyConfigured && partnerApiUrlConfigured,
  };
}

/** GET /api/stocks/partner-status: booleans and public limits only, never a value of a secret. */
export function partnerLaneStatus(cfg: StockLaneConfig, now: Date) {
  const state = laneState(cfg);
  return {
    lane: 'rail_b_partner_stock_token' as const,
    laneStatus: state.submitAvailable ? ('enabled' as const) : ('not_enabled' as const),
    prepareAvailable: true as const,
    ...state,
    jobPollAvailable: state.submitAvailable,
    chainReconcileConfigured: Boolean(cfg.brokerChainRpcUrl),
    chainId: BROKER_CHAIN_ID,
    notionalCapUsd: cfg.partner.stockTradeMaxNotionalUsd,
    slippageCapBps: 500,
    ...HARD_FLAGS,
    checkedAt: now.toISOString(),
  };
}

export function partnerEndpoint(cfg: StockLaneConfig): PartnerEndpoint | undefined {
  const state = laneState(cfg);
  if (!state.submitAvailable) return undefined;
  return { apiUrl: cfg.partner.apiUrl!, apiKey: cfg.partner.apiKey!, timeoutMs: cfg.partner.timeoutMs };
}

export function requireLane(cfg: StockLaneConfig): PartnerEndpoint {
  const endpoint = partnerEndpoint(cfg);
  if (endpoint) return endpoint;
  const state = laneState(cfg);
  const issues: ErrorIssue[] = [];
  if (!state.partnerAgentApiEnabled) issues.push({ code: 'PARTNER_AGENT_API_DISABLED', message: 'PARTNER_AGENT_API_ENABLED is not true' });
  if (!state.partnerApiKeyConfigured) issues.push({ code: 'PARTNER_API_KEY_MISSING', message: 'PARTNER_API_KEY is not set' });
  if (!state.partnerApiUrlConfigured) issues.push({ code: 'PARTNER_API_URL_MISSING', message: 'PARTNER_API_URL is not set' });
  throw new SvcError(
    STOCK_ERROR.LANE_NOT_ENABLED,
    'The partner stock lane is not enabled on this server; prepare still works and nothing is sent',
    { issues },
  );
}
