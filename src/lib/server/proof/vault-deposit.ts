/**
 * The vault lane's terms of the proof rule (rule.ts): whether a mined transaction is a V1
 * vault deposit for a receiver and an amount (interface 3.3), and, for a Mode B job, whether it
 * is that job's deposit. Pure: the facts read from the chain (vaults/completion.ts) and the
 * claim are passed in.
 *
 * In order, up to the first that fails:
 *   mined_after_first_sight     (a Mode B job) the block is not older than the job's creation
 *   not_proof_of_other_subject  (a Mode B job) no other subject holds the transaction
 *   tx_succeeded                receipt status 0x1
 *   sent_to_vault               the transaction was sent to the vault itself
 *   vault_deposit_event         the vault emitted its own Deposit event
 *   credits_receiver            a Deposit event credits the receiver (the job's; for a raw
 *                               status the one given, else the sender)
 *   amount_within_band          that event moves exactly the amount (when one is known)
 * A raw deposit status has no stored subject: it runs the facts only and binds nothing.
 */
import { checkClaim, exactBand, ProofRun, withinBand, type ClaimStanding, type ProofCheck, type ProofClaim } from './rule';

/** One Deposit event of the vault, as read. */
export interface DepositEventFact {
  receiver: string;
  assets: bigint;
}

export interface DepositFacts {
  success: boolean;
  toIsVault: boolean;
  /** The block's timestamp in seconds; read only when the claim has a first sight. */
  blockTimestamp: number | null;
  events: DepositEventFact[];
}

export interface DepositTerms {
  receiver: string;
  /** Exactly this many 6-decimal units; undefined: the amount is reported, not checked. */
  amountUnits?: bigint;
}

export type DepositJudgement =
  | { proven: true; checks: ProofCheck[]; matching: number; standing: ClaimStanding | null }
  | { proven: false; checks: ProofCheck[]; failed: ProofCheck['check'] };

/** Judges the facts of one mined transaction; `claim` is null for a status that binds nothing. */
export function judgeDeposit(facts: DepositFacts, terms: DepositTerms, claim: ProofClaim | null): DepositJudgement {
  const run = new ProofRun();
  const fail = (failed: ProofCheck['check']): DepositJudgement => ({ proven: false, checks: run.checks, failed });
  let standing: ClaimStanding | null = null;
  if (claim) {
    if (facts.blockTimestamp === null && claim.firstSeenAt) throw new Error('a first sight needs the block timestamp');
    const claimed = checkClaim(run, facts.blockTimestamp ?? 0, claim);
    if ('failed' in claimed) return fail(claimed.failed);
    standing = claimed.standing;
  }
  if (!run.check('tx_succeeded', facts.success)) return fail('tx_succeeded');
  if (!run.check('sent_to_vault', facts.toIsVault)) return fail('sent_to_vault');
  if (!run.check('vault_deposit_event', facts.events.length > 0)) return fail('vault_deposit_event');
  const credited = facts.events.map((e, i) => ({ e, i })).filter(({ e }) => e.receiver === terms.receiver);
  if (!run.check('credits_receiver', credited.length > 0)) return fail('credits_receiver');
  if (terms.amountUnits === undefined) return { proven: true, checks: run.checks, matching: credited[0]!.i, standing };
  const band = exactBand(terms.amountUnits);
  const exact = credited.find(({ e }) => withinBand(e.assets, band));
  if (!run.check('amount_within_band', exact !== undefined)) return fail('amount_within_band');
  return { proven: true, checks: run.checks, matching: exact!.i, standing };
}
