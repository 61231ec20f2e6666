/** The provider reward plan, as POST /api/vaults/provider-rewards/plan answers it. */
import { z } from 'zod';

/** A fee amount split over the reward cohorts: planned, never funded or claimable (planProviderRewards). */
export const providerRewardPlanSchema = z.object({
  splitVersion: z.string(),
  epochId: z.string().nullable(),
  feeClaimReceiptId: z.string().nullable(),
  feeAmount: z.object({ units: z.string(), usdg: z.string() }),
  amountSource: z.string(),
  legs: z.array(
    z.object({
      cohort: z.enum(['stakers', 'depositors', 'providers', 'treasury']),
      bps: z.number().int(),
      amount: z.object({ units: z.string(), usdg: z.string() }),
      remainderAbsorbed: z.object({ units: z.string(), usdg: z.string() }),
      state: z.literal('planned'),
      recipient: z.null(),
      funded: z.literal(false),
      claimable: z.literal(false),
    }),
  ),
  providerComponents: z.array(
    z.object({ component: z.string(), bps: z.number().int(), amount: z.object({ units: z.string(), usdg: z.string() }) }),
  ),
  providerRollover: z.object({ units: z.string(), usdg: z.string(), to: z.literal('the next provider epoch') }),
  sumsExactly: z.literal(true),
  remainderRule: z.string(),
  state: z.object({ planned: z.literal(true), funded: z.literal(false), claimable: z.literal(false), meaning: z.string() }),
});
