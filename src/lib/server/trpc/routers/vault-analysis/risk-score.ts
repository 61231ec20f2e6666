import { z } from 'zod';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { VAULT_RISK_SCORE } from '../../../x402/catalogue';
import { chainBlocks, vaultServiceLaneOf } from '../../../x402/lanes';
import { chainBlockFields } from '../../../x402/lanes';
import { freeRouteMeta } from './meta';

export const riskScoreProcedure = publicProcedure
  .meta(freeRouteMeta(VAULT_RISK_SCORE))
  .input(VAULT_RISK_SCORE.input.extend({ nowIso: nowIsoField }))
  .output(stampedOutput({ riskScore: VAULT_RISK_SCORE.output, generatedAt: z.string(), ...chainBlockFields }))
  .mutation(({ ctx, input }) => {
    const { nowIso: _now, ...composition } = input;
    return {
      riskScore: VAULT_RISK_SCORE.run(composition),
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
    };
  });
