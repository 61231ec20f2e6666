import { z } from 'zod';
import { providerRewardPlanSchema } from '../../../vaults/rewards.schema';
import { planProviderRewards } from '../../../vaults/rewards';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { chainBlockFields } from '../../../x402/lanes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

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
      plan: providerRewardPlanSchema,
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      ...planProviderRewards(input, { now: ctx.answerTime }),
      generatedAt: ctx.answerTime.toISOString(),
      ...vaultChainBlocksFor(ctx.config),
    }),
  );
