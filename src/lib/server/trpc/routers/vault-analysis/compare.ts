import { z } from 'zod';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { VAULT_COMPARISON } from '../../../x402/catalogue';
import { chainBlocks, vaultServiceLaneOf } from '../../../x402/lanes';
import { chainBlockFields } from '../../../x402/lanes';
import { freeRouteMeta } from './meta';

export const compareProcedure = publicProcedure
  .meta(freeRouteMeta(VAULT_COMPARISON))
  .input(VAULT_COMPARISON.input.extend({ nowIso: nowIsoField }))
  .output(stampedOutput({ comparison: VAULT_COMPARISON.output, generatedAt: z.string(), ...chainBlockFields }))
  .mutation(({ ctx, input }) => {
    const { nowIso: _now, ...comparisonInput } = input;
    return {
      comparison: VAULT_COMPARISON.run(comparisonInput),
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
    };
  });
