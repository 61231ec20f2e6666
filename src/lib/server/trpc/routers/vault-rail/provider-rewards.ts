import { z } from 'zod';
import { planProviderRewards } from '../../../vaults/rewards';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { artifactReceiptOut } from '../receipt-shapes';
import { chainBlockFields } from '../../../x402/lanes';

export const providerRewardsProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_plan_provider_rewards',
    inputErrorCode: 'REWARD_PLAN_SHAPE',
    openapi: rest(
      'POST',
      '/vaults/provider-rewards/plan',
      'Split a fee amount over the published reward cohorts: a plan, never funded, never claimable',
    ),
  })
  .input(
    z.object({
      feeAmountUnits: z
        .string()
        .regex(/^[1-9]\d{0,39}$/, 'a positive integer string of USDG 6-decimal units')
        .describe('the fee amount to split, e.g. "1000000" for 1 USDG'),
      epochId: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/)
        .optional(),
      feeClaimReceiptId: z
        .string()
        .regex(/^arcpt_[0-9a-f]{32}$/)
        .optional()
        .describe('the receipt id of the fee claim the amount comes from (recorded, not verified)'),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      plan: z.object({
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
      }),
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => ({
    ...planProviderRewards(input, { now: ctx.answerTime }),
    generatedAt: ctx.answerTime.toISOString(),
    ...vaultChainBlocksFor(ctx.config),
  }));
