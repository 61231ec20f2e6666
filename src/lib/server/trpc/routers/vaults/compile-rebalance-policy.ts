import { z } from 'zod';
import { vaultFusesSchema } from '../../../vaults/manifest';
import { compileRebalancePolicy } from '../../../vaults/rebalance-policy';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultManifestSchema } from '../../../vaults/manifest';

export const compileRebalancePolicyProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_compile_vault_rebalance_policy',
    openapi: rest(
      'POST',
      '/vaults/rebalance-policy/compile',
      'Compile a vault rebalance policy: never executable, always requires user approval',
    ),
  })
  .input(
    z.object({
      manifest: vaultManifestSchema,
      options: z.object({ driftThresholdBps: z.number().optional(), minTradeUsdg: z.string().max(64).optional() }).optional(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      policy: z.object({
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
      }),
      policyHash: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => ({
    ...compileRebalancePolicy(input.manifest, input.options ?? {}, ctx.answerTime),
    ...vaultChainBlocksFor(ctx.config),
  }));
