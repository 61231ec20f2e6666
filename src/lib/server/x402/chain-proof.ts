/**
 * Whether an EIP-3009 authorization paid this service, read on chain 4663: the proof a retry
 * needs when the facilitator's word is missing (a timeout) or not usable (a mismatched report).
 *
 * `authorizationState(authorizer, nonce)` alone says only that the nonce is spent, not how: the
 * payer can spend it with `cancelAuthorization` or with another authorization of the same nonce
 * (a `receiveWithAuthorization` to themselves). So a spent nonce proves a payment only when the
 * transaction that spent it (its `AuthorizationUsed(authorizer, nonce)` log) also moved exactly
 * the price from the payer to the pinned recipient (its `Transfer` log), both on the USDG token.
 * An unspent nonce is final once the chain's own latest block is at or past `validBefore`: no
 * later block can use it.
 *
 * Every read goes through the reader passed in; a failed read makes the answer `unknown` with a
 * fixed reason, never "unused".
 */
import { parseAbi, parseEventLogs, type Address, type Hex, type Log } from 'viem';
import type { BrokerChainClient } from '../chain-client';
import { chainRead, ChainReadError, classifyChainError, EXPECTED_CHAIN_ID, type ReadFailureReason } from '../vaults/chain';

export const EIP3009_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export interface AuthorizationChainReader {
  chainId(): Promise<number>;
  latestBlock(): Promise<{ number: bigint; timestamp: bigint }>;
  authorizationUsed(token: Address, authorizer: Address, nonce: Hex, blockNumber: bigint): Promise<boolean>;
  /** The transactions whose `AuthorizationUsed(authorizer, nonce)` log the token emitted, up to `toBlock`. */
  authorizationUseTransactions(token: Address, authorizer: Address, nonce: Hex, toBlock: bigint): Promise<Hex[]>;
  /** The logs of a mined, successful transaction; null when it is unknown, pending or reverted. */
  successfulTransactionLogs(hash: Hex): Promise<Log[] | null>;
}

export interface TransferTerms {
  token: string;
  authorizer: string;
  nonce: string;
  payTo: string;
  value: bigint;
  validBefore: bigint;
  /** A transaction the facilitator named, checked first (the log search may be limited by the node). */
  reportedTransaction: string | null;
}

export type TransferProof =
  | { state: 'transferred'; transaction: Hex }
  /** `expired`: the chain's latest block is at or past validBefore, so it can never be used. */
  | { state: 'unused'; expired: boolean }
  /** The nonce is spent, but no transaction that spent it paid the price to the recipient. */
  | { state: 'used_without_payment' }
  | { state: 'unknown'; reason: ReadFailureReason };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Does this transaction's log list spend the authorization AND move the price to the recipient? */
function paysTerms(logs: Log[], terms: TransferTerms): boolean {
  const ofToken = logs.filter((l) => same(l.address, terms.token));
  const events = parseEventLogs({ abi: EIP3009_ABI, logs: ofToken, strict: true });
  const used = events.some(
    (e) => e.eventName === 'AuthorizationUsed' && same(e.args.authorizer, terms.authorizer) && same(e.args.nonce, terms.nonce),
  );
  const paid = events.some(
    (e) =>
      e.eventName === 'Transfer' && same(e.args.from, terms.authorizer) && same(e.args.to, terms.payTo) && e.args.value === terms.value,
  );
  return used && paid;
}

export async function proveAuthorizationTransfer(reader: AuthorizationChainReader | null, terms: TransferTerms): Promise<TransferProof> {
  if (!reader) return { state: 'unknown', reason: 'rpc_not_configured' };
  try {
    if ((await reader.chainId()) !== EXPECTED_CHAIN_ID) return { state: 'unknown', reason: 'chain_id_mismatch' };
    const token = terms.token as Address;
    const authorizer = terms.authorizer as Address;
    const nonce = terms.nonce as Hex;
    const block = await reader.latestBlock();
    // Both reads at one block: "unused" and "expired" are then true of the same chain state.
    if (!(await reader.authorizationUsed(token, authorizer, nonce, block.number))) {
      return { state: 'unused', expired: block.timestamp >= terms.validBefore };
    }
    const candidates = new Set<Hex>();
    if (terms.reportedTransaction) candidates.add(terms.reportedTransaction.toLowerCase() as Hex);
    for (const hash of await reader.authorizationUseTransactions(token, authorizer, nonce, block.number)) {
      candidates.add(hash.toLowerCase() as Hex);
    }
    for (const hash of candidates) {
      const logs = await reader.successfulTransactionLogs(hash);
      if (logs && paysTerms(logs, terms)) return { state: 'transferred', transaction: hash };
    }
    return { state: 'used_without_payment' };
  } catch (error) {
    return { state: 'unknown', reason: classifyChainError(error) };
  }
}

/** The reader over the chain client (one timeout, no retries); errors are reduced to fixed reasons. */
export function rpcAuthorizationChainReader(client: BrokerChainClient): AuthorizationChainReader {
  const wrap = chainRead;
  return {
    chainId: () => wrap(() => client.getChainId()),
    latestBlock: () =>
      wrap(async () => {
        const block = await client.getBlock({ blockTag: 'latest' });
        return { number: block.number, timestamp: block.timestamp };
      }),
    authorizationUsed: (token, authorizer, nonce, blockNumber) =>
      wrap(() =>
        client.readContract({
          address: token,
          abi: EIP3009_ABI,
          functionName: 'authorizationState',
          args: [authorizer, nonce],
          blockNumber,
        }),
      ),
    authorizationUseTransactions: (token, authorizer, nonce, toBlock) =>
      wrap(async () => {
        const logs = await client.getLogs({
          address: token,
          event: EIP3009_ABI[1],
          args: { authorizer, nonce },
          fromBlock: 'earliest',
          toBlock,
        });
        return logs.map((l) => l.transactionHash).filter((h): h is Hex => h !== null);
      }),
    successfulTransactionLogs: async (hash) => {
      try {
        const receipt = await client.getTransactionReceipt({ hash });
        return receipt.status === 'success' ? receipt.logs : null;
      } catch (error) {
        if ((error as Error)?.name === 'TransactionReceiptNotFoundError') return null;
        throw new ChainReadError(classifyChainError(error));
      }
    },
  };
}
