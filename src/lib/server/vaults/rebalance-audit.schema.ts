/** The audit of a reported vault rebalance, as POST /api/vaults/rebalance-audit answers it. */
import { z } from 'zod';

const findingSchema = z.object({ code: z.string(), message: z.string(), trade: z.number().int().nullable() });

/** A reported vault rebalance audited against the compiled rebalance policy (auditVaultRebalance). */
export const rebalanceAuditSchema = z.object({
  auditVersion: z.string(),
  vaultSlug: z.string(),
  manifestHash: z.string(),
  policyHash: z.string(),
  driftThresholdBps: z.number().int(),
  evidence: z.literal('reported_unverified'),
  reportedAt: z.string(),
  navUsdg: z.string(),
  turnoverBps: z.number().int().nullable(),
  requiredTurnoverBps: z.number().int().nullable(),
  trades: z.array(
    z.object({
      index: z.number().int(),
      status: z.literal('reported_unverified'),
      tokenAddress: z.string(),
      ticker: z.string().nullable(),
      side: z.enum(['buy', 'sell']),
      notionalUsdg: z.string(),
      slippageBps: z.number().int().nullable(),
      txHash: z.string().nullable(),
      txHashVerified: z.literal(false),
      breaches: z.array(z.string()),
      reportedNote: z.object({ quoted: z.array(z.string()), claimsExecution: z.boolean() }).nullable(),
    }),
  ),
  rebalanceLane: z.object({
    name: z.literal('chunked_rebalance'),
    state: z.literal('inactive_by_owner_policy'),
    reason: z.string(),
  }),
  executionClaimsQuoted: z.number().int(),
  verdict: z.object({
    status: z.enum(['no_breach_found', 'breaches_found']),
    breachCount: z.number().int(),
    breaches: z.array(findingSchema),
    unknowns: z.array(findingSchema),
    meaning: z.string(),
  }),
  disclaimer: z.string(),
});
