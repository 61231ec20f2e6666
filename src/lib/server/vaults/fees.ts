/**
 * The vault fee schedule and the fee calculation. Vaults charge no management, entry or exit
 * fee; the only fee is a performance fee on profit above the high-water mark, of which the
 * protocol takes a share out of the creator's fee (never an extra charge to depositors).
 *
 * Amounts are USDG in 6-decimal integer units (bigint), so no float ever touches money.
 * Caps reject, never clamp: a rate above its cap is an error, not a lower rate.
 */
import { z } from 'zod';
import { SvcError } from '../errors';
import { formatUsdgUnits } from './amount';
import * as usdg from '../../shared/usdg';

export const FEE_SCHEDULE = {
  scheduleVersion: 'svc-vault-fees-1.0.0',
  currency: 'USDG',
  currencyDecimals: 6,
  managementFeeBps: 0,
  entryFeeBps: 0,
  exitFeeBps: 0,
  performanceFee: {
    defaultBps: 1000,
    capBps: 1000,
    verifiedCreatorCapBps: 2000,
    basis: 'profit above the high-water mark only; no fee while the vault is below its previous peak',
  },
  protocolShare: {
    defaultBps: 1000,
    maxBps: 2000,
    basis: "a share of the creator's performance fee, not an extra charge to depositors",
  },
  rounding:
    'USDG 6-decimal units, rounded down; the protocol share is rounded down, so rounding dust stays with the creator and never costs a depositor',
} as const;

/** The largest amount the calculator accepts (well above any single vault). */
export const MAX_USDG_UNITS = usdg.units('1000000000000000');

/** A USDG decimal string: digits, optionally a point and at most 6 decimals. */
export const usdgDecimal = z
  .string()
  .regex(/^\d{1,16}(\.\d{1,6})?$/, 'expected a USDG decimal string with at most 6 decimal places, e.g. "1250.5"');

/** Parses a USDG decimal string (`usdgDecimal`: no sign) into 6-decimal units. */
export function parseUsdgUnits(value: string): bigint {
  const parsed = usdg.parse(value);
  if (!parsed.ok || value.startsWith('-')) throw new SvcError('INPUT_INVALID', 'not a USDG decimal string');
  if (parsed.units > MAX_USDG_UNITS) throw new SvcError('INPUT_INVALID', 'amount too large');
  return parsed.units;
}

export interface UsdgAmount {
  usdg: string;
  units: string;
}

export function usdgAmount(units: bigint): UsdgAmount {
  return { usdg: formatUsdgUnits(units), units: units.toString() };
}

export const usdgAmountSchema = z.object({ usdg: z.string(), units: z.string() });

export const bpsField = z.number().int().min(0).max(10000);

export const vaultFeeInputSchema = z.object({
  highWaterMarkUsdg: usdgDecimal.describe('the vault value at its previous peak (the high-water mark), in USDG'),
  navUsdg: usdgDecimal.describe('the vault value now, before fees, in USDG'),
  performanceFeeBps: bpsField.optional().describe('the vault performance fee; default 1000 bps (10%)'),
  creatorVerified: z.boolean().optional().describe('a verified creator may set up to 2000 bps; default false'),
  protocolShareBps: bpsField.optional().describe("the protocol's share of the creator fee; default 1000 bps, at most 2000"),
});
export type VaultFeeInput = z.infer<typeof vaultFeeInputSchema>;

export interface FeeRates {
  performanceFeeBps: number;
  performanceFeeCapBps: number;
  protocolShareBps: number;
}

/** Resolves and checks the rates; a rate above its cap is refused with the cap named. */
export function resolveFeeRates(
  input: { performanceFeeBps?: number; creatorVerified?: boolean; protocolShareBps?: number },
  path = '',
): FeeRates {
  const performanceFeeBps = input.performanceFeeBps ?? FEE_SCHEDULE.performanceFee.defaultBps;
  const cap = input.creatorVerified ? FEE_SCHEDULE.performanceFee.verifiedCreatorCapBps : FEE_SCHEDULE.performanceFee.capBps;
  const protocolShareBps = input.protocolShareBps ?? FEE_SCHEDULE.protocolShare.defaultBps;
  if (performanceFeeBps > cap) {
    throw new SvcError('PERF_FEE_CAP', `The performance fee of ${performanceFeeBps} bps is above the cap of ${cap} bps`, {
      issues: [
        {
          code: 'PERF_FEE_CAP',
          message: input.creatorVerified
            ? `a verified creator may charge at most ${cap} bps`
            : `at most ${cap} bps; only a verified creator may charge up to ${FEE_SCHEDULE.performanceFee.verifiedCreatorCapBps} bps`,
          path: `${path}performanceFeeBps`,
        },
      ],
    });
  }
  if (protocolShareBps > FEE_SCHEDULE.protocolShare.maxBps) {
    throw new SvcError(
      'PROTOCOL_SHARE_CAP',
      `The protocol share of ${protocolShareBps} bps is above the cap of ${FEE_SCHEDULE.protocolShare.maxBps} bps`,
      {
        issues: [
          {
            code: 'PROTOCOL_SHARE_CAP',
            message: `at most ${FEE_SCHEDULE.protocolShare.maxBps} bps of the creator fee`,
            path: `${path}protocolShareBps`,
          },
        ],
      },
    );
  }
  return { performanceFeeBps, performanceFeeCapBps: cap, protocolShareBps };
}

export interface PerformanceFeeSplit {
  profitAboveHighWaterMark: bigint;
  grossFee: bigint;
  protocolShare: bigint;
  creatorShare: bigint;
}

/** The fee split on a profit, in units: gross rounded down, protocol share rounded down. */
export function splitPerformanceFee(profitAboveHighWaterMark: bigint, rates: FeeRates): PerformanceFeeSplit {
  const profit = profitAboveHighWaterMark > 0n ? profitAboveHighWaterMark : 0n;
  const grossFee = (profit * BigInt(rates.performanceFeeBps)) / 10000n;
  const protocolShare = (grossFee * BigInt(rates.protocolShareBps)) / 10000n;
  return { profitAboveHighWaterMark: profit, grossFee, protocolShare, creatorShare: grossFee - protocolShare };
}

/** The fees a vault owes at a NAV reading against its high-water mark. */
export function calculateVaultFees(input: VaultFeeInput) {
  const rates = resolveFeeRates(input);
  const highWaterMark = parseUsdgUnits(input.highWaterMarkUsdg);
  const nav = parseUsdgUnits(input.navUsdg);
  const split = splitPerformanceFee(nav - highWaterMark, rates);
  const navAfterFees = nav - split.grossFee;
  return {
    scheduleVersion: FEE_SCHEDULE.scheduleVersion,
    currency: FEE_SCHEDULE.currency,
    rates: {
      managementFeeBps: FEE_SCHEDULE.managementFeeBps,
      entryFeeBps: FEE_SCHEDULE.entryFeeBps,
      exitFeeBps: FEE_SCHEDULE.exitFeeBps,
      performanceFeeBps: rates.performanceFeeBps,
      performanceFeeCapBps: rates.performanceFeeCapBps,
      protocolShareBps: rates.protocolShareBps,
    },
    highWaterMark: usdgAmount(highWaterMark),
    nav: usdgAmount(nav),
    aboveHighWaterMark: nav > highWaterMark,
    profitAboveHighWaterMark: usdgAmount(split.profitAboveHighWaterMark),
    managementFee: usdgAmount(0n),
    entryFee: usdgAmount(0n),
    exitFee: usdgAmount(0n),
    performanceFee: usdgAmount(split.grossFee),
    protocolShare: usdgAmount(split.protocolShare),
    creatorShare: usdgAmount(split.creatorShare),
    totalFees: usdgAmount(split.grossFee),
    navAfterFees: usdgAmount(navAfterFees),
    // The peak moves up only when the vault ends above it.
    nextHighWaterMark: usdgAmount(nav > highWaterMark ? navAfterFees : highWaterMark),
    notes: [
      'No management, entry or exit fee applies to vaults.',
      'The performance fee applies only to profit above the high-water mark.',
      "The protocol share is taken out of the creator's performance fee; depositors pay the performance fee only.",
      'This is an arithmetic illustration of the fee schedule, not a forecast of returns.',
    ],
  };
}
export type VaultFeeCalculation = ReturnType<typeof calculateVaultFees>;

export const vaultFeeCalculationSchema = z.object({
  scheduleVersion: z.string(),
  currency: z.literal('USDG'),
  rates: z.object({
    managementFeeBps: z.literal(0),
    entryFeeBps: z.literal(0),
    exitFeeBps: z.literal(0),
    performanceFeeBps: z.number().int(),
    performanceFeeCapBps: z.number().int(),
    protocolShareBps: z.number().int(),
  }),
  highWaterMark: usdgAmountSchema,
  nav: usdgAmountSchema,
  aboveHighWaterMark: z.boolean(),
  profitAboveHighWaterMark: usdgAmountSchema,
  managementFee: usdgAmountSchema,
  entryFee: usdgAmountSchema,
  exitFee: usdgAmountSchema,
  performanceFee: usdgAmountSchema,
  protocolShare: usdgAmountSchema,
  creatorShare: usdgAmountSchema,
  totalFees: usdgAmountSchema,
  navAfterFees: usdgAmountSchema,
  nextHighWaterMark: usdgAmountSchema,
  notes: z.array(z.string()),
});

export const feeScheduleSchema = z
  .object({
    scheduleVersion: z.string(),
    currency: z.literal('USDG'),
    currencyDecimals: z.literal(6),
    managementFeeBps: z.literal(0),
    entryFeeBps: z.literal(0),
    exitFeeBps: z.literal(0),
    performanceFee: z.object({ defaultBps: z.number(), capBps: z.number(), verifiedCreatorCapBps: z.number(), basis: z.string() }),
    protocolShare: z.object({ defaultBps: z.number(), maxBps: z.number(), basis: z.string() }),
    rounding: z.string(),
  })
  .meta({
    id: 'VaultFeeSchedule',
    description:
      'FEE_SCHEDULE: the schedule the fee calculation applies, stated identically by the vault schema, the x402 schema and the fee route',
  });
