import { z } from 'zod';
import { rebalancePolicySchema } from '../../../vaults/rebalance-policy.schema';
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
      policy: rebalancePolicySchema,
      policyHash: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => ({
    ...compileRebalancePolicy(input.manifest, input.options ?? {}, ctx.answerTime),
    ...vaultChainBlocksFor(ctx.config),
  }));
