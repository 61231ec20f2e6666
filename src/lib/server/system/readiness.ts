/**
 * Production readiness (interface 4.1 `GET /api/readiness`): states only, never values. Every
 * probe has a timeout; a failed probe is reported as failed, never as healthy. The live state of
 * each dependency and the overall state: system/dependency-checks.ts.
 */
import type { BrokerChainClient } from '../chain-client';
import { BROKER_CHAIN_ID } from '../registry';

export type ChainState = 'not_configured' | 'reachable' | 'wrong_chain' | 'unreachable';

export interface DatabaseProbe {
  provider: 'sqlite' | 'postgresql';
  reachable: boolean;
  migrations: 'current' | 'pending' | 'ahead' | 'unknown';
  appliedMigrations: number;
  bundledMigrations: number;
}

/** Reads eth_chainId (null: no RPC configured). The client's error, which names the URL, is dropped. */
export async function probeChain(client: BrokerChainClient | null): Promise<{ state: ChainState; expectedChainId: number }> {
  if (!client) return { state: 'not_configured', expectedChainId: BROKER_CHAIN_ID };
  try {
    const chainId = await client.getChainId();
    return { state: chainId === BROKER_CHAIN_ID ? 'reachable' : 'wrong_chain', expectedChainId: BROKER_CHAIN_ID };
  } catch {
    return { state: 'unreachable', expectedChainId: BROKER_CHAIN_ID };
  }
}

export function x402ProviderStates(cfg: { facilitator: { enabled: boolean; apiKey?: string; url?: string; payToAddress?: string } }) {
  return {
    partnerCloud: { configured: true, note: 'public partner-cloud lane on base (USDC); no server key needed to describe it' },
    facilitator: {
      enabled: cfg.facilitator.enabled,
      configured: Boolean(cfg.facilitator.apiKey && cfg.facilitator.url),
      payToPinned: Boolean(cfg.facilitator.payToAddress),
    },
    selfHosted: { configured: false, note: 'disabled: research candidate only' },
  };
}

/** `configured` is SVC_DEPLOY_COMMIT; a value that is not 7 to 40 hex digits is not reported. */
export function deploymentCommit(configured: string | undefined): string {
  if (configured && /^[0-9a-f]{7,40}$/i.test(configured)) return configured;
  return typeof __SVC_BUILD_COMMIT__ === 'string' ? __SVC_BUILD_COMMIT__ : 'unknown';
}
