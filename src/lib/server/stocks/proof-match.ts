/**
 * Whether a mined transaction is the trade of one plan (interface 3.1, 4.5). The vault lane's
 * deposit matching (vaults/completion.ts) is the model: a transaction is proof of a plan only
 * when what it did on chain is bound to what the plan says, and every check that fails is
 * named. Pure: the chain facts, the plan's terms and what the store and the partner said are
 * passed in.
 *
 * A successful transaction proves the plan (`confirmed`) only when, in order:
 *   mined_after_plan         its block is not older than the plan's first prepare on this
 *                            server (whole seconds: the block clock's resolution)
 *   not_proof_of_other_plan  no other plan already holds it as its proof
 *   moves_target_token       it emitted a Transfer of the plan's target token
 *   target_leg_by_sender     its sender's net balance of the target token went up (buy, swap)
 *                            or down (sell)
 *   usdg_leg_by_sender       the same sender's net USDG balance went down (buy, swap) or up (sell)
 *   usdg_within_plan         buy, swap: USDG spent ≤ the plan's inputAmount (6-decimal units);
 *                            sell: USDG received ≤ inputAmount plus maxSlippageBps of it
 * The sender is the address that signed the transaction. Any other address is never taken as
 * the trader: the other side of every trade (a pool, a router) shows the opposite flows, so a
 * stranger's sale would otherwise read as somebody's purchase. The target-token amount is not
 * priced (no price reading is bound to the block): any positive net amount counts.
 *
 * A reverted transaction marks the plan `reverted` only when mined after the plan, held by no
 * other plan, and tied to the plan (`tied_to_plan`): the partner's answer for the plan's job
 * names its hash, or its calldata carries the plan's parameters (the USDG address and the
 * plan's USDG amount in 6-decimal units as ABI words, and the target token either as a word or
 * as the called contract). Anything else is no proof.
 */
import { getAddress, type Hex } from 'viem';
import type { MinedTransaction } from './chain-proof';
import type { StockIntentSide } from './intent';
import { REASON, type ReasonCode } from './status';

export interface PlanTerms {
  side: StockIntentSide;
  targetTokenAddress: string;
  usdgAddress: string;
  /** The plan's inputAmount in USDG 6-decimal units. */
  inputUnits: bigint;
  maxSlippageBps: number;
  /** The server's clock when it first saw the plan. */
  firstPreparedAt: Date;
}

export interface JudgeContext {
  /** Another receipt already records this transaction as its proof. */
  provesOtherPlan: boolean;
  /** The partner's answer for this plan's job names this transaction hash. */
  partnerJobNamesTx: boolean;
}

export const PROOF_CHECKS = [
  'mined_after_plan',
  'not_proof_of_other_plan',
  'moves_target_token',
  'target_leg_by_sender',
  'usdg_leg_by_sender',
  'usdg_within_plan',
  'tied_to_plan',
] as const;
export type ProofCheckName = (typeof PROOF_CHECKS)[number];

export interface ProofCheck {
  check: ProofCheckName;
  passed: boolean;
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
  | { outcome: 'confirmed'; checks: ProofCheck[]; flows: SenderFlows | null }
  | { outcome: 'reverted'; checks: ProofCheck[]; flows: null }
  | { outcome: 'no_proof'; reason: ReasonCode; checks: ProofCheck[]; flows: SenderFlows | null };

/** USDG amount (a validated decimal string with at most 6 decimals) in 6-decimal units. */
export function usdgUnits(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0');
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

/** Judges one mined transaction against one plan; every check that was reached is listed. */
export function judgeTransaction(tx: MinedTransaction, plan: PlanTerms, context: JudgeContext): Judgement {
  const checks: ProofCheck[] = [];
  const noProof = (reason: ReasonCode, flows: SenderFlows | null = null): Judgement => ({ outcome: 'no_proof', reason, checks, flows });
  const record = (check: ProofCheckName, passed: boolean) => {
    checks.push({ check, passed });
    return passed;
  };

  if (!record('mined_after_plan', tx.blockTimestamp >= Math.floor(plan.firstPreparedAt.getTime() / 1000)))
    return noProof(REASON.TX_MINED_BEFORE_PLAN);
  if (!record('not_proof_of_other_plan', !context.provesOtherPlan)) return noProof(REASON.TX_PROVES_OTHER_PLAN);

  if (!tx.success) {
    const tied = context.partnerJobNamesTx || calldataCarriesPlan(tx, plan);
    if (!record('tied_to_plan', tied)) return noProof(REASON.REVERTED_TX_NOT_TIED_TO_PLAN);
    return { outcome: 'reverted', checks, flows: null };
  }

  const target = getAddress(plan.targetTokenAddress);
  const usdg = getAddress(plan.usdgAddress);
  if (
    !record(
      'moves_target_token',
      tx.transfers.some((t) => t.token === target),
    )
  )
    return noProof(REASON.TX_NOT_FOR_TARGET_TOKEN);

  const targetDelta = netDelta(tx, target, tx.from);
  const usdgDelta = netDelta(tx, usdg, tx.from);
  const flows: SenderFlows = { sender: tx.from, targetDelta: targetDelta.toString(), usdgDelta: usdgDelta.toString() };
  const selling = plan.side === 'sell';

  if (!record('target_leg_by_sender', selling ? targetDelta < 0n : targetDelta > 0n)) {
    return noProof(selling ? REASON.SENDER_DID_NOT_SPEND_TARGET : REASON.SENDER_DID_NOT_RECEIVE_TARGET, flows);
  }
  if (!record('usdg_leg_by_sender', selling ? usdgDelta > 0n : usdgDelta < 0n)) {
    return noProof(selling ? REASON.SENDER_DID_NOT_RECEIVE_USDG : REASON.SENDER_DID_NOT_SPEND_USDG, flows);
  }
  const bound = selling ? (plan.inputUnits * BigInt(10_000 + plan.maxSlippageBps)) / 10_000n : plan.inputUnits;
  const moved = selling ? usdgDelta : -usdgDelta;
  if (!record('usdg_within_plan', moved <= bound))
    return noProof(selling ? REASON.USDG_RECEIVED_ABOVE_PLAN : REASON.USDG_SPENT_ABOVE_PLAN, flows);
  return { outcome: 'confirmed', checks, flows };
}
