import { z } from 'zod';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { feeScheduleSchema, FEE_SCHEDULE } from '../../../vaults/fees';
import { VAULT_FEE_CALCULATION } from '../../../x402/catalogue';
import { chainBlocks, vaultServiceLaneOf } from '../../../x402/lanes';
import { chainBlockFields } from '../../../x402/lanes';
import { freeRouteMeta } from './meta';

export const calculateFeesProcedure = publicProcedure
  .meta(freeRouteMeta(VAULT_FEE_CALCULATION))
  .input(VAULT_FEE_CALCULATION.input.extend({ nowIso: nowIsoField }))
  .output(
    stampedOutput({
      feeSchedule: feeScheduleSchema,
      calculation: VAULT_FEE_CALCULATION.output,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => {
    const { nowIso: _now, ...feeInput } = input;
    return {
      feeSchedule: FEE_SCHEDULE,
      calculation: VAULT_FEE_CALCULATION.run(feeInput),
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
    };
  });
