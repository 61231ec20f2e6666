/** The service's health (system/health.ts) as GET /api/health shows it. */
import { z } from 'zod';

const flagsOut = z.object({
  partnerApiConfigured: z.boolean(),
  partnerAgentApiEnabled: z.boolean(),
  partnerStockSubmitAvailable: z.boolean(),
  partnerbotDepositExecutionEnabled: z.boolean(),
  ownerApprovedPartnerWalletDeposit: z.boolean(),
  partnerWalletConfigured: z.boolean(),
  brokerChainRpcConfigured: z.boolean(),
  facilitatorEnabled: z.boolean(),
  facilitatorConfigured: z.boolean(),
  sharedRateLimitStoreConfigured: z.boolean(),
  liveOrderPlacement: z.literal(false),
  custodyHeld: z.literal(false),
});

export const serviceHealthOut = z.object({
  status: z.literal('ok'),
  service: z.string(),
  mode: z.literal('planning_only'),
  strategistProvider: z.enum(['mock', 'partner', 'partner_or_mock']),
  flags: flagsOut,
});
