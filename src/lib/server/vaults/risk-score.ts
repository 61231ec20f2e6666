/**
 * The vault risk score: a deterministic structural heuristic from 0 (least structural risk)
 * to 100, built from the vault's composition and terms. It is never a forecast of returns
 * or losses, and never advice.
 *
 * Assets are identified by address through the canonical registry only; a non-canonical
 * address or a ticker at the wrong address makes the composition invalid (it is not scored).
 */
import { z } from 'zod';
import { SvcError, type ErrorIssue } from '../errors';
import { checkCanonical, USDG, type RegistryAsset } from '../registry';
import { bpsField, resolveFeeRates, FEE_SCHEDULE } from './fees';

/** A vault's deposit lockup in seconds: at most a year. */
export const lockupSecondsField = z
  .number()
  .int()
  .min(0)
  .max(365 * 24 * 3600);

export const RISK_POLICY_VERSION = 'svc-vault-risk-score-1.0.0';

export const vaultAllocationSchema = z.object({
  tokenAddress: z.string().describe('the token address on chain 4663 (the identity)'),
  ticker: z.string().max(16).optional().describe('display only; must match the address when given'),
  weightBps: z.number().int().min(1).max(10000),
});

export const vaultCompositionSchema = z.object({
  allocations: z
    .array(vaultAllocationSchema)
    .min(1)
    .max(20)
    .describe('holdings with weights in bps summing to exactly 10000; USDG is the cash reserve'),
  performanceFeeBps: bpsField.optional(),
  creatorVerified: z.boolean().optional(),
  lockupSeconds: lockupSecondsField.optional(),
});
export type VaultComposition = z.infer<typeof vaultCompositionSchema>;

interface ResolvedAllocation {
  asset: RegistryAsset;
  weightBps: number;
}

/** Resolves every allocation through the registry; invalid compositions are refused with all issues. */
export function resolveComposition(composition: VaultComposition, path = ''): ResolvedAllocation[] {
  const issues: ErrorIssue[] = [];
  const resolved: ResolvedAllocation[] = [];
  const seen = new Set<string>();
  composition.allocations.forEach((a, i) => {
    const at = `${path}allocations.${i}`;
    const check = checkCanonical(a.ticker, a.tokenAddress);
    if (check.status === 'malformed_address') {
      issues.push({ code: 'ADDRESS_MALFORMED', message: 'expected 0x followed by 40 hex digits', path: `${at}.tokenAddress` });
    } else if (check.status === 'unknown_address') {
      issues.push({
        code: 'NONCANONICAL_ASSET',
        message: 'no canonical asset lives at this address on chain 4663',
        path: `${at}.tokenAddress`,
      });
    } else if (check.status === 'ticker_address_mismatch') {
      issues.push({
        code: 'TICKER_ADDRESS_MISMATCH',
        message: `${check.asset.ticker} is canonical only at ${check.asset.address}`,
        path: `${at}.tokenAddress`,
      });
    } else {
      if (seen.has(check.asset.address)) {
        issues.push({ code: 'DUPLICATE_ALLOCATION', message: `${check.asset.ticker} appears more than once`, path: `${at}.tokenAddress` });
      }
      seen.add(check.asset.address);
      resolved.push({ asset: check.asset, weightBps: a.weightBps });
    }
  });
  const sum = composition.allocations.reduce((s, a) => s + a.weightBps, 0);
  if (sum !== 10000) {
    issues.push({ code: 'WEIGHTS_SUM', message: `weights sum to ${sum} bps; they must sum to exactly 10000`, path: `${path}allocations` });
  }
  if (issues.length) {
    throw new SvcError('VAULT_COMPOSITION_INVALID', 'The vault composition is not valid; nothing was scored', { issues });
  }
  return resolved;
}

export interface CompositionProfile {
  holdingCount: number;
  maxSingleWeightBps: number;
  maxSingleWeightTicker: string | null;
  cashReserveBps: number;
  stockExposureBps: number;
  etfExposureBps: number;
  otherExposureBps: number;
}

export function profileComposition(resolved: ResolvedAllocation[]): CompositionProfile {
  const nonCash = resolved.filter((r) => r.asset.address !== USDG.address);
  const top = [...nonCash].sort((a, b) => b.weightBps - a.weightBps || a.asset.ticker.localeCompare(b.asset.ticker))[0];
  const sumKind = (kind: RegistryAsset['kind']) => resolved.filter((r) => r.asset.kind === kind).reduce((s, r) => s + r.weightBps, 0);
  return {
    holdingCount: nonCash.length,
    maxSingleWeightBps: top?.weightBps ?? 0,
    maxSingleWeightTicker: top?.asset.ticker ?? null,
    cashReserveBps: resolved.filter((r) => r.asset.address === USDG.address).reduce((s, r) => s + r.weightBps, 0),
    stockExposureBps: sumKind('stock'),
    etfExposureBps: sumKind('etf'),
    otherExposureBps: sumKind('wrapped_native'),
  };
}

/** Below this USDG reserve the cash component starts to count. */
const TARGET_CASH_RESERVE_BPS = 1000;

export interface RiskComponent {
  id: 'concentration' | 'equity_exposure' | 'cash_reserve' | 'diversification' | 'fee_incentive' | 'lockup';
  points: number;
  maxPoints: number;
  explanation: string;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Scores a vault composition and its terms. */
export function scoreVaultRisk(input: VaultComposition) {
  const resolved = resolveComposition(input);
  const rates = resolveFeeRates({ performanceFeeBps: input.performanceFeeBps, creatorVerified: input.creatorVerified });
  const p = profileComposition(resolved);
  const components: RiskComponent[] = [];

  const concentration = round1((30 * Math.max(0, p.maxSingleWeightBps - 1000)) / 9000);
  components.push({
    id: 'concentration',
    points: concentration,
    maxPoints: 30,
    explanation: p.maxSingleWeightTicker
      ? `The largest single holding is ${p.maxSingleWeightTicker} at ${p.maxSingleWeightBps} bps; points start above 1000 bps.`
      : 'The vault holds only the USDG cash reserve.',
  });

  // Single stocks count fully, ETFs (already diversified) and wrapped ether at half.
  const equity = round1((25 * (p.stockExposureBps + 0.5 * (p.etfExposureBps + p.otherExposureBps))) / 10000);
  components.push({
    id: 'equity_exposure',
    points: equity,
    maxPoints: 25,
    explanation: `Single-stock tokens ${p.stockExposureBps} bps, ETF tokens ${p.etfExposureBps} bps, other tokens ${p.otherExposureBps} bps.`,
  });

  const cash = round1((15 * Math.max(0, TARGET_CASH_RESERVE_BPS - p.cashReserveBps)) / TARGET_CASH_RESERVE_BPS);
  components.push({
    id: 'cash_reserve',
    points: cash,
    maxPoints: 15,
    explanation: `The USDG cash reserve is ${p.cashReserveBps} bps; points count below ${TARGET_CASH_RESERVE_BPS} bps.`,
  });

  const diversification = p.holdingCount === 0 ? 0 : p.holdingCount === 1 ? 15 : p.holdingCount === 2 ? 10 : p.holdingCount <= 4 ? 6 : 2;
  components.push({
    id: 'diversification',
    points: diversification,
    maxPoints: 15,
    explanation: `${p.holdingCount} non-cash holding(s).`,
  });

  const fee = round1((10 * rates.performanceFeeBps) / FEE_SCHEDULE.performanceFee.verifiedCreatorCapBps);
  components.push({
    id: 'fee_incentive',
    points: fee,
    maxPoints: 10,
    explanation: `A performance fee of ${rates.performanceFeeBps} bps; a higher fee gives the creator a stronger incentive to take risk.`,
  });

  const lockupDays = (input.lockupSeconds ?? 0) / 86400;
  const lockup = round1(Math.min(5, lockupDays));
  components.push({
    id: 'lockup',
    points: lockup,
    maxPoints: 5,
    explanation: input.lockupSeconds ? `Deposits are locked for ${input.lockupSeconds} seconds.` : 'No lockup.',
  });

  const total = round1(
    Math.min(
      100,
      components.reduce((s, c) => s + c.points, 0),
    ),
  );
  const band: 'lower' | 'moderate' | 'elevated' = total < 34 ? 'lower' : total < 67 ? 'moderate' : 'elevated';
  return {
    policyVersion: RISK_POLICY_VERSION,
    score: {
      total,
      band,
      scale: '0 (least structural risk) to 100 (most)',
      explanation: `Structural risk ${band} (${total}/100): concentration, equity exposure, cash reserve, diversification, fee incentive and lockup.`,
    },
    components,
    profile: p,
    assets: resolved.map((r) => ({ ticker: r.asset.ticker, tokenAddress: r.asset.address, kind: r.asset.kind, weightBps: r.weightBps })),
    disclaimers: [
      'A structural heuristic of composition and terms; it is not a forecast of returns or losses.',
      'Not investment advice. No order is placed and no deposit is prepared by this score.',
    ],
  };
}
export type VaultRiskScore = ReturnType<typeof scoreVaultRisk>;

const componentSchema = z.object({
  id: z.enum(['concentration', 'equity_exposure', 'cash_reserve', 'diversification', 'fee_incentive', 'lockup']),
  points: z.number(),
  maxPoints: z.number(),
  explanation: z.string(),
});

export const compositionProfileSchema = z.object({
  holdingCount: z.number().int(),
  maxSingleWeightBps: z.number().int(),
  maxSingleWeightTicker: z.string().nullable(),
  cashReserveBps: z.number().int(),
  stockExposureBps: z.number().int(),
  etfExposureBps: z.number().int(),
  otherExposureBps: z.number().int(),
});

export const vaultRiskScoreSchema = z.object({
  policyVersion: z.string(),
  score: z.object({
    total: z.number().min(0).max(100),
    band: z.enum(['lower', 'moderate', 'elevated']),
    scale: z.string(),
    explanation: z.string(),
  }),
  components: z.array(componentSchema),
  profile: compositionProfileSchema,
  assets: z.array(z.object({ ticker: z.string(), tokenAddress: z.string(), kind: z.string(), weightBps: z.number().int() })),
  disclaimers: z.array(z.string()),
});
