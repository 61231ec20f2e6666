import { z } from 'zod';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { prepareVaultPartnerRebalance } from '../../../vaults/partner-rebalance';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { commandPackSchema } from '../../../stocks/command-pack';
import { stockIntentInputErrorCode, stockIntentInputSchema } from '../../../stocks/intent';
import { hardFlagFields, stockPlanSchema } from '../../../stocks/plan';
import { chainBlockFields } from '../../../x402/lanes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const partnerRebalanceProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_prepare_vault_partner_rebalance',
    inputErrorCode: stockIntentInputErrorCode,
    openapi: rest(
      'POST',
      '/vaults/partner-rebalance/prepare',
      'Prepare a vault_operator_rebalance plan for the partner rail (never submittable)',
    ),
  })
  .input(z.object({ intent: stockIntentInputSchema, vaultId: z.string().max(100).optional(), nowIso: nowIsoField }))
  .output(
    stampedOutput({
      planHash: z.string(),
      generatedAt: z.string(),
      plan: stockPlanSchema,
      commandPack: commandPackSchema,
      vault: z.object({ slug: z.string(), address: z.string(), generation: z.enum(['v1', 'v2']) }),
      submittable: z.literal(false),
      submitRefusal: z.object({
        route: z.string(),
        status: z.literal(403),
        code: z.literal('VAULT_REBALANCE_NOT_ALLOWED_HERE'),
        reason: z.string(),
      }),
      rebalanceLane: z.object({ name: z.literal('chunked_rebalance'), state: z.literal('inactive_by_owner_policy'), reason: z.string() }),
      executable: z.literal(false),
      requiresOperatorApproval: z.literal(true),
      svcExecutesTrade: hardFlagFields.svcExecutesTrade,
      partnerContacted: z.literal(false),
      receipt: artifactReceiptOut,
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => {
    const prepared = prepareVaultPartnerRebalance(
      { intent: input.intent, vaultId: input.vaultId },
      { now: ctx.answerTime, notionalCapUsd: ctx.config.partner.stockTradeMaxNotionalUsd },
    );
    return signedAnswer(ctx, {
      ...prepared,
      receipt: buildArtifactReceipt('vault_partner_rebalance', prepared, ctx.answerTime),
      ...vaultChainBlocksFor(ctx.config),
    });
  });
