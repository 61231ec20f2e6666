/**
 * The one viem client of chain 4663 (read-only JSON-RPC at `BROKER_CHAIN_RPC_URL`), with one
 * timeout policy: every JSON-RPC request gets `BROKER_CHAIN_TIMEOUT_MS` (default 5000 ms) and
 * no retry, so a slow or failed read is reported as such rather than hidden or stretched.
 * Every chain read of the service (sign-in contract wallets, stock proofs, the vault rail,
 * readiness) goes through a client made here; the glue (`trpc/`) builds it from the
 * configuration and hands it to the domain, which never sees the URL or the configuration.
 *
 * The RPC URL is server-only: viem quotes it in its error messages, so callers reduce errors
 * to fixed reasons and never pass a message on.
 */
import { createPublicClient, defineChain, http, type PublicClient } from 'viem';
import { BROKER_CHAIN_ID } from './registry';

export const DEFAULT_CHAIN_TIMEOUT_MS = 5000;

/** The settings a client is made from (a slice of the service configuration). */
export interface BrokerChainSettings {
  brokerChainRpcUrl?: string;
  brokerChainTimeoutMs: number;
}

export type BrokerChainClient = PublicClient;

// The chain is named so that viem's contract-wallet signature check (ERC-6492) knows where it
// runs; it carries no URL of its own.
const brokerChain = defineChain({
  id: BROKER_CHAIN_ID,
  name: 'broker chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

const clients = new Map<string, BrokerChainClient>();

/** The client of the configured RPC, or null when `BROKER_CHAIN_RPC_URL` is unset. One client per URL and timeout. */
export function brokerChainClient(settings: BrokerChainSettings): BrokerChainClient | null {
  const { brokerChainRpcUrl: url, brokerChainTimeoutMs: timeout } = settings;
  if (!url) return null;
  const key = `${timeout} ${url}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({
      chain: brokerChain,
      // cacheTime 0: a proof or a gate is read fresh, never from viem's 4 s block cache.
      cacheTime: 0,
      transport: http(url, { timeout, retryCount: 0 }),
    }) as BrokerChainClient;
    clients.set(key, client);
  }
  return client;
}
