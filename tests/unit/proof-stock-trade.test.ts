/**
 * Whether a mined transaction is one plan's trade (the stock lane's terms of the proof rule,
 * proof/stock-trade.ts): every check on its own, both sides of the trade and the USDG band,
 * the revert ties, where a claim stands against the transaction's holder, and the
 * reconciliation's answer when the store's unique transaction hash refuses a second holder in
 * a race.
 */
import { getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import type { MinedTransaction, TokenTransfer } from '../../src/lib/server/stocks/chain-proof';
import { reconcileStockReceipt } from '../../src/lib/server/stocks/reconcile';
import type { StockLaneConfig } from '../../src/lib/server/stocks/lane-config';
import { calldataCarriesPlan, judgeTransaction, planUsdgBand, type PlanTerms } from '../../src/lib/server/proof/stock-trade';
import { units as usdgUnits } from '../../src/lib/shared/usdg';
import type { ProofHolder } from '../../src/lib/server/proof/rule';
import {
  ProofTransactionTakenError,
  type ReceiptChange,
  type StockReceiptRecord,
  type StockReceiptStore,
} from '../../src/lib/server/stocks/store';
import { serverTimeAt } from '../support/clocks';
import { AAPL, NVDA } from '../support/stock-intents';

const SENDER = getAddress('0x00000000000000000000000000000000000000a1');
const POOL = getAddress('0x00000000000000000000000000000000000000b2');
const TX = `0x${'cd'.repeat(32)}`;
const PREPARED_AT = serverTimeAt('2026-05-01T12:00:00.500Z');
const PREPARED_SECOND = Math.floor(PREPARED_AT.getTime() / 1000);

const plan = (over: Partial<PlanTerms> = {}): PlanTerms => ({
  side: 'buy',
  targetTokenAddress: NVDA,
  usdgAddress: USDG.address,
  inputUnits: 25_000_000n,
  maxSlippageBps: 100,
  firstPreparedAt: PREPARED_AT,
  executors: [],
  ...over,
});

const move = (token: string, from: string, to: string, value: bigint): TokenTransfer => ({ token: getAddress(token), from, to, value });

/** The sender pays `usdg` USDG to the pool and receives `shares` of the target from it. */
const buyTx = (usdg: bigint, shares = 10n ** 17n, over: Partial<MinedTransaction> = {}): MinedTransaction => ({
  kind: 'transaction',
  txHash: TX,
  success: true,
  blockNumber: '100',
  blockTimestamp: PREPARED_SECOND + 30,
  from: SENDER,
  to: POOL,
  input: null,
  transfers: [move(USDG.address, SENDER, POOL, usdg), move(NVDA, POOL, SENDER, shares)],
  ...over,
});

const SELF = { lane: 'stock_plan' as const, id: 'srcpt_self' };
/** A caller's claim on a transaction nobody holds. */
const free = { subject: SELF, binding: 'caller_claim' as const, holder: null };
const heldBy = (holder: ProofHolder) => ({ ...free, holder });
const otherPlan = (binding: ProofHolder['binding']): ProofHolder => ({ lane: 'stock_plan', id: 'srcpt_other', binding });
const reasonOf = (j: ReturnType<typeof judgeTransaction>) => (j.outcome === 'no_proof' ? j.reason : j.outcome);

describe('judging a successful transaction against a plan', () => {
  it("confirms a buy: the sender spent the plan's USDG within its slippage and received the target", () => {
    const judged = judgeTransaction(buyTx(25_000_000n), plan(), free);
    expect(judged.outcome).toBe('confirmed');
    expect(judged.checks.every((c) => c.passed)).toBe(true);
    expect(judged.flows).toEqual({ sender: SENDER, targetDelta: (10n ** 17n).toString(), usdgDelta: '-25000000' });
    expect(reasonOf(judgeTransaction(buyTx(24_999_999n), plan({ side: 'swap' }), free))).toBe('confirmed');
  });

  it('names the first check that fails, in order', () => {
    expect(reasonOf(judgeTransaction(buyTx(25_000_001n), plan(), free))).toBe('USDG_SPENT_ABOVE_PLAN');
    expect(reasonOf(judgeTransaction(buyTx(1n, 1n, { blockTimestamp: PREPARED_SECOND - 1 }), plan(), free))).toBe('TX_MINED_BEFORE_PLAN');
    expect(reasonOf(judgeTransaction(buyTx(1n), plan(), heldBy(otherPlan('caller_claim'))))).toBe('TX_PROVES_OTHER_PLAN');
    expect(reasonOf(judgeTransaction(buyTx(1n), plan({ targetTokenAddress: AAPL }), free))).toBe('TX_NOT_FOR_TARGET_TOKEN');
    // A plain transfer of the target to the sender: no USDG left the sender.
    const gift = buyTx(0n, 5n, { transfers: [move(NVDA, POOL, SENDER, 5n)] });
    expect(reasonOf(judgeTransaction(gift, plan(), free))).toBe('SENDER_DID_NOT_SPEND_USDG');
    // The sender sent the target away (a stranger's transfer): not a purchase.
    const transfer = buyTx(0n, 0n, { transfers: [move(NVDA, SENDER, POOL, 10n ** 15n)] });
    expect(reasonOf(judgeTransaction(transfer, plan(), free))).toBe('SENDER_DID_NOT_RECEIVE_TARGET');
  });

  it('counts a block in the same second as the first prepare as after it (the block clock has whole seconds)', () => {
    expect(reasonOf(judgeTransaction(buyTx(25_000_000n, 1n, { blockTimestamp: PREPARED_SECOND }), plan(), free))).toBe('confirmed');
  });

  it("never takes an address other than the sender as the trader: the pool of someone else's sale does not prove a buy", () => {
    // The sender sells the target to the pool; the pool's flows look like a purchase.
    const sale = buyTx(0n, 0n, { transfers: [move(NVDA, SENDER, POOL, 10n ** 17n), move(USDG.address, POOL, SENDER, 25_000_000n)] });
    expect(reasonOf(judgeTransaction(sale, plan(), free))).toBe('SENDER_DID_NOT_RECEIVE_TARGET');
    expect(reasonOf(judgeTransaction(sale, plan({ side: 'sell' }), free))).toBe('confirmed');
  });

  it("a dust trade of the right token proves nothing: a buy spends the plan's amount within its slippage, not 1 micro-USDG", () => {
    const dust = judgeTransaction(buyTx(1n, 1n), plan(), free);
    expect(reasonOf(dust)).toBe('USDG_SPENT_BELOW_PLAN');
    expect(dust.checks.at(-1)).toEqual({ check: 'amount_within_band', passed: false });
    // 100 bps of 25 USDG: from 24.75 up to 25 (a buy never spends more than its input amount).
    expect(planUsdgBand(plan())).toEqual({ min: 24_750_000n, max: 25_000_000n });
    expect(reasonOf(judgeTransaction(buyTx(24_750_000n), plan(), free))).toBe('confirmed');
    expect(reasonOf(judgeTransaction(buyTx(24_749_999n), plan(), free))).toBe('USDG_SPENT_BELOW_PLAN');
    expect(reasonOf(judgeTransaction(buyTx(24_999_999n), plan({ maxSlippageBps: 0 }), free))).toBe('USDG_SPENT_BELOW_PLAN');
  });

  it("bounds a sale's USDG by the plan's amount less and plus its slippage allowance", () => {
    const sale = (usdg: bigint) =>
      buyTx(0n, 0n, { transfers: [move(NVDA, SENDER, POOL, 10n ** 17n), move(USDG.address, POOL, SENDER, usdg)] });
    expect(reasonOf(judgeTransaction(sale(25_250_000n), plan({ side: 'sell' }), free))).toBe('confirmed');
    expect(reasonOf(judgeTransaction(sale(24_750_000n), plan({ side: 'sell' }), free))).toBe('confirmed');
    expect(reasonOf(judgeTransaction(sale(25_250_001n), plan({ side: 'sell' }), free))).toBe('USDG_RECEIVED_ABOVE_PLAN');
    expect(reasonOf(judgeTransaction(sale(24_749_999n), plan({ side: 'sell' }), free))).toBe('USDG_RECEIVED_BELOW_PLAN');
    const noUsdg = buyTx(0n, 0n, { transfers: [move(NVDA, SENDER, POOL, 10n ** 17n)] });
    expect(reasonOf(judgeTransaction(noUsdg, plan({ side: 'sell' }), free))).toBe('SENDER_DID_NOT_RECEIVE_USDG');
    expect(reasonOf(judgeTransaction(buyTx(1n), plan({ side: 'sell' }), free))).toBe('SENDER_DID_NOT_SPEND_TARGET');
  });

  it('reads USDG amounts in 6-decimal units exactly', () => {
    expect(usdgUnits('25')).toBe(25_000_000n);
    expect(usdgUnits('0.000001')).toBe(1n);
    expect(usdgUnits('12.5')).toBe(12_500_000n);
  });
});

describe('judging a reverted transaction', () => {
  const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');
  const swapCall = (amount: bigint, target = NVDA) =>
    `0x12345678${word(USDG.address)}${word(target)}${word(amount.toString(16))}${word('1')}` as Hex;
  const reverted = (input: Hex | null, to: string | null = POOL): MinedTransaction => ({
    ...buyTx(0n),
    success: false,
    transfers: [],
    input,
    to,
  });

  it('is tied to the plan by calldata that carries its parameters, or by the partner naming it', () => {
    expect(judgeTransaction(reverted(swapCall(25_000_000n)), plan(), free).outcome).toBe('reverted');
    expect(reasonOf(judgeTransaction(reverted(swapCall(24_000_000n)), plan(), free))).toBe('REVERTED_TX_NOT_TIED_TO_PLAN');
    expect(reasonOf(judgeTransaction(reverted(swapCall(25_000_000n, AAPL)), plan(), free))).toBe('REVERTED_TX_NOT_TIED_TO_PLAN');
    expect(judgeTransaction(reverted(null), plan(), { ...free, binding: 'partner_job' }).outcome).toBe('reverted');
  });

  it("a call to the target token itself needs the plan's USDG parameters too: a plain transfer is not tied", () => {
    const transfer = `0xa9059cbb${word(SENDER)}${word((10n ** 24n).toString(16))}` as Hex;
    expect(calldataCarriesPlan({ to: NVDA, input: transfer }, plan())).toBe(false);
    expect(
      calldataCarriesPlan({ to: NVDA, input: `0x12345678${word(USDG.address)}${word(25_000_000n.toString(16))}` as Hex }, plan()),
    ).toBe(true);
  });

  it("is still bound to the plan's time and to one plan", () => {
    expect(reasonOf(judgeTransaction({ ...reverted(swapCall(25_000_000n)), blockTimestamp: PREPARED_SECOND - 60 }, plan(), free))).toBe(
      'TX_MINED_BEFORE_PLAN',
    );
    expect(reasonOf(judgeTransaction(reverted(swapCall(25_000_000n)), plan(), heldBy(otherPlan('partner_job'))))).toBe(
      'TX_PROVES_OTHER_PLAN',
    );
  });
});

describe('a plan with a known executor (issue 34, item 1)', () => {
  const EXECUTOR = getAddress('0x00000000000000000000000000000000000000e1');
  const bound = plan({ executors: [EXECUTOR] });

  it("is proven only by a trade its executor sent (sent_by_executor), or one its partner job names; a stranger's matching trade proves nothing", () => {
    const stranger = judgeTransaction(buyTx(25_000_000n), bound, free);
    expect(reasonOf(stranger)).toBe('TX_NOT_SENT_BY_EXECUTOR');
    expect(stranger.checks.at(-1)).toEqual({ check: 'sent_by_executor', passed: false });
    const own = buyTx(25_000_000n, 10n ** 17n, {
      from: EXECUTOR,
      transfers: [move(USDG.address, EXECUTOR, POOL, 25_000_000n), move(NVDA, POOL, EXECUTOR, 10n ** 17n)],
    });
    expect(reasonOf(judgeTransaction(own, bound, { ...free, binding: 'executor_wallet' }))).toBe('confirmed');
    expect(reasonOf(judgeTransaction(buyTx(25_000_000n), bound, { ...free, binding: 'partner_job' }))).toBe('confirmed');
  });

  it("a revert from another wallet is not this plan's, even with the plan's parameters in its calldata", () => {
    const tied = buyTx(0n, 0n, {
      success: false,
      transfers: [],
      to: NVDA,
      input: `0xa9059cbb${'0'.repeat(24)}${USDG.address.slice(2)}${25_000_000n.toString(16).padStart(64, '0')}` as `0x${string}`,
    });
    expect(reasonOf(judgeTransaction(tied, plan(), free))).toBe('reverted');
    expect(reasonOf(judgeTransaction(tied, bound, free))).toBe('TX_NOT_SENT_BY_EXECUTOR');
  });

  it('without an executor the check is not run: the proof is a match by token, amount and time', () => {
    expect(judgeTransaction(buyTx(25_000_000n), plan(), free).checks.map((c) => c.check)).not.toContain('sent_by_executor');
  });
});

describe("where a plan's claim stands against the transaction's holder", () => {
  const standing = (claim: Parameters<typeof judgeTransaction>[2]) => {
    const judged = judgeTransaction(buyTx(25_000_000n), plan(), claim);
    return judged.outcome === 'no_proof' ? judged.reason : judged.standing;
  };

  it("a bound claim (the plan's partner job, then its executor's wallet) takes a weaker claim of another plan; equal or weaker claims never do", () => {
    expect(standing({ ...heldBy(otherPlan('caller_claim')), binding: 'partner_job' })).toBe('takes_over');
    expect(standing({ ...heldBy(otherPlan('caller_claim')), binding: 'executor_wallet' })).toBe('takes_over');
    expect(standing({ ...heldBy(otherPlan('executor_wallet')), binding: 'partner_job' })).toBe('takes_over');
    expect(standing({ ...heldBy(otherPlan('executor_wallet')), binding: 'executor_wallet' })).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing(heldBy(otherPlan('executor_wallet')))).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing({ ...heldBy(otherPlan('partner_job')), binding: 'executor_wallet' })).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing(heldBy(otherPlan('caller_claim')))).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing({ ...heldBy(otherPlan('partner_job')), binding: 'partner_job' })).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing(heldBy(otherPlan('partner_job')))).toBe('TX_PROVES_OTHER_PLAN');
    expect(standing(heldBy({ ...SELF, binding: 'caller_claim' }))).toBe('own');
    expect(standing(free)).toBe('free');
  });

  it('a transaction another lane holds stays there, whatever binds it here (no transaction passes both lanes)', () => {
    const job: ProofHolder = { lane: 'vault_deposit_job', id: 'bvd_1', binding: 'caller_claim' };
    expect(standing({ ...heldBy(job), binding: 'partner_job' })).toBe('TX_PROVES_OTHER_PLAN');
  });
});

describe('reconciliation when the store refuses a second holder of a transaction', () => {
  it('answers no proof (TX_PROVES_OTHER_PLAN) for the plan that lost the race, and writes it back to prepared', async () => {
    let record: StockReceiptRecord = {
      id: 'srcpt_x',
      planHash: 'a'.repeat(64),
      status: 'job_pending',
      statusReason: null,
      intentJson: JSON.stringify({ side: 'buy', inputAmount: '25', maxSlippageBps: 100 }),
      generatedAt: PREPARED_AT,
      firstPreparedAt: PREPARED_AT,
      targetSymbol: 'NVDA',
      targetTokenAddress: NVDA,
      jobId: 'job_1',
      partnerJobStatus: 'pending',
      txHash: null,
      blockNumber: null,
      proofBinding: null,
      sessionWallet: null,
      partnerWallet: null,
      version: 2,
      createdAt: PREPARED_AT,
      updatedAt: PREPARED_AT,
      events: [],
    };
    const writes: ReceiptChange[] = [];
    const store: StockReceiptStore = {
      findByPlanHash: async () => record,
      findByJobId: async () => record,
      findByTxHash: async () => null,
      // The winner is not visible yet when this plan is judged: only the write finds out.
      holderOf: async () => null,
      ensurePrepared: async () => ({ record, created: false }),
      claimSubmission: async () => false,
      releaseSubmission: async () => undefined,
      applyChange: async (_id, version, change) => {
        if (change.txHash) throw new ProofTransactionTakenError(change.txHash);
        writes.push(change);
        record = { ...record, status: change.status, statusReason: change.statusReason, version: version + 1 };
        return record;
      },
      strengthenProofBinding: async () => undefined,
      recordPartnerWallet: async () => undefined,
    };
    const config: StockLaneConfig = { partner: { agentApiEnabled: false, stockTradeMaxNotionalUsd: 500, timeoutMs: 1000 } };
    const answer = await reconcileStockReceipt(
      { planHash: record.planHash, txHash: TX },
      {
        config,
        store,
        now: PREPARED_AT,
        serverTime: PREPARED_AT,
        chain: null,
        readProof: async () => ({ proof: buyTx(25_000_000n), chainIdVerified: true }),
      },
    );
    expect(answer.reconciliation).toMatchObject({ reason: 'TX_PROVES_OTHER_PLAN', status: 'prepared', moved: true });
    expect(answer.reconciliation.proofChecks).toEqual([
      { check: 'mined_after_first_sight', passed: true },
      { check: 'not_proof_of_other_subject', passed: false },
    ]);
    expect(writes).toEqual([{ status: 'prepared', statusReason: 'TX_PROVES_OTHER_PLAN' }]);
  });
});
