/**
 * `POST /api/stocks/submit-basket`: hands every leg of a confirmed basket to the partner with
 * one confirmation. Every service-side gate (the lane, each leg's intent against this server's
 * caps and the Coil's limits, each plan hash, each plan's life, its executor) is checked on
 * every leg before any leg is sent: if one fails, nothing is sent and the answer names each
 * failing leg. Then each leg goes through the lane's own submit, so a repeated submit sends no
 * leg twice (a leg with a job replays it), and a leg the partner refuses is reported with its
 * reason without hiding the others.
 */
import { canonicalJson } from '../canonical';
import { SvcError, findSvcError, type ErrorIssue } from '../errors';
import { normalizeIntent, type StockIntentInput } from './intent';
import { requireLane } from './lane-config';
import { assertSessionMayUse, sessionExecutor } from './executor';
import { basketTerms, computeBasketHash, legIntent, splitBasketAmount, unknownBasket, type BasketPlanInput } from './basket';
import type { StockBasketStore, StoredBasketLeg } from './basket-store';
import { planExpiresAt } from './plan';
import { checkSubmitGates } from './submit-gates';
import { submitStockIntent, type SubmitDeps } from './submit';
import type { StockReceiptRecord } from './store';

export interface BasketSubmitInput extends BasketPlanInput {
  userConfirmedBasketHash: string;
}

export interface BasketSubmitDeps extends SubmitDeps {
  baskets: StockBasketStore;
}

interface LegFailure {
  index: number;
  leg: StoredBasketLeg | null;
  code: string;
  message: string;
}

function basketMismatch(message: string): SvcError {
  return new SvcError('BASKET_HASH_MISMATCH', `${message}; nothing was sent`, {
    issues: [
      {
        code: 'BASKET_HASH_MISMATCH',
        message: 'send the exact basket you planned (Coil, total, slippage, acknowledgments) and its basketHash',
        path: 'userConfirmedBasketHash',
      },
    ],
  });
}

/** The gates of one leg, in the single submit's order, then its life and its executor. */
function legGateFailure(index: number, leg: StoredBasketLeg, receipt: StockReceiptRecord, deps: BasketSubmitDeps): LegFailure | null {
  try {
    checkSubmitGates(
      {
        intent: JSON.parse(receipt.intentJson) as StockIntentInput,
        userConfirmedPlanHash: leg.planHash,
        planGeneratedAt: receipt.generatedAt,
      },
      deps.config,
    );
    if (!receipt.jobId) {
      if (receipt.status !== 'prepared')
        return {
          index,
          leg,
          code: 'RECEIPT_NOT_SUBMITTABLE',
          message: `${leg.ticker}: this plan's receipt is ${receipt.status} without a partner job, so it is not handed over; plan the basket again`,
        };
      const expiresAt = planExpiresAt(receipt.firstPreparedAt);
      if (deps.observedAt.getTime() > expiresAt.getTime())
        return {
          index,
          leg,
          code: 'PLAN_EXPIRED',
          message: `${leg.ticker}: this leg's plan expired at ${expiresAt.toISOString()}; plan the basket again (legs with a job are kept)`,
        };
    }
    assertSessionMayUse(receipt, sessionExecutor(deps.sessionWallet));
    return null;
  } catch (error) {
    const refusal = findSvcError(error);
    if (!refusal) throw error;
    const detail = refusal.issues.map((i) => i.message).join('; ');
    return { index, leg, code: refusal.code, message: `${leg.ticker}: ${detail || refusal.message}` };
  }
}

export async function submitBasket(input: BasketSubmitInput, deps: BasketSubmitDeps) {
  requireLane(deps.config);
  const basketHash = input.userConfirmedBasketHash.toLowerCase();
  const basket = await deps.baskets.find(basketHash);
  if (!basket) throw unknownBasket();
  if (computeBasketHash(basket.legs) !== basketHash) throw basketMismatch('The stored basket does not match its hash');

  // The basket intent must be the one planned: the same split and the same terms on every leg.
  const shares = splitBasketAmount(input.totalAmountUsdg, input.assets);
  const terms = basketTerms(input, deps.config.partner.stockTradeMaxNotionalUsd);
  const failures: LegFailure[] = [];
  const pairs: { leg: StoredBasketLeg; receipt: StockReceiptRecord }[] = [];
  for (const [index, share] of shares.entries()) {
    const leg = basket.legs.find((l) => l.tokenAddress === share.tokenAddress);
    if (!leg) {
      failures.push({
        index,
        leg: null,
        code: 'LEG_NOT_PLANNED',
        message: `${share.ticker}: this asset has no plan in the basket; plan the basket again`,
      });
      continue;
    }
    const receipt = await deps.store.findByPlanHash(leg.planHash);
    if (!receipt) {
      failures.push({ index, leg, code: 'STOCK_RECEIPT_UNKNOWN', message: `${leg.ticker}: no receipt for this leg's plan` });
      continue;
    }
    // A kept leg (it has a job) keeps its own terms; any other must be exactly this intent's leg.
    if (
      !receipt.jobId &&
      (leg.amountUsdg !== share.amountUsdg || receipt.intentJson !== canonicalJson(normalizeIntent(legIntent(share, input, terms))))
    )
      throw basketMismatch(`The basket intent does not give ${share.ticker} the leg that was planned`);
    pairs.push({ leg, receipt });
    const failure = legGateFailure(index, leg, receipt, deps);
    if (failure) failures.push(failure);
  }
  if (shares.length !== basket.legs.length && failures.length === 0)
    throw basketMismatch('The basket intent has another number of assets than the planned basket');
  if (failures.length) {
    const issues: ErrorIssue[] = failures.map((f) => ({ code: f.code, message: f.message, path: `legs.${f.index}` }));
    throw new SvcError(
      'BASKET_GATES_FAILED',
      `${failures.length} of ${shares.length} legs fail a gate (${failures.map((f) => f.leg?.ticker ?? shares[f.index]!.ticker).join(', ')}); no leg was sent`,
      { issues },
    );
  }

  // Every gate passed on every leg: each leg now goes through the lane's own submit.
  const legs: Array<
    StoredBasketLeg & {
      outcome: 'submitted' | 'replayed' | 'refused';
      jobId: string | null;
      receiptStatus: StockReceiptRecord['status'];
      refusal: { code: string; message: string } | null;
    }
  > = [];
  for (const { leg, receipt } of pairs) {
    try {
      const answer = await submitStockIntent(
        {
          intent: JSON.parse(receipt.intentJson) as StockIntentInput,
          userConfirmedPlanHash: leg.planHash,
          planGeneratedAt: receipt.generatedAt,
        },
        deps,
      );
      legs.push({
        ...leg,
        outcome: answer.replayed ? ('replayed' as const) : ('submitted' as const),
        jobId: answer.jobId,
        receiptStatus: answer.receiptStatus,
        refusal: null,
      });
    } catch (error) {
      const refusal = findSvcError(error);
      if (!refusal) throw error;
      const latest = await deps.store.findByPlanHash(leg.planHash);
      legs.push({
        ...leg,
        outcome: 'refused' as const,
        jobId: latest?.jobId ?? null,
        receiptStatus: latest?.status ?? receipt.status,
        refusal: { code: refusal.code, message: refusal.message },
      });
    }
  }
  const count = (outcome: string) => legs.filter((l) => l.outcome === outcome).length;
  return {
    basketHash,
    legs,
    submittedCount: count('submitted'),
    replayedCount: count('replayed'),
    refusedCount: count('refused'),
    statusPath: `/api/stocks/baskets/${basketHash}`,
    svcExecutesTrade: false as const,
    note: 'Each submitted leg is one partner job; a job id is not a fill. Nothing is confirmed until a chain 4663 transaction is reconciled for that leg. A repeated submit of this basket sends no leg twice.',
  };
}
