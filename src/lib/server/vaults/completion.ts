/**
 * Deposit completion from proof only (interface 3.2, 3.3). Every call re-reads the chain: chain
 * id first, then the transaction receipt. Whether what was read proves the deposit is the proof
 * rule's (proof/vault-deposit.ts): a confirmed transaction to the vault whose own Deposit event
 * credits the receiver with exactly the amount, and for a Mode B job one mined after the job was
 * created and held by no other subject. A partner job status, an interface message or an
 * earlier answer never counts.
 */
import { decodeEventLog, getAddress, toEventSelector, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { PROOF_BINDINGS, PROOF_CHECK_NAMES, type ProofClaim } from '../proof/rule';
import { judgeDeposit, type DepositJudgement } from '../proof/vault-deposit';
import { DEPOSIT_EVENT } from './abi';
import { checkChain, classifyChainError, READ_FAILURE_TEXT, type ChainReader, type ReadFailureReason } from './chain';
import { address0x, bytes32_0x } from './pack-shapes';
import type { RailAVault } from './registry';

export const DEPOSIT_TOPIC = toEventSelector(DEPOSIT_EVENT);

export interface DepositExpectation {
  vault: RailAVault;
  /** The receiver the deposit must credit; when absent, the transaction's sender (the depositor). */
  receiver?: Address;
  /** The amount in 6-decimal units; when absent, the observed amount is reported, not checked. */
  amountUnits?: bigint;
}

export const txStatusSchema = z.enum(['success', 'reverted', 'pending', 'not_found', 'unknown']);
export type TxStatus = z.infer<typeof txStatusSchema>;

export const observedDepositEventSchema = z.object({
  sender: address0x,
  receiver: address0x,
  assets: z.string(),
  shares: z.string(),
  logIndex: z.number().int(),
});
export type ObservedDepositEvent = z.infer<typeof observedDepositEventSchema>;

/** Declared once: the routes' output schema, with the domain type inferred from it. */
export const depositVerificationSchema = z
  .object({
    /** null when no transaction hash is known yet (e.g. a fresh Mode B job). */
    txHash: bytes32_0x.nullable(),
    checkedAt: z.string(),
    source: z.enum(['eth_getTransactionReceipt', 'none']),
    chainIdVerified: z.boolean(),
    found: z.boolean(),
    txStatus: txStatusSchema,
    blockNumber: z.string().nullable(),
    confirmations: z.string().nullable(),
    from: address0x.nullable(),
    to: address0x.nullable(),
    vaultAddress: address0x,
    toIsVault: z.boolean(),
    depositEvent: observedDepositEventSchema.nullable(),
    expectedReceiver: address0x.nullable(),
    expectedAmountUnits: z.string().nullable(),
    receiverMatches: z.boolean().nullable(),
    amountMatches: z.boolean().nullable(),
    confirmedVaultDeposit: z.boolean(),
    proofChecks: z
      .array(z.object({ check: z.enum(PROOF_CHECK_NAMES), passed: z.boolean() }))
      .describe('each check of the proof rule that ran, in order, up to the first that failed (empty when no mined transaction was read)'),
    proofBinding: z
      .enum(PROOF_BINDINGS)
      .nullable()
      .describe(
        "how the transaction is bound to the Mode B job it proves: partner_job (the job's partner job names it) or caller_claim (a hash given with the request); null when it proves no job",
      ),
    reason: z.string(),
  })
  .meta({
    id: 'DepositVerification',
    description:
      "Re-read on chain at every call (chain id first). confirmedVaultDeposit: a confirmed transaction to the vault emitted the vault's Deposit event for the receiver and amount (for a Mode B job also: mined after the job was created here, and the proof of no other subject)",
  });
export type DepositVerification = z.infer<typeof depositVerificationSchema>;

function base(txHash: Hex | null, expectation: DepositExpectation, now: Date): DepositVerification {
  return {
    txHash,
    checkedAt: now.toISOString(),
    source: 'none',
    chainIdVerified: false,
    found: false,
    txStatus: 'unknown',
    blockNumber: null,
    confirmations: null,
    from: null,
    to: null,
    vaultAddress: expectation.vault.address,
    toIsVault: false,
    depositEvent: null,
    expectedReceiver: expectation.receiver ?? null,
    expectedAmountUnits: expectation.amountUnits?.toString() ?? null,
    receiverMatches: null,
    amountMatches: null,
    confirmedVaultDeposit: false,
    proofChecks: [],
    proofBinding: null,
    reason: '',
  };
}

function unreadable(v: DepositVerification, reason: ReadFailureReason): DepositVerification {
  return { ...v, reason: `Not verified: ${READ_FAILURE_TEXT[reason]}. The deposit is not complete until the chain proves it.` };
}

/** The verification of a job for which no transaction hash is known yet: nothing to prove, so not complete. */
export function noTransactionYet(expectation: DepositExpectation, now: Date, why: string): DepositVerification {
  return { ...base(null, expectation, now), reason: why };
}

/** What a failed check of the proof rule says, in the answer's words. */
function failureReason(judged: Extract<DepositJudgement, { proven: false }>, expectation: DepositExpectation): string {
  switch (judged.failed) {
    case 'mined_after_first_sight':
      return "The transaction was mined before this job was created on this server: it cannot be this job's deposit.";
    case 'not_proof_of_other_subject':
      return 'The transaction is already the proof of another subject (one transaction proves at most one): it does not complete this job.';
    case 'tx_succeeded':
      return 'The transaction reverted (receipt status 0x0): nothing was deposited.';
    case 'sent_to_vault':
      return 'The transaction was not sent to the vault: it is not a vault deposit, whatever events it emitted.';
    case 'vault_deposit_event':
      return 'The transaction to the vault emitted no Deposit event from the vault: it is not a deposit.';
    case 'credits_receiver':
      return expectation.receiver
        ? "The vault's Deposit event credits another receiver than the expected one."
        : "The vault's Deposit event credits another receiver than the depositor (the receiver must be the depositor).";
    default:
      return "The vault's Deposit event carries another amount than the expected one.";
  }
}

/**
 * Re-verifies one transaction hash against the chain and judges it by the proof rule. `claim`
 * is the Mode B job's claim on the transaction (its creation time, its binding, the
 * transaction's holder); null for a raw status, which binds nothing. Never throws for chain
 * trouble: it says what it could not read.
 */
export async function verifyVaultDeposit(
  reader: ChainReader | null,
  txHash: Hex,
  expectation: DepositExpectation,
  now: Date,
  claim: ProofClaim | null = null,
): Promise<DepositVerification> {
  let v = base(txHash, expectation, now);
  const chain = await checkChain(reader);
  if (!chain.ok) return unreadable(v, chain.reason);
  v = { ...v, chainIdVerified: true, source: 'eth_getTransactionReceipt' };

  let receipt;
  try {
    receipt = await reader!.getTransactionReceipt(txHash);
  } catch (error) {
    return unreadable(v, classifyChainError(error));
  }
  if (!receipt) {
    try {
      const tx = await reader!.getTransaction(txHash);
      if (tx) {
        return {
          ...v,
          found: true,
          txStatus: 'pending',
          from: getAddress(tx.from),
          to: tx.to ? getAddress(tx.to) : null,
          toIsVault: Boolean(tx.to && getAddress(tx.to) === expectation.vault.address),
          reason: 'The transaction is known but not yet in a block: nothing is confirmed.',
        };
      }
    } catch (error) {
      return unreadable(v, classifyChainError(error));
    }
    return { ...v, txStatus: 'not_found', reason: 'No transaction with this hash is known on chain 4663.' };
  }

  const from = getAddress(receipt.from);
  const to = receipt.to ? getAddress(receipt.to) : null;
  const toIsVault = to === expectation.vault.address;
  let confirmations: string | null = null;
  try {
    const latest = await reader!.getBlockNumber();
    confirmations = (latest - receipt.blockNumber + 1n).toString();
  } catch {
    // The confirmation count is informative only; the receipt itself is the proof.
  }
  let blockTimestamp: number | null = null;
  if (claim?.firstSeenAt) {
    try {
      blockTimestamp = Number(await reader!.getBlockTimestamp(receipt.blockNumber));
    } catch (error) {
      return unreadable(v, classifyChainError(error));
    }
  }
  v = {
    ...v,
    found: true,
    txStatus: receipt.status === 'success' ? 'success' : 'reverted',
    blockNumber: receipt.blockNumber.toString(),
    confirmations,
    from,
    to,
    toIsVault,
  };

  const wantReceiver = expectation.receiver ?? from;
  const events: ObservedDepositEvent[] = [];
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== expectation.vault.address || log.topics[0]?.toLowerCase() !== DEPOSIT_TOPIC) continue;
    try {
      const decoded = decodeEventLog({ abi: [DEPOSIT_EVENT], data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      const args = decoded.args as { sender: Address; receiver: Address; assets: bigint; shares: bigint };
      events.push({
        sender: getAddress(args.sender),
        receiver: getAddress(args.receiver),
        assets: args.assets.toString(),
        shares: args.shares.toString(),
        logIndex: log.logIndex ?? 0,
      });
    } catch {
      // A log that does not decode as the Deposit event is not one.
    }
  }
  const judged = judgeDeposit(
    {
      success: receipt.status === 'success',
      toIsVault,
      blockTimestamp,
      events: events.map((e) => ({ receiver: e.receiver, assets: BigInt(e.assets) })),
    },
    { receiver: wantReceiver, amountUnits: expectation.amountUnits },
    claim,
  );
  const shown = judged.proven ? events[judged.matching]! : (events.find((e) => e.receiver === wantReceiver) ?? events[0] ?? null);
  const receiverMatches = shown ? shown.receiver === wantReceiver : null;
  const amountMatches = shown && expectation.amountUnits !== undefined ? BigInt(shown.assets) === expectation.amountUnits : null;

  const reason = judged.proven
    ? `onchain_confirmed: the vault's Deposit event for ${shown!.receiver} and ${shown!.assets} units is in block ${v.blockNumber}${
        expectation.amountUnits === undefined ? ' (no amount was given to check; the observed amount is reported)' : ''
      }.`
    : failureReason(judged, expectation);

  return {
    ...v,
    depositEvent: shown,
    expectedReceiver: expectation.receiver ?? from,
    receiverMatches,
    amountMatches,
    confirmedVaultDeposit: judged.proven,
    proofChecks: judged.checks,
    proofBinding: judged.proven && claim ? claim.binding : null,
    reason,
  };
}
