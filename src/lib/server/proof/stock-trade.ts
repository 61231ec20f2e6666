/**
 * The stock lane's terms of the proof rule (rule.ts): whether a mined transaction is the trade
 * of one plan (interface 3.1, 4.5). Pure: the chain facts, the plan's terms and the claim (its
 * first sight, its binding, the transaction's holder) are passed in.
 *
 * A successful transaction proves the plan (`confirmed`) only when, in order:
 *   mined_after_first_sight     its block is not older than the plan's first prepare here
 *   not_proof_of_other_subject  no other subject holds it (or this plan's claim outranks
 *                               another plan's weaker one)
 *   sent_by_executor            when the plan has a known executor: its sender is that wallet,
 *                               or the plan's partner job names it (not run without one: the
 *                               proof is then a match by token, amount and time, `caller_claim`)
 *   moves_target_token          it emitted a Transfer of the plan's target token
 *   target_leg_by_sender        its sender's net balance of the target token went up (buy, swap)
 *                               or down (sell)
 *   usdg_leg_by_sender          the same sender's net USDG balance went down (buy, swap) or up
 *                               (sell)
 *   amount_within_band          buy, swap: USDG spent within the plan's inputAmount less its
 *                               maxSlippageBps, up to the inputAmount itself (6-decimal units);
 *                               sell: USDG received within inputAmount ± maxSlippageBps of it
 * The sender is the address that signed the transaction. Any other address is never taken as
 * the trader: the other side of every trade (a pool, a router) shows the opposite flows, so a
 * stranger's sale would otherwise read as somebody's purchase. The target-token amount is not
 * priced (no price reading is bound to the block): any positive net amount counts; the USDG
 * leg carries the plan's size, so a dust trade of the right token proves nothing.
 *
 * A reverted transaction marks the plan `reverted` only when it passes the two shared checks
 * and is tied to the plan (`tied_to_subject`): the partner's answer for the plan's job names
 * its hash (a `partner_job` binding), or its calldata carries the plan's parameters (the USDG
 * address and the plan's USDG amount in 6-decimal units as ABI words, and the target token
 * either as a word or as the called contract). Anything else is no proof.
 */
import { getAddress, type Hex } from 'viem';
import type { ServerTime } from '../clock';
import type { MinedTransaction } from '../stocks/chain-proof';
import type { StockIntentSide } from '../stocks/intent';
import { REASON, type ReasonCode } from '../stocks/status';
import {
  checkClaim,
  ProofRun,
  slippageBand,
  withinBand,
  type AmountBand,
  type ClaimStanding,
  type ProofCheck,
  type ProofClaim,
} from './rule';

export interface PlanTerms {
  side: StockIntentSide;
  targetTokenAddress: string;
  usdgAddress: string;
  /** The plan's inputAmount in USDG 6-decimal units. */
  inputUnits: bigint;
  maxSlippageBps: number;
  /** The server's clock when it first saw the plan. */
  firstPreparedAt: ServerTime;
  /** The wallets known to trade for the plan (checksummed); empty when none is known. */
  executors: readonly string[];
}

/** What the sender's balances did in the transaction (6-decimal USDG units, target-token base units). */
export interface SenderFlows {
  sender: string;
  /** Net change of the target token (positive: received). */
  targetDelta: string;
  /** Net change of USDG (negative: spent). */
  usdgDelta: string;
}

export type Judgement =
  | { outcome: 'confirmed'; checks: ProofCheck[]; flows: SenderFlows | null; standing: ClaimStanding | null }
  | { outcome: 'reverted'; checks: ProofCheck[]; flows: null; standing: ClaimStanding | null }
  | { outcome: 'no_proof'; reason: ReasonCode; checks: ProofCheck[]; flows: SenderFlows | null };

/** The USDG a plan's trade moves: spent (buy, swap) or received (sell), in 6-decimal units. */
export function planUsdgBand(plan: Pick<PlanTerms, 'side' | 'inputUnits' | 'maxSlippageBps'>): AmountBand {
  return plan.side === 'sell'
    ? slippageBand(plan.inputUnits, plan.maxSlippageBps)
    : slippageBand(plan.inputUnits, plan.maxSlippageBps, plan.inputUnits);
}

function netDelta(tx: MinedTransaction, token: string, holder: string): bigint {
  let delta = 0n;
  for (const t of tx.transfers) {
    if (t.token !== token) continue;
    if (t.to === holder) delta += t.value;
    if (t.from === holder) delta -= t.value;
  }
  return delta;
}

/** The 32-byte ABI words of a call's arguments (after the 4-byte selector). */
function abiWords(input: Hex | null): string[] {
  if (!input || input.length < 10) return [];
  const body = input.slice(10).toLowerCase();
  const words: string[] = [];
  for (let i = 0; i + 64 <= body.length; i += 64) words.push(body.slice(i, i + 64));
  return words;
}

const addressWord = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');
const uintWord = (value: bigint) => value.toString(16).padStart(64, '0');

/** Whether a call carries the plan's parameters (see the module comment). */
export function calldataCarriesPlan(tx: Pick<MinedTransaction, 'to' | 'input'>, plan: PlanTerms): boolean {
  const words = new Set(abiWords(tx.input));
  const namesTarget =
    words.has(addressWord(plan.targetTokenAddress)) || (tx.to !== null && getAddress(tx.to) === getAddress(plan.targetTokenAddress));
  return namesTarget && words.has(addressWord(plan.usdgAddress)) && words.has(uintWord(plan.inputUnits));
}

/**
 * Judges one mined transaction against one plan's claim on it; every check that was reached is
 * listed. The claim's binding is what ties a revert (a `partner_job` binding always does).
 */
export function judgeTransaction(tx: MinedTransaction, plan: PlanTerms, claim: Omit<ProofClaim, 'firstSeenAt'>): Judgement {
  const run = new ProofRun();
  const noProof = (reason: ReasonCode, flows: SenderFlows | null = null): Judgement => ({
    outcome: 'no_proof',
    reason,
    checks: run.checks,
    flows,
  });

  const claimed = checkClaim(run, tx.blockTimestamp, { ...claim, firstSeenAt: plan.firstPreparedAt });
  if ('failed' in claimed)
    return noProof(claimed.failed === 'mined_after_first_sight' ? REASON.TX_MINED_BEFORE_PLAN : REASON.TX_PROVES_OTHER_PLAN);
  const { standing } = claimed;

  if (
    plan.executors.length > 0 &&
    !run.check('sent_by_executor', claim.binding === 'partner_job' || plan.executors.includes(getAddress(tx.from)))
  )
    return noProof(REASON.TX_NOT_SENT_BY_EXECUTOR);

  if (!tx.success) {
    const tied = claim.binding === 'partner_job' || calldataCarriesPlan(tx, plan);
    if (!run.check('tied_to_subject', tied)) return noProof(REASON.REVERTED_TX_NOT_TIED_TO_PLAN);
    return { outcome: 'reverted', checks: run.checks, flows: null, standing };
  }

  const target = getAddress(plan.targetTokenAddress);
  const usdg = getAddress(plan.usdgAddress);
  if (
    !run.check(
      'moves_target_token',
      tx.transfers.some((t) => t.token === target),
    )
  )
    return noProof(REASON.TX_NOT_FOR_TARGET_TOKEN);

  const targetDelta = netDelta(tx, target, tx.from);
  const usdgDelta = netDelta(tx, usdg, tx.from);
  const flows: SenderFlows = { sender: tx.from, targetDelta: targetDelta.toString(), usdgDelta: usdgDelta.toString() };
  const selling = plan.side === 'sell';

  if (!run.check('target_leg_by_sender', selling ? targetDelta < 0n : targetDelta > 0n)) {
    return noProof(selling ? REASON.SENDER_DID_NOT_SPEND_TARGET : REASON.SENDER_DID_NOT_RECEIVE_TARGET, flows);
  }
  if (!run.check('usdg_leg_by_sender', selling ? usdgDelta > 0n : usdgDelta < 0n)) {
    return noProof(selling ? REASON.SENDER_DID_NOT_RECEIVE_USDG : REASON.SENDER_DID_NOT_SPEND_USDG, flows);
  }
  const band = planUsdgBand(plan);
  const moved = selling ? usdgDelta : -usdgDelta;
  if (!run.check('amount_within_band', withinBand(moved, band))) {
    const above = moved > band.max;
    const reason = selling
      ? above
        ? REASON.USDG_RECEIVED_ABOVE_PLAN
        : REASON.USDG_RECEIVED_BELOW_PLAN
      : above
        ? REASON.USDG_SPENT_ABOVE_PLAN
        : REASON.USDG_SPENT_BELOW_PLAN;
    return noProof(reason, flows);
  }
  return { outcome: 'confirmed', checks: run.checks, flows, standing };
}
