/**
 * Deposit completion from proof only (interface 3.2, 3.3). Every call re-reads the chain: chain
 * id first, then the transaction receipt. A deposit is complete exactly when a confirmed
 * transaction to the vault emitted the vault's own Deposit event for the receiver and the
 * amount. A partner job status, an interface message or an earlier answer never counts.
 */
import { decodeEventLog, getAddress, toEventSelector, type Address, type Hex } from 'viem';
import { z } from 'zod';
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
    reason: z.string(),
  })
  .meta({
    id: 'DepositVerification',
    description:
      "Re-read on chain at every call (chain id first). confirmedVaultDeposit: a confirmed transaction to the vault emitted the vault's Deposit event for the receiver and amount",
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

/** Re-verifies one transaction hash against the chain. Never throws for chain trouble: it says what it could not read. */
export async function verifyVaultDeposit(
  reader: ChainReader | null,
  txHash: Hex,
  expectation: DepositExpectation,
  now: Date,
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
  const matching = events.find(
    (e) => e.receiver === wantReceiver && (expectation.amountUnits === undefined || BigInt(e.assets) === expectation.amountUnits),
  );
  const shown = matching ?? events[0] ?? null;
  const receiverMatches = shown ? shown.receiver === wantReceiver : null;
  const amountMatches = shown && expectation.amountUnits !== undefined ? BigInt(shown.assets) === expectation.amountUnits : null;
  const confirmedVaultDeposit = v.txStatus === 'success' && toIsVault && Boolean(matching);

  let reason: string;
  if (v.txStatus === 'reverted') reason = 'The transaction reverted (receipt status 0x0): nothing was deposited.';
  else if (!toIsVault) reason = 'The transaction was not sent to the vault: it is not a vault deposit, whatever events it emitted.';
  else if (events.length === 0) reason = 'The transaction to the vault emitted no Deposit event from the vault: it is not a deposit.';
  else if (!matching && receiverMatches === false)
    reason = expectation.receiver
      ? "The vault's Deposit event credits another receiver than the expected one."
      : "The vault's Deposit event credits another receiver than the depositor (the receiver must be the depositor).";
  else if (!matching) reason = "The vault's Deposit event carries another amount than the expected one.";
  else
    reason = `onchain_confirmed: the vault's Deposit event for ${matching.receiver} and ${matching.assets} units is in block ${v.blockNumber}${
      expectation.amountUnits === undefined ? ' (no amount was given to check; the observed amount is reported)' : ''
    }.`;

  return {
    ...v,
    depositEvent: shown,
    expectedReceiver: expectation.receiver ?? from,
    receiverMatches,
    amountMatches,
    confirmedVaultDeposit,
    reason,
  };
}
