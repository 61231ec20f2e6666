/**
 * Acting on a basket: one total USDG amount split over a Coil's assets by their weights, and one
 * stock-token plan per asset made by the lane's own `prepareStockCommand` (validated, hashed,
 * recorded as `prepared`, never placed, the partner never contacted). An asset whose plan the
 * lane refuses is reported with the lane's own issues instead of a plan: nothing is clamped,
 * skipped silently or moved to another asset.
 */
import { hashCanonical } from '../canonical';
import { effectiveFuses } from '../coil/audit';
import type { Coil } from '../coil/manifest';
import { SvcError, findSvcError, type ErrorIssue } from '../errors';
import type { StockBasketStore, StoredBasketLeg } from './basket-store';
import { STOCK_INTENT_INVALID, type StockIntentInput } from './intent';
import { prepareStockCommand, type PrepareDeps } from './prepare';
import * as usdg from '../../shared/usdg';

/** Amounts are split in USDG's 6-decimal units (shared/usdg.ts) so that the shares add up exactly. */
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

/**
 * The total split by weight (ALLOCATION_RULE). Refuses, never repairs: a total that is not a
 * positive decimal with at most 6 places, or weights that are not positive integers summing to
 * exactly 10000, is a 422 naming the field.
 */
export function splitBasketAmount(totalAmountUsdg: string, assets: readonly BasketAsset[]): BasketShare[] {
  const issues: ErrorIssue[] = [];
  if (!DECIMAL_AMOUNT.test(totalAmountUsdg) || usdg.units(totalAmountUsdg) === 0n) {
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

  const total = usdg.units(totalAmountUsdg);
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
    amountUsdg: usdg.format(shares[i]!.units),
  }));
}

/** A leg's slippage when neither the request nor the Coil names one (the single plan form's default). */
export const DEFAULT_BASKET_SLIPPAGE_BPS = 100;

/**
 * The Coil's own risk limits that bound its basket (its fuses, coil/audit.ts): the plan's
 * defaults come from them and nothing is ever planned above them.
 */
export interface BasketRiskLimits {
  /** The `maxSlippage` fuse (bps), if the Coil sets one. */
  maxSlippageBps?: number;
  /** The `maxSingleOrderNotional` fuse (USD), if set: each leg's notional cap. */
  maxSingleOrderNotionalUsd?: number;
  /** The `maxTotalNotional` fuse (USD), if set: the basket's total cap. */
  maxTotalNotionalUsd?: number;
}

export function coilRiskLimits(coil: Coil): BasketRiskLimits {
  const limit = (kind: string) => effectiveFuses(coil).fuses.find((f) => f.kind === kind)?.limit ?? undefined;
  return {
    maxSlippageBps: limit('maxSlippage'),
    maxSingleOrderNotionalUsd: limit('maxSingleOrderNotional'),
    maxTotalNotionalUsd: limit('maxTotalNotional'),
  };
}

export interface BasketPlanInput {
  totalAmountUsdg: string;
  assets: readonly BasketAsset[];
  /** Absent: the Coil's own `maxSlippage` fuse, else DEFAULT_BASKET_SLIPPAGE_BPS. Above the Coil's fuse: refused. */
  maxSlippageBps?: number;
  risk: BasketRiskLimits;
  userAcknowledgedTokenizedExposureNotDirectStockOwnership?: boolean;
  userAcknowledgedPartnerExecutesTrade?: boolean;
}

/** The slippage and notional every leg gets, from the request, the Coil's fuses and the service's cap. */
export function basketTerms(input: Pick<BasketPlanInput, 'maxSlippageBps' | 'risk' | 'totalAmountUsdg'>, serviceNotionalCapUsd: number) {
  const issues: ErrorIssue[] = [];
  const coilSlippage = input.risk.maxSlippageBps;
  if (input.maxSlippageBps !== undefined && coilSlippage !== undefined && input.maxSlippageBps > coilSlippage) {
    issues.push({
      code: 'BASKET_SLIPPAGE_ABOVE_COIL_LIMIT',
      path: 'maxSlippageBps',
      message: `the Coil's own risk limits cap slippage at ${coilSlippage} bps; ask for at most that`,
    });
  }
  const total = input.risk.maxTotalNotionalUsd;
  if (
    total !== undefined &&
    DECIMAL_AMOUNT.test(input.totalAmountUsdg) &&
    // A limit too large for a float's units (1e308) bounds nothing; BigInt(Infinity) would throw.
    Number.isFinite(total * 1e6) &&
    usdg.units(input.totalAmountUsdg) > BigInt(Math.floor(total * 1e6))
  ) {
    issues.push({
      code: 'BASKET_TOTAL_ABOVE_COIL_LIMIT',
      path: 'totalAmountUsdg',
      message: `the Coil's own risk limits cap its total notional at ${total} USD`,
    });
  }
  if (issues.length)
    throw new SvcError('BASKET_INVALID', "The basket exceeds its Coil's own risk limits: " + issues.map((i) => i.message).join('; '), {
      issues,
    });
  const single = input.risk.maxSingleOrderNotionalUsd;
  const perLegNotionalCapUsd = single !== undefined ? Math.min(single, serviceNotionalCapUsd) : serviceNotionalCapUsd;
  return {
    maxSlippageBps: input.maxSlippageBps ?? coilSlippage ?? DEFAULT_BASKET_SLIPPAGE_BPS,
    slippageSource:
      input.maxSlippageBps !== undefined
        ? ('request' as const)
        : coilSlippage !== undefined
          ? ('coil' as const)
          : ('service_default' as const),
    perLegNotionalCapUsd,
    notionalCapSource: single !== undefined && single <= serviceNotionalCapUsd ? ('coil' as const) : ('service' as const),
  };
}

/** The buy intent of one leg: the lane's own intent, the same at plan and at submit. */
export function legIntent(share: BasketShare, input: BasketPlanInput, terms: ReturnType<typeof basketTerms>): StockIntentInput {
  return {
    mode: 'personal_partner_trade',
    side: 'buy',
    targetSymbol: share.ticker,
    targetTokenAddress: share.tokenAddress,
    inputAsset: 'USDG',
    inputAmount: share.amountUsdg,
    maxSlippageBps: terms.maxSlippageBps,
    maxNotionalUsd: terms.perLegNotionalCapUsd,
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
    userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
  };
}

/** The basket hash: SHA-256 of the RFC 8785 JSON of the ordered planned legs' `{ planHash, amountUsdg }`. */
export function computeBasketHash(legs: readonly Pick<StoredBasketLeg, 'planHash' | 'amountUsdg'>[]): string {
  return hashCanonical({ basketVersion: BASKET_VERSION, legs: legs.map((l) => ({ planHash: l.planHash, amountUsdg: l.amountUsdg })) });
}

export const BASKET_VERSION = 'svc-stock-basket-1';
export const BASKET_HASH_RULE =
  'hex(SHA-256(UTF-8(JCS({ "basketVersion": "svc-stock-basket-1", "legs": [{ "planHash", "amountUsdg" }, ...] })))) over the planned legs in the Coil\'s order';

type Prepared = Awaited<ReturnType<typeof prepareStockCommand>>;

export type BasketLeg =
  | (BasketShare & {
      status: 'planned';
      planHash: string;
      plan: Prepared['plan'];
      commandPack: Prepared['commandPack'];
      receipt: Prepared['receipt'];
      /** True when the leg was kept from the renewed basket because it already has a partner job. */
      keptWithJob: boolean;
    })
  | (BasketShare & { status: 'not_planned'; reasonCode: string; reasons: ErrorIssue[] });

export interface BasketPlanDeps extends PrepareDeps {
  baskets: StockBasketStore;
}

/**
 * The legs of a renewed basket that keep their plan: those that already have a partner job,
 * when the new split gives their asset the same amount. Every other leg is planned anew.
 */
async function legsWithJobs(renewBasketHash: string | undefined, deps: BasketPlanDeps) {
  const kept = new Map<string, { intent: StockIntentInput; generatedAt: Date }>();
  if (!renewBasketHash) return kept;
  const old = await deps.baskets.find(renewBasketHash.toLowerCase());
  if (!old) throw unknownBasket();
  for (const leg of old.legs) {
    const receipt = await deps.store.findByPlanHash(leg.planHash);
    if (receipt?.jobId)
      kept.set(`${leg.tokenAddress}|${leg.amountUsdg}`, {
        intent: JSON.parse(receipt.intentJson) as StockIntentInput,
        generatedAt: receipt.generatedAt,
      });
  }
  return kept;
}

export function unknownBasket(): SvcError {
  return new SvcError('BASKET_UNKNOWN', 'No basket of this service has this hash; plan it first with POST /api/stocks/plan-basket', {
    issues: [{ code: 'BASKET_UNKNOWN', message: 'unknown basket hash', path: 'basketHash' }],
  });
}

/**
 * One plan per asset through the lane's prepare (the same validation, plan hash, receipt and
 * command pack as POST /api/stocks/prepare-partner-command), in the Coil's order, each bounded
 * by the Coil's own risk limits. A refusal of one asset's intent (422 STOCK_INTENT_INVALID)
 * becomes that asset's `not_planned` reasons; any other failure (the database) fails the whole
 * call, so a partial answer is never mistaken for a complete one. With `renewBasketHash`, a leg
 * of that basket that already has a partner job keeps its plan (re-planning renews only legs
 * without a job). The basket is stored under its hash.
 */
export async function planBasket(input: BasketPlanInput & { renewBasketHash?: string }, deps: BasketPlanDeps) {
  const shares = splitBasketAmount(input.totalAmountUsdg, input.assets);
  const terms = basketTerms(input, deps.config.partner.stockTradeMaxNotionalUsd);
  const kept = await legsWithJobs(input.renewBasketHash, deps);
  const legs: BasketLeg[] = [];
  for (const share of shares) {
    // Sequential on purpose: each prepare writes its receipt row; a basket has at most a few
    // dozen assets and the rows' order then follows the Coil's.
    const keep = kept.get(`${share.tokenAddress}|${share.amountUsdg}`);
    try {
      const prepared = await prepareStockCommand(
        keep?.intent ?? legIntent(share, input, terms),
        keep ? { ...deps, now: keep.generatedAt } : deps,
      );
      legs.push({
        ...share,
        status: 'planned',
        planHash: prepared.planHash,
        plan: prepared.plan,
        commandPack: prepared.commandPack,
        receipt: prepared.receipt,
        keptWithJob: keep !== undefined,
      });
    } catch (e) {
      const refusal = findSvcError(e);
      if (refusal?.code !== STOCK_INTENT_INVALID) throw e;
      legs.push({ ...share, status: 'not_planned', reasonCode: refusal.code, reasons: refusal.issues });
    }
  }
  const planned = legs.filter((l) => l.status === 'planned');
  const storedLegs: StoredBasketLeg[] = planned.map((l) => ({
    ticker: l.ticker,
    tokenAddress: l.tokenAddress,
    weightBps: l.weightBps,
    amountUsdg: l.amountUsdg,
    planHash: l.planHash,
  }));
  const basketHash = computeBasketHash(storedLegs);
  const totalAmountUsdg = usdg.format(usdg.units(input.totalAmountUsdg));
  if (planned.length > 0)
    await deps.baskets.ensure({ basketHash, generatedAt: deps.now, totalAmountUsdg, legs: storedLegs, createdAt: deps.serverTime });
  const sum = (list: BasketLeg[]) => usdg.format(list.reduce((s, l) => s + usdg.units(l.amountUsdg), 0n));
  const plannedAmountUsdg = sum(planned);
  return {
    generatedAt: deps.now.toISOString(),
    basketHash,
    totalAmountUsdg,
    plannedAmountUsdg,
    notPlannedAmountUsdg: sum(legs.filter((l) => l.status === 'not_planned')),
    plannedCount: planned.length,
    notPlannedCount: legs.length - planned.length,
    allocationRule: ALLOCATION_RULE,
    riskLimits: { ...terms, coil: input.risk },
    confirmation:
      planned.length === legs.length
        ? `Confirm basketHash to hand all ${planned.length} plans (${plannedAmountUsdg} USDG in total, at most ${terms.maxSlippageBps} bps slippage each) to the partner with one POST /api/stocks/submit-basket. Nothing is sent until you do, and this service places no order itself.`
        : `${legs.length - planned.length} of ${legs.length} assets could not be planned; the basket cannot be submitted until every asset is planned (change the total or the Coil).`,
    legs,
    partnerContacted: false as const,
    svcExecutesTrade: false as const,
  };
}
