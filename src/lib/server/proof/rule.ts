/**
 * The one proof rule (docs/proof-rule.md): whether a mined transaction proves a subject, for
 * every lane that moves a status on chain proof: a stock plan (`stock-trade.ts`), a Mode B
 * vault deposit job and a V1 deposit status (`vault-deposit.ts`). Each lane supplies its
 * terms; the checks below, their names and their order are shared:
 *
 *   mined_after_first_sight     the block is not older than the subject's first sight on this
 *                               server's clock (whole seconds: the block clock's resolution);
 *                               never the caller's `nowIso`, which is not a `ServerTime`
 *   not_proof_of_other_subject  no other subject, of any lane, holds the transaction, unless
 *                               this claim outranks the holder's (below)
 *   <the lane's facts>          what the transaction did on chain, bound to the subject
 *   amount_within_band          the amount moved lies in the subject's own band (a stock buy
 *                               spends its input amount within its slippage, a sell receives it
 *                               within its slippage, a deposit moves exactly its amount)
 *
 * The first failing check ends the judgement; every check that ran is listed, in order.
 *
 * One transaction proves at most one subject: the binding is a row whose key is the
 * transaction hash (db/proof-binding-repository.ts), so the database, not a read, decides a
 * race. A binding says how the transaction was tied to its subject, strongest first:
 *   partner_job      the subject's own partner job names the hash (the partner was asked by
 *                    this server, with its key, about the job this subject handed it);
 *   executor_wallet  the transaction's sender is the subject's known executor (the wallet of
 *                    the signed-in session that prepared or submitted it, or the wallet its
 *                    partner job reports);
 *   caller_claim     a caller supplied the hash, and nothing ties it to who traded: a match by
 *                    token, amount and time only. A subject with a known executor never
 *                    accepts one.
 * A stronger claim takes a transaction from another subject of the same lane that holds it by
 * a weaker one (and the loser is told so), so attaching someone's trade to one's own unbound
 * plan first never keeps it from their bound plan: first-come decides nothing. Equal bindings:
 * the first holder keeps it. Across lanes the first holder keeps it: no transaction passes both
 * lanes' facts (a deposit is sent to the vault and moves no stock token).
 */
import type { ServerTime } from '../clock';

export const PROOF_CHECK_NAMES = [
  'mined_after_first_sight',
  'not_proof_of_other_subject',
  // A stock plan with a known executor: the sender is that wallet, or its partner job names the transaction.
  'sent_by_executor',
  // A stock trade's facts (stock-trade.ts).
  'moves_target_token',
  'target_leg_by_sender',
  'usdg_leg_by_sender',
  // A reverted stock trade: the partner job names it, or its calldata carries the plan.
  'tied_to_subject',
  // A vault deposit's facts (vault-deposit.ts).
  'tx_succeeded',
  'sent_to_vault',
  'vault_deposit_event',
  'credits_receiver',
  'amount_within_band',
] as const;
export type ProofCheckName = (typeof PROOF_CHECK_NAMES)[number];

export interface ProofCheck {
  check: ProofCheckName;
  passed: boolean;
}

/** Strongest first (`bindingOutranks`). */
export const PROOF_BINDINGS = ['partner_job', 'executor_wallet', 'caller_claim'] as const;
export type ProofBinding = (typeof PROOF_BINDINGS)[number];

export const PROOF_BINDING_MEANING: Record<ProofBinding, string> = {
  partner_job: "the subject's own partner job names this transaction",
  executor_wallet:
    "the transaction's sender is the wallet known to trade for this subject (its signed-in owner, or the wallet its partner job reports)",
  caller_claim:
    'a match by token, amount and time, not tied to who traded: a caller supplied this transaction hash and it fits the terms, but nothing ties its sender to the subject',
};

export type SubjectLane = 'stock_plan' | 'vault_deposit_job';

export interface SubjectRef {
  lane: SubjectLane;
  id: string;
}

/** Who holds a transaction as its proof, and how it was bound. */
export interface ProofHolder extends SubjectRef {
  binding: ProofBinding;
}

/** A subject's claim on one transaction. */
export interface ProofClaim {
  subject: SubjectRef;
  /** The server's clock when it first saw the subject; null for a status with no stored subject. */
  firstSeenAt: ServerTime | null;
  binding: ProofBinding;
  /** The current holder of the transaction (null: free); undefined for a status that binds nothing. */
  holder: ProofHolder | null | undefined;
}

/**
 * Where a claim stands against the transaction's holder: `free` (nobody holds it), `own` (the
 * subject already does), `takes_over` (another subject of the same lane holds it by a weaker
 * binding), `held_by_other` (refused).
 */
export type ClaimStanding = 'free' | 'own' | 'takes_over' | 'held_by_other';

export function bindingOutranks(challenger: ProofBinding, holder: ProofBinding): boolean {
  return PROOF_BINDINGS.indexOf(challenger) < PROOF_BINDINGS.indexOf(holder);
}

/** The bindings `challenger` outranks: what a takeover or a strengthening may replace. */
export function bindingsWeakerThan(challenger: ProofBinding): ProofBinding[] {
  return PROOF_BINDINGS.filter((b) => bindingOutranks(challenger, b));
}

export function claimStanding(claim: Pick<ProofClaim, 'subject' | 'binding'>, holder: ProofHolder | null): ClaimStanding {
  if (!holder) return 'free';
  if (holder.lane === claim.subject.lane && holder.id === claim.subject.id) return 'own';
  if (holder.lane === claim.subject.lane && bindingOutranks(claim.binding, holder.binding)) return 'takes_over';
  return 'held_by_other';
}

/** The checks of one judgement, in the order they ran. */
export class ProofRun {
  readonly checks: ProofCheck[] = [];

  /** Records a check and returns whether it passed. */
  check(name: ProofCheckName, passed: boolean): boolean {
    this.checks.push({ check: name, passed });
    return passed;
  }
}

/** Whole seconds, the block clock's resolution: a block in the same second as the first sight counts. */
export function minedAfter(blockTimestampSeconds: number, firstSeenAt: ServerTime): boolean {
  return blockTimestampSeconds >= Math.floor(firstSeenAt.getTime() / 1000);
}

/**
 * The two shared checks every claim starts with. Returns the standing when both passed (or did
 * not apply), or the name of the one that failed.
 */
export function checkClaim(
  run: ProofRun,
  blockTimestampSeconds: number,
  claim: ProofClaim,
): { failed: 'mined_after_first_sight' | 'not_proof_of_other_subject' } | { standing: ClaimStanding | null } {
  if (claim.firstSeenAt && !run.check('mined_after_first_sight', minedAfter(blockTimestampSeconds, claim.firstSeenAt)))
    return { failed: 'mined_after_first_sight' };
  if (claim.holder === undefined) return { standing: null };
  const standing = claimStanding(claim, claim.holder);
  if (!run.check('not_proof_of_other_subject', standing !== 'held_by_other')) return { failed: 'not_proof_of_other_subject' };
  return { standing };
}

/** An inclusive band of amounts in base units. */
export interface AmountBand {
  min: bigint;
  max: bigint;
}

export function withinBand(amount: bigint, band: AmountBand): boolean {
  return amount >= band.min && amount <= band.max;
}

/** Exactly `amount`: a deposit's band. */
export function exactBand(amount: bigint): AmountBand {
  return { min: amount, max: amount };
}

/**
 * `amount` within `slippageBps` either way, rounded inward; `ceiling` caps the top (a buy never
 * spends more than its input amount, whatever the slippage).
 */
export function slippageBand(amount: bigint, slippageBps: number, ceiling?: bigint): AmountBand {
  const bps = BigInt(slippageBps);
  const min = (amount * (10_000n - bps) + 9_999n) / 10_000n;
  const max = (amount * (10_000n + bps)) / 10_000n;
  return { min, max: ceiling !== undefined && ceiling < max ? ceiling : max };
}

/** Who holds a transaction as its proof, read from the store (any lane). */
export interface ProofHolderReader {
  holderOf(txHash: string): Promise<ProofHolder | null>;
}

/**
 * A write that would bind a transaction another subject holds: the store's unique key decided
 * (one transaction proves at most one subject), so concurrent writers have one winner.
 */
export class ProofTransactionTakenError extends Error {
  constructor(readonly txHash: string) {
    super('this transaction is already the proof of another subject');
    this.name = 'ProofTransactionTakenError';
  }
}
