/**
 * Service mode and feature flags (interface 4.1 `GET /api/health`): booleans only, never values.
 * Every flag is configuration (what is set or switched on), never a live state: whether a
 * dependency answers is readiness's (system/dependency-checks.ts).
 */
import { laneState, type StockLaneConfig } from '../stocks/lane-config';
import type { StrategistProvider } from '../strategist/types';

/** The settings health reads (a slice of the service configuration; only whether each is set). */
export interface HealthSettings extends StockLaneConfig {
  partner: StockLaneConfig['partner'] & { walletAddress?: string; depositExecutionEnabled: boolean; ownerApprovedWalletDeposit: boolean };
  brokerChainRpcUrl?: string;
  facilitator: { enabled: boolean; apiKey?: string; url?: string };
  redisUrl?: string;
  strategistProvider: StrategistProvider;
}

export const SERVICE_MODE = 'planning_only' as const;

export function featureFlags(cfg: HealthSettings) {
  return {
    partnerApiConfigured: Boolean(cfg.partner.apiUrl && cfg.partner.apiKey),
    partnerAgentApiEnabled: cfg.partner.agentApiEnabled,
    // The one rule the stock lane itself uses (GET /api/stocks/partner-status, submit): the
    // flag, the key and the URL, since the partner cannot be called without its address.
    partnerStockSubmitAvailable: laneState(cfg).submitAvailable,
    partnerbotDepositExecutionEnabled: cfg.partner.depositExecutionEnabled,
    ownerApprovedPartnerWalletDeposit: cfg.partner.ownerApprovedWalletDeposit,
    partnerWalletConfigured: Boolean(cfg.partner.walletAddress),
    brokerChainRpcConfigured: Boolean(cfg.brokerChainRpcUrl),
    facilitatorEnabled: cfg.facilitator.enabled,
    facilitatorConfigured: Boolean(cfg.facilitator.apiKey && cfg.facilitator.url),
    // Configured, not shared: whether Redis answers (and so whether the count is shared right
    // now) is a live check of GET /api/readiness.
    sharedRateLimitStoreConfigured: Boolean(cfg.redisUrl),
    liveOrderPlacement: false as const,
    custodyHeld: false as const,
  };
}

export function serviceHealth(cfg: HealthSettings) {
  return {
    status: 'ok' as const,
    service: 'strategy-basket-service',
    mode: SERVICE_MODE,
    strategistProvider: cfg.strategistProvider,
    flags: featureFlags(cfg),
  };
}
