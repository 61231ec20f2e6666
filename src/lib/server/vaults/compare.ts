/**
 * Side-by-side vault comparison that never recommends one: the same facts for each vault,
 * in the order the caller gave them, with no ranking, no winner and no preference. Each
 * column reuses the fee calculation and the risk score, so a comparison can never disagree
 * with either.
 */
import { z } from 'zod';
import { SvcError } from '../errors';
import {
  bpsField,
  FEE_SCHEDULE,
  parseUsdgUnits,
  resolveFeeRates,
  splitPerformanceFee,
  usdgAmount,
  usdgAmountSchema,
  usdgDecimal,
} from './fees';
import { compositionProfileSchema, lockupSecondsField, RISK_POLICY_VERSION, scoreVaultRisk, vaultAllocationSchema } from './risk-score';

export const COMPARISON_VERSION = 'svc-vault-comparison-1.0.0';

/** The profit every column's fee example uses, so the fee rows are comparable. */
const DEFAULT_EXAMPLE_PROFIT_USDG = '1000';

export const vaultComparisonInputSchema = z.object({
  vaults: z
    .array(
      z.object({
        label: z.string().min(1).max(80),
        allocations: z.array(vaultAllocationSchema).min(1).max(20),
        performanceFeeBps: bpsField.optional(),
        creatorVerified: z.boolean().optional(),
        protocolShareBps: bpsField.optional(),
        lockupSeconds: lockupSecondsField.optional(),
      }),
    )
    .min(2)
    .max(5),
  exampleProfitUsdg: usdgDecimal.optional().describe('profit above the high-water mark used for every fee example; default 1000 USDG'),
});
export type VaultComparisonInput = z.infer<typeof vaultComparisonInputSchema>;

export function compareVaultsWithoutRecommendation(input: VaultComparisonInput) {
  const labels = input.vaults.map((v) => v.label.trim());
  const duplicate = labels.find((l, i) => labels.indexOf(l) !== i);
  if (duplicate !== undefined) {
    throw new SvcError('VAULT_COMPARISON_INVALID', 'Each compared vault needs its own label', {
      issues: [
        { code: 'DUPLICATE_LABEL', message: 'two vaults carry the same label', path: `vaults.${labels.lastIndexOf(duplicate)}.label` },
      ],
    });
  }
  const exampleProfit = parseUsdgUnits(input.exampleProfitUsdg ?? DEFAULT_EXAMPLE_PROFIT_USDG);
  const columns = input.vaults.map((v, i) => {
    let risk;
    let rates;
    try {
      rates = resolveFeeRates(v, `vaults.${i}.`);
      risk = scoreVaultRisk(v);
    } catch (error) {
      // Point the caller at the vault that failed, by its position: the message never quotes
      // the caller's label.
      if (error instanceof SvcError) {
        throw new SvcError(error.code, `${error.message} (vault ${i + 1} of the comparison)`, {
          issues: error.issues.map((issue) => ({
            ...issue,
            path: issue.path?.startsWith('vaults.') ? issue.path : `vaults.${i}.${issue.path ?? ''}`,
          })),
        });
      }
      throw error;
    }
    const split = splitPerformanceFee(exampleProfit, rates);
    return {
      position: i + 1,
      label: v.label,
      fees: {
        managementFeeBps: FEE_SCHEDULE.managementFeeBps,
        entryFeeBps: FEE_SCHEDULE.entryFeeBps,
        exitFeeBps: FEE_SCHEDULE.exitFeeBps,
        performanceFeeBps: rates.performanceFeeBps,
        protocolShareBps: rates.protocolShareBps,
        exampleOnProfit: {
          profitAboveHighWaterMark: usdgAmount(split.profitAboveHighWaterMark),
          performanceFee: usdgAmount(split.grossFee),
          protocolShare: usdgAmount(split.protocolShare),
          creatorShare: usdgAmount(split.creatorShare),
        },
      },
      risk: {
        total: risk.score.total,
        band: risk.score.band,
        components: risk.components.map((c) => ({ id: c.id, points: c.points, maxPoints: c.maxPoints })),
      },
      profile: risk.profile,
      lockupSeconds: v.lockupSeconds ?? 0,
    };
  });
  return {
    comparisonVersion: COMPARISON_VERSION,
    riskPolicyVersion: RISK_POLICY_VERSION,
    feeScheduleVersion: FEE_SCHEDULE.scheduleVersion,
    order: 'as_given' as const,
    ranked: false as const,
    recommendation: null,
    columns,
    dimensions: [
      'fees.performanceFeeBps',
      'fees.protocolShareBps',
      'fees.exampleOnProfit',
      'risk.total',
      'risk.components',
      'profile.maxSingleWeightBps',
      'profile.cashReserveBps',
      'profile.stockExposureBps',
      'profile.etfExposureBps',
      'profile.holdingCount',
      'lockupSeconds',
    ],
    disclaimers: [
      'Side-by-side facts only: no vault is recommended, ranked or preferred, and the columns keep the order you gave.',
      'Risk scores are structural heuristics of composition and terms, not forecasts of returns or losses.',
      'Not investment advice. No order is placed and no deposit is prepared by this comparison.',
    ],
  };
}

export const vaultComparisonSchema = z.object({
  comparisonVersion: z.string(),
  riskPolicyVersion: z.string(),
  feeScheduleVersion: z.string(),
  order: z.literal('as_given'),
  ranked: z.literal(false),
  recommendation: z.null(),
  columns: z.array(
    z.object({
      position: z.number().int(),
      label: z.string(),
      fees: z.object({
        managementFeeBps: z.literal(0),
        entryFeeBps: z.literal(0),
        exitFeeBps: z.literal(0),
        performanceFeeBps: z.number().int(),
        protocolShareBps: z.number().int(),
        exampleOnProfit: z.object({
          profitAboveHighWaterMark: usdgAmountSchema,
          performanceFee: usdgAmountSchema,
          protocolShare: usdgAmountSchema,
          creatorShare: usdgAmountSchema,
        }),
      }),
      risk: z.object({
        total: z.number(),
        band: z.enum(['lower', 'moderate', 'elevated']),
        components: z.array(z.object({ id: z.string(), points: z.number(), maxPoints: z.number() })),
      }),
      profile: compositionProfileSchema,
      lockupSeconds: z.number().int(),
    }),
  ),
  dimensions: z.array(z.string()),
  disclaimers: z.array(z.string()),
});
