/**
 * Reads what one transaction did on chain (interface 4.5): the RPC must first prove it serves
 * chain 4663 (`eth_chainId`); only then are its answers trusted. What is read is facts only
 * (status, block and its time, sender, ERC-20 transfers, and for a revert the calldata);
 * whether those facts prove a plan is decided by `judgeTransaction` (proof/stock-trade.ts).
 *
 * The RPC URL is server-only: it is used here and appears in no result, error or log (viem's
 * own error messages, which quote it, are dropped).
 */
import { getAddress, toEventSelector, TransactionReceiptNotFoundError, type Hex, type Log } from 'viem';
import type { BrokerChainClient } from '../chain-client';
import { BROKER_CHAIN_ID } from '../registry';
import { REASON, type ReasonCode } from './status';

const ERC20_TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');

export const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** One ERC-20 `Transfer` log; addresses in checksum form. */
export interface TokenTransfer {
  token: string;
  from: string;
  to: string;
  value: bigint;
}

/** A mined transaction as chain 4663 reports it. */
export interface MinedTransaction {
  kind: 'transaction';
  txHash: string;
  success: boolean;
  blockNumber: string;
  /** The block's timestamp, in seconds (the chain's own clock). */
  blockTimestamp: number;
  /** The address that signed and sent the transaction. */
  from: string;
  to: string | null;
  /** The transaction's calldata; read for reverted transactions only (null otherwise). */
  input: Hex | null;
  /** The ERC-20 transfers it emitted (a reverted transaction emits none). */
  transfers: TokenTransfer[];
}

/** The outcome of reading one transaction on the configured chain. */
export type ChainProof =
  | MinedTransaction
  | { kind: 'not_found'; txHash: string }
  /** Nothing trustworthy was read (no RPC, unreachable, another chain, a failed read). */
  | { kind: 'unverified'; txHash: string; reason: ReasonCode };

export interface ChainRead {
  proof: ChainProof;
  /** True only when the RPC answered eth_chainId with 4663. */
  chainIdVerified: boolean;
}

/** ERC-20 transfers of a receipt's logs. ERC-721 transfers (a fourth topic) and malformed logs are skipped. */
export function erc20Transfers(logs: ReadonlyArray<Pick<Log, 'address' | 'topics' | 'data'>>): TokenTransfer[] {
  const out: TokenTransfer[] = [];
  for (const log of logs) {
    const [topic, from, to] = log.topics;
    if (topic?.toLowerCase() !== ERC20_TRANSFER_TOPIC || log.topics.length !== 3 || !from || !to) continue;
    if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue;
    out.push({
      token: getAddress(log.address),
      from: getAddress(`0x${from.slice(26)}`),
      to: getAddress(`0x${to.slice(26)}`),
      value: BigInt(log.data),
    });
  }
  return out;
}

/** `client` is null when no RPC is configured. */
export async function readTransactionProof(client: BrokerChainClient | null, txHash: string): Promise<ChainRead> {
  if (!client) return { proof: { kind: 'unverified', txHash, reason: REASON.CHAIN_RPC_NOT_CONFIGURED }, chainIdVerified: false };
  let chainId: number;
  try {
    chainId = await client.getChainId();
  } catch {
    return { proof: { kind: 'unverified', txHash, reason: REASON.CHAIN_RPC_UNREACHABLE }, chainIdVerified: false };
  }
  if (chainId !== BROKER_CHAIN_ID) {
    return { proof: { kind: 'unverified', txHash, reason: REASON.CHAIN_ID_MISMATCH }, chainIdVerified: false };
  }
  try {
    const receipt = await client.getTransactionReceipt({ hash: txHash as Hex });
    const success = receipt.status === 'success';
    const [block, transaction] = await Promise.all([
      client.getBlock({ blockNumber: receipt.blockNumber }),
      // The calldata is what ties a revert to a plan; a success is judged by its transfers.
      success ? Promise.resolve(null) : client.getTransaction({ hash: txHash as Hex }),
    ]);
    return {
      proof: {
        kind: 'transaction',
        txHash: receipt.transactionHash.toLowerCase(),
        success,
        blockNumber: receipt.blockNumber.toString(),
        blockTimestamp: Number(block.timestamp),
        from: getAddress(receipt.from),
        to: receipt.to ? getAddress(receipt.to) : null,
        input: transaction?.input ?? null,
        transfers: erc20Transfers(receipt.logs),
      },
      chainIdVerified: true,
    };
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return { proof: { kind: 'not_found', txHash }, chainIdVerified: true };
    return { proof: { kind: 'unverified', txHash, reason: REASON.TX_RECEIPT_READ_FAILED }, chainIdVerified: true };
  }
}
