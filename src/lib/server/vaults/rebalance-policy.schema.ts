/** The compiled rebalance policy, as POST /api/vaults/rebalance-policy/compile answers it. */
import { z } from 'zod';
import { vaultFusesSchema } from './manifest';

/** A compiled vault rebalance policy: a preview, never executable (compileRebalancePolicy). */
export const rebalancePolicySchema = z.object({
  policyVersion: z.string(),
  vaultSlug: z.string(),
  manifestHash: z.string(),
  method: z.literal('drift'),
  driftThresholdBps: z.number().int(),
  minTradeUsdg: z.string(),
  targets: z.array(z.object({ ticker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number() })),
  fuses: vaultFusesSchema,
  status: z.literal('preview'),
  executable: z.literal(false),
  requiresUserApproval: z.literal(true),
  lane: z.object({ name: z.literal('chunked_rebalance'), state: z.literal('inactive_by_owner_policy'), reason: z.string() }),
  abortConditions: z.array(z.string()),
  compiledAt: z.string(),
});
