/** Service mode and feature flags (spec 4.1 `GET /api/health`): booleans only, never values. */
import type { ServiceConfig } from '../config';
import { laneState } from '../stocks/lane';

export const SERVICE_MODE = 'planning_only' as const;

export function featureFlags(cfg: ServiceConfig) {
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
    sharedRateLimitStore: Boolean(cfg.redisUrl),
    liveOrderPlacement: false as const,
    custodyHeld: false as const,
  };
}

export function serviceHealth(cfg: ServiceConfig) {
  return {
    status: 'ok' as const,
    service: 'strategy-basket-service',
    mode: SERVICE_MODE,
    strategistProvider: cfg.strategistProvider,
    flags: featureFlags(cfg),
  };
}
