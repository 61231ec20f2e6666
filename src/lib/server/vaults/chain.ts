/**
 * Reads of chain 4663 for the vault rail, behind a small interface so the domain functions
 * can be driven by any reader. The RPC implementation never lets the RPC URL out: viem's
 * error messages name the URL, so a failure is reduced to a fixed reason token here and the
 * original message is dropped.
 */
import type { BrokerChainClient } from '../chain-client';
import { type Abi, type Address, type Hex, type Transaction, type TransactionReceipt } from 'viem';

/** Why a read produced no value. Fixed tokens, safe to show. */
export type ReadFailureReason =
  | 'rpc_not_configured'
  | 'rpc_unreachable'
  | 'rpc_timeout'
  | 'rpc_http_error'
  | 'rpc_error'
  | 'chain_id_mismatch'
  | 'call_reverted'
  | 'call_returned_no_data'
  | 'decode_failed';

export const READ_FAILURE_TEXT: Record<ReadFailureReason, string> = {
  rpc_not_configured: 'BROKER_CHAIN_RPC_URL is not configured, so nothing was read from the chain',
  rpc_unreachable: 'the RPC endpoint could not be reached',
  rpc_timeout: 'the RPC endpoint did not answer in time',
  rpc_http_error: 'the RPC endpoint answered with an HTTP error',
  rpc_error: 'the RPC endpoint answered with an error',
  chain_id_mismatch: 'the RPC endpoint does not serve chain 4663',
  call_reverted: 'the contract call reverted',
  call_returned_no_data: 'the call returned no data (no contract code at the address, or no such function)',
  decode_failed: 'the call returned data that does not decode as the expected type',
};

export class ChainReadError extends Error {
  constructor(readonly reason: ReadFailureReason) {
    super(READ_FAILURE_TEXT[reason]);
    this.name = 'ChainReadError';
  }
}

export interface ContractRead {
  address: Address;
  abi: Abi | readonly unknown[];
  functionName: string;
  args?: readonly unknown[];
}

export interface ChainReader {
  chainId(): Promise<number>;
  readContract<T = unknown>(read: ContractRead): Promise<T>;
  getCode(address: Address): Promise<Hex | undefined>;
  /** null when the node knows no receipt for the hash (unknown or still pending). */
  getTransactionReceipt(hash: Hex): Promise<TransactionReceipt | null>;
  /** null when the node knows no such transaction. */
  getTransaction(hash: Hex): Promise<Transaction | null>;
  getBlockNumber(): Promise<bigint>;
  /** The block's timestamp in seconds (the chain's own clock). */
  getBlockTimestamp(blockNumber: bigint): Promise<bigint>;
}

/** A reader whose every read is `fail`: the base of a reader that cannot read, or answers some reads only. */
export function readerFailingWith(fail: () => Promise<never>): ChainReader {
  return {
    chainId: fail,
    readContract: fail,
    getCode: fail,
    getTransactionReceipt: fail,
    getTransaction: fail,
    getBlockNumber: fail,
    getBlockTimestamp: fail,
  };
}

function errorNames(error: unknown): { names: string[]; messages: string[]; status?: number } {
  const names: string[] = [];
  const messages: string[] = [];
  let status: number | undefined;
  let current: unknown = error;
  for (let depth = 0; current && depth < 10; depth++) {
    const e = current as { name?: string; shortMessage?: string; message?: string; status?: number; cause?: unknown };
    if (e.name) names.push(e.name);
    if (typeof e.shortMessage === 'string') messages.push(e.shortMessage);
    if (typeof e.status === 'number') status ??= e.status;
    current = e.cause;
  }
  return { names, messages, status };
}

/** Reduces any error thrown by a read to a reason token (never the message, which may name the URL). */
export function classifyChainError(error: unknown): ReadFailureReason {
  if (error instanceof ChainReadError) return error.reason;
  const { names, messages, status } = errorNames(error);
  const has = (n: string) => names.includes(n);
  if (has('TimeoutError')) return 'rpc_timeout';
  if (has('ContractFunctionZeroDataError')) return 'call_returned_no_data';
  if (has('ContractFunctionRevertedError') || has('ExecutionRevertedError')) return 'call_reverted';
  if (names.some((n) => n.startsWith('AbiDecoding')) || has('PositionOutOfBoundsError')) return 'decode_failed';
  if (messages.some((m) => /revert/i.test(m))) return 'call_reverted';
  if (has('HttpRequestError')) return status !== undefined ? 'rpc_http_error' : 'rpc_unreachable';
  if (has('RpcRequestError') || has('InvalidInputRpcError') || has('InternalRpcError')) return 'rpc_error';
  return 'rpc_error';
}

function notFound(error: unknown, name: string): boolean {
  return errorNames(error).names.includes(name);
}

/** Runs one read; a failure becomes a ChainReadError with a fixed reason (never the message, which may name the URL). */
export async function chainRead<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new ChainReadError(classifyChainError(error));
  }
}

/** A reader over the chain client (`chain-client.ts`: its timeout, no retries). A failed read is reported, not hidden. */
export function createRpcChainReader(client: BrokerChainClient): ChainReader {
  const wrap = chainRead;
  return {
    chainId: () => wrap(() => client.getChainId()),
    readContract: <T>(read: ContractRead) => wrap(() => client.readContract(read as never) as Promise<T>),
    getCode: (address) => wrap(() => client.getCode({ address })),
    getBlockNumber: () => wrap(() => client.getBlockNumber({ cacheTime: 0 })),
    getBlockTimestamp: (blockNumber) => wrap(async () => (await client.getBlock({ blockNumber })).timestamp),
    getTransactionReceipt: async (hash) => {
      try {
        return await client.getTransactionReceipt({ hash });
      } catch (error) {
        if (notFound(error, 'TransactionReceiptNotFoundError')) return null;
        throw new ChainReadError(classifyChainError(error));
      }
    },
    getTransaction: async (hash) => {
      try {
        return await client.getTransaction({ hash });
      } catch (error) {
        if (notFound(error, 'TransactionNotFoundError')) return null;
        throw new ChainReadError(classifyChainError(error));
      }
    },
  };
}

export const EXPECTED_CHAIN_ID = 4663;

export type ChainCheck = { ok: true; chainId: number } | { ok: false; reason: ReadFailureReason };

/** Reads eth_chainId first: nothing else is trusted from an endpoint that serves another chain. */
export async function checkChain(reader: ChainReader | null): Promise<ChainCheck> {
  if (!reader) return { ok: false, reason: 'rpc_not_configured' };
  try {
    const chainId = await reader.chainId();
    return chainId === EXPECTED_CHAIN_ID ? { ok: true, chainId } : { ok: false, reason: 'chain_id_mismatch' };
  } catch (error) {
    return { ok: false, reason: classifyChainError(error) };
  }
}
