/**
 * Reads the on-chain proof of one transaction (spec 4.5): the RPC must first prove it serves
 * chain 4663 (`eth_chainId`); only then is `eth_getTransactionReceipt` trusted. The RPC URL is
 * server-only: it is used here and appears in no result, error or log (viem's own error
 * messages, which quote it, are dropped).
 */
import { createPublicClient, http, toEventSelector, TransactionReceiptNotFoundError, type Hex } from 'viem';
import { BROKER_CHAIN_ID } from '../registry';
import { REASON, type ChainProof } from './status';

export const CHAIN_READ_TIMEOUT_MS = 5000;

const ERC20_TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');

export const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export interface ChainRead {
  proof: ChainProof;
  /** True only when the RPC answered eth_chainId with 4663. */
  chainIdVerified: boolean;
}

export async function readTransactionProof(
  rpcUrl: string | undefined,
  txHash: string,
  targetTokenAddress: string,
  timeoutMs = CHAIN_READ_TIMEOUT_MS,
): Promise<ChainRead> {
  if (!rpcUrl) return { proof: { kind: 'unverified', txHash, reason: REASON.CHAIN_RPC_NOT_CONFIGURED }, chainIdVerified: false };
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) });
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
    const target = targetTokenAddress.toLowerCase();
    const touchesTarget = receipt.logs.some((log) => log.address.toLowerCase() === target && log.topics[0] === ERC20_TRANSFER_TOPIC);
    return {
      proof: { kind: 'receipt', txHash: receipt.transactionHash, success: receipt.status === 'success', blockNumber: receipt.blockNumber.toString(), touchesTarget },
      chainIdVerified: true,
    };
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return { proof: { kind: 'not_found', txHash }, chainIdVerified: true };
    return { proof: { kind: 'unverified', txHash, reason: REASON.TX_RECEIPT_READ_FAILED }, chainIdVerified: true };
  }
}
