/**
 * Acting on a basket: one total USDG amount split over a Coil's assets by their weights, and one
 * stock-token plan per asset made by the lane's own `prepareStockCommand` (validated, hashed,
 * recorded as `prepared`, never placed, the partner never contacted). An asset whose plan the
 * lane refuses is reported with the lane's own issues instead of a plan: nothing is clamped,
 * skipped silently or moved to another asset.
 */
import { SvcError, findSvcError, type ErrorIssue } from '../errors';
import { STOCK_INTENT_INVALID } from './intent';
import { prepareStockCommand, type PrepareDeps } from './prepare';

/** USDG has 6 decimals: amounts are split in these units so that the shares add up exactly. */
const USDG_DECIMALS = 6;
const UNITS_PER_USDG = 10n ** BigInt(USDG_DECIMALS);
const DECIMAL_AMOUNT = /^(0|[1-9]\d{0,17})(\.\d{1,6})?$/;
const TOTAL_BPS = 10_000n;

export const ALLOCATION_RULE =
  "Each asset's share is floor(total × weightBps / 10000) in USDG's 6-decimal units; the units left over are given one each to the assets with the largest remainders (ties: the order of the Coil's assets), so the shares add up to the total exactly.";

export interface BasketAsset {
  ticker: string;
  tokenAddress: string;
  weightBps: number;
}

export interface BasketShare extends BasketAsset {
  amountUsdg: string;
}

/** "25.5" → 25_500_000n; the caller has checked the shape. */
function toUnits(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole ?? '0') * UNITS_PER_USDG + BigInt(fraction.padEnd(USDG_DECIMALS, '0'));
}

/** 25_500_000n → "25.5" (no trailing zeros, no exponent). */
export function fromUnits(units: bigint): string {
  const whole = units / UNITS_PER_USDG;
  const fraction = (units % UNITS_PER_USDG).toString().padStart(USDG_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/**
 * The total split by weight (ALLOCATION_RULE). Refuses, never repairs: a total that is not a
 * positive decimal with at most 6 places, or weights that are not positive integers summing to
 * exactly 10000, is a 422 naming the field.
 */
export function splitBasketAmount(totalAmountUsdg: string, assets: readonly BasketAsset[]): BasketShare[] {
  const issues: ErrorIssue[] = [];
  if (!DECIMAL_AMOUNT.test(totalAmountUsdg) || toUnits(totalAmountUsdg) === 0n) {
    issues.push({
      code: 'BASKET_AMOUNT_INVALID',
      path: 'totalAmountUsdg',
      message: 'expected a positive USDG amount with at most 6 decimal places, e.g. "100" or "250.50"',
    });
  }
  if (assets.length === 0) issues.push({ code: 'BASKET_EMPTY', path: 'coil.assets', message: 'the Coil has no assets to plan' });
  const badWeight = assets.findIndex((a) => !Number.isSafeInteger(a.weightBps) || a.weightBps <= 0);
  if (badWeight >= 0) {
    issues.push({
      code: 'BASKET_WEIGHTS_INVALID',
      path: `coil.assets.${badWeight}.weightBps`,
      message: 'every weight is a positive integer of bps',
    });
  } else if (assets.length > 0 && assets.reduce((sum, a) => sum + a.weightBps, 0) !== 10_000) {
    issues.push({ code: 'BASKET_WEIGHTS_INVALID', path: 'coil.assets', message: 'the weights must add up to exactly 10000 bps (100 %)' });
  }
  if (issues.length)
    throw new SvcError('BASKET_INVALID', 'The basket cannot be split: ' + issues.map((i) => i.message).join('; '), { issues });

  const total = toUnits(totalAmountUsdg);
  const shares = assets.map((a, index) => {
    const exact = total * BigInt(a.weightBps);
    return { index, units: exact / TOTAL_BPS, remainder: exact % TOTAL_BPS };
  });
  let left = total - shares.reduce((sum, s) => sum + s.units, 0n);
  const byRemainder = [...shares].sort((x, y) => (x.remainder === y.remainder ? x.index - y.index : x.remainder > y.remainder ? -1 : 1));
  for (const share of byRemainder) {
    if (left === 0n) break;
    share.units += 1n;
    left -= 1n;
  }
  return assets.map((a, i) => ({
    ticker: a.ticker,
    tokenAddress: a.tokenAddress,
    weightBps: a.weightBps,
    amountUsdg: fromUnits(shares[i]!.units),
  }));
}

export interface BasketPlanInput {
  totalAmountUsdg: string;
  assets: readonly BasketAsset[];
  maxSlippageBps: number;
  userAcknowledgedTokenizedExposureNotDirectStockOwnership?: boolean;
  userAcknowledgedPartnerExecutesTrade?: boolean;
}

type Prepared = Awaited<ReturnType<typeof prepareStockCommand>>;

export type BasketLeg =
  | (BasketShare & {
      status: 'planned';
      planHash: string;
      plan: Prepared['plan'];
      commandPack: Prepared['commandPack'];
      receipt: Prepared['receipt'];
    })
  | (BasketShare & { status: 'not_planned'; reasonCode: string; reasons: ErrorIssue[] });

/**
 * One plan per asset through the lane's prepare (the same validation, plan hash, receipt and
 * command pack as POST /api/stocks/prepare-partner-command), in the Coil's order. A refusal of
 * one asset's intent (422 STOCK_INTENT_INVALID) becomes that asset's `not_planned` reasons; any
 * other failure (the database) fails the whole call, so a partial answer is never mistaken for
 * a complete one.
 */
export async function planBasket(input: BasketPlanInput, deps: PrepareDeps) {
  const shares = splitBasketAmount(input.totalAmountUsdg, input.assets);
  const legs: BasketLeg[] = [];
  for (const share of shares) {
    // Sequential on purpose: each prepare writes its receipt row; a basket has at most a few
    // dozen assets and the rows' order then follows the Coil's.
    try {
      const prepared = await prepareStockCommand(
        {
          mode: 'personal_partner_trade',
          side: 'buy',
          targetSymbol: share.ticker,
          targetTokenAddress: share.tokenAddress,
          inputAsset: 'USDG',
          inputAmount: share.amountUsdg,
          maxSlippageBps: input.maxSlippageBps,
          maxNotionalUsd: deps.config.partner.stockTradeMaxNotionalUsd,
          userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
          userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
        },
        deps,
      );
      legs.push({
        ...share,
        status: 'planned',
        planHash: prepared.planHash,
        plan: prepared.plan,
        commandPack: prepared.commandPack,
        receipt: prepared.receipt,
      });
    } catch (e) {
      const refusal = findSvcError(e);
      if (refusal?.code !== STOCK_INTENT_INVALID) throw e;
      legs.push({ ...share, status: 'not_planned', reasonCode: refusal.code, reasons: refusal.issues });
    }
  }
  const planned = legs.filter((l) => l.status === 'planned');
  const sum = (list: BasketLeg[]) => fromUnits(list.reduce((s, l) => s + toUnits(l.amountUsdg), 0n));
  return {
    generatedAt: deps.now.toISOString(),
    totalAmountUsdg: fromUnits(toUnits(input.totalAmountUsdg)),
    plannedAmountUsdg: sum(planned),
    notPlannedAmountUsdg: sum(legs.filter((l) => l.status === 'not_planned')),
    plannedCount: planned.length,
    notPlannedCount: legs.length - planned.length,
    allocationRule: ALLOCATION_RULE,
    legs,
    partnerContacted: false as const,
    svcExecutesTrade: false as const,
  };
}
