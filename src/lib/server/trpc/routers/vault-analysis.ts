/**
 * Free vault analysis (family `vaults`): the fee calculation, the vault risk score and the
 * side-by-side comparison that never recommends a vault. Each procedure is built from its
 * entry in the paid-service catalogue (`x402/catalogue.ts`: route, tool, texts, input, error
 * code, domain function), which sells the same answer through x402 (routers/x402.ts); only the
 * answer's envelope is written here.
 */
import { z } from 'zod';
import { nowIsoField, publicProcedure, rest, router, stampedOutput, type SvcMeta } from '../init';
import { feeScheduleSchema, FEE_SCHEDULE } from '../../vaults/fees';
import { VAULT_COMPARISON, VAULT_FEE_CALCULATION, VAULT_RISK_SCORE, type FreeAnalysisRoute } from '../../x402/catalogue';
import { chainBlocks, vaultServiceLaneOf } from '../../x402/lanes';
import { chainBlockFields } from './x402-shapes';

function freeRouteMeta(analysis: { inputErrorCode: string; free: FreeAnalysisRoute }): SvcMeta {
  const { path, tool, summary, description } = analysis.free;
  return { family: 'vaults', tool, inputErrorCode: analysis.inputErrorCode, openapi: rest('POST', path, summary, { description }) };
}

export const vaultAnalysisRouter = router({
  calculateFees: publicProcedure
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
    }),

  riskScore: publicProcedure
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
    }),

  compare: publicProcedure
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
    }),
});
