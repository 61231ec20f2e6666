/**
 * Free vault analysis (family `vaults`): the fee calculation, the vault risk score and the
 * side-by-side comparison that never recommends a vault. The same domain functions are sold
 * through x402 as paid vault services (routers/x402.ts).
 */
import { z } from 'zod';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { calculateVaultFees, feeScheduleSchema, FEE_SCHEDULE, vaultFeeCalculationSchema, vaultFeeInputSchema } from '../../vaults/fees';
import { scoreVaultRisk, vaultCompositionSchema, vaultRiskScoreSchema } from '../../vaults/risk-score';
import { compareVaultsWithoutRecommendation, vaultComparisonInputSchema, vaultComparisonSchema } from '../../vaults/compare';
import { chainBlocks, vaultServiceLaneOf } from '../../x402/lanes';
import { chainBlockFields } from './x402-shapes';


export const vaultAnalysisRouter = router({
  calculateFees: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_calculate_vault_fees',
      inputErrorCode: 'FEE_CONFIG_SHAPE',
      openapi: rest('POST', '/vaults/fees/calculate', 'Vault fees at a NAV reading: performance fee, protocol share, creator share', {
        description:
          'No management, entry or exit fee. A performance fee (default 1000 bps, cap 1000 bps, 2000 bps for verified creators) on profit above the high-water mark only; the protocol takes its share (default 1000 bps, at most 2000 bps) out of the creator fee. Amounts are USDG with 6 decimals, rounded down. A rate above its cap is refused (422 PERF_FEE_CAP / PROTOCOL_SHARE_CAP), never clamped.',
      }),
    })
    .input(vaultFeeInputSchema.extend({ nowIso: nowIsoField }))
    .output(stampedOutput({ feeSchedule: feeScheduleSchema, calculation: vaultFeeCalculationSchema, generatedAt: z.string(), ...chainBlockFields }))
    .mutation(({ ctx, input }) => {
      const { nowIso: _now, ...feeInput } = input;
      return {
        feeSchedule: FEE_SCHEDULE,
        calculation: calculateVaultFees(feeInput),
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
      };
    }),

  riskScore: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_score_vault_risk',
      inputErrorCode: 'VAULT_COMPOSITION_SHAPE',
      openapi: rest('POST', '/vaults/risk-score', 'Structural 0-100 risk score of a vault composition and its terms', {
        description:
          'Allocations are canonical token addresses on chain 4663 with weights summing to exactly 10000 bps (USDG is the cash reserve). Scored from concentration, equity exposure, cash reserve, diversification, fee incentive and lockup; a heuristic, not a forecast. A non-canonical address, a ticker at the wrong address or a wrong weight sum is 422 VAULT_COMPOSITION_INVALID with issues.',
      }),
    })
    .input(vaultCompositionSchema.extend({ nowIso: nowIsoField }))
    .output(stampedOutput({ riskScore: vaultRiskScoreSchema, generatedAt: z.string(), ...chainBlockFields }))
    .mutation(({ ctx, input }) => {
      const { nowIso: _now, ...composition } = input;
      return {
        riskScore: scoreVaultRisk(composition),
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
      };
    }),

  compare: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_compare_vaults_without_recommendation',
      inputErrorCode: 'VAULT_COMPARISON_SHAPE',
      openapi: rest('POST', '/vaults/compare', 'Two to five vaults side by side, never ranked and never recommended', {
        description:
          'The same fee and risk facts for each vault, in the order given. `ranked` is always false and `recommendation` always null.',
      }),
    })
    .input(vaultComparisonInputSchema.extend({ nowIso: nowIsoField }))
    .output(stampedOutput({ comparison: vaultComparisonSchema, generatedAt: z.string(), ...chainBlockFields }))
    .mutation(({ ctx, input }) => {
      const { nowIso: _now, ...comparisonInput } = input;
      return {
        comparison: compareVaultsWithoutRecommendation(comparisonInput),
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(vaultServiceLaneOf(ctx.config.facilitator)),
      };
    }),
});
