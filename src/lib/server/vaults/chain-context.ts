/**
 * The two chains every vault response keeps apart (spec 1): `vaultChain` (always the broker
 * chain, id 4663, base asset USDG with 6 decimals) and `x402PaymentChain` (the lane that
 * would take payment for a paid vault service), plus the `sourceVerification` blocks that
 * say where each fixed fact comes from and when it was last checked.
 */
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { BROKER_CHAIN_NAME } from '../registry/data';
import { VAULT_REGISTRY_VERSION, VAULT_SOURCES_LAST_VERIFIED } from './registry';

export function vaultChain() {
  return {
    name: BROKER_CHAIN_NAME,
    chainId: BROKER_CHAIN_ID,
    baseAsset: 'USDG' as const,
    baseAssetAddress: USDG.address,
    baseAssetDecimals: 6 as const,
    role: 'The chain the vaults live on: deposits, shares and every completion proof are on this chain only.',
  };
}

export type VaultChain = ReturnType<typeof vaultChain>;

export interface PaymentLaneConfig {
  facilitatorEnabled: boolean;
  facilitatorKeyConfigured: boolean;
}

/**
 * The x402 payment lane a paid vault service would use (spec 4.8 lane selection): the
 * facilitator lane on the broker chain when enabled with its server-only key, otherwise the
 * partner-cloud lane on base, always labelled with the reason. Deposits themselves are never
 * paid through x402.
 */
export function x402PaymentChain(cfg: PaymentLaneConfig) {
  const facilitator = cfg.facilitatorEnabled && cfg.facilitatorKeyConfigured;
  return facilitator
    ? {
        lane: 'facilitator' as const,
        paymentChain: BROKER_CHAIN_NAME as string,
        chainId: BROKER_CHAIN_ID as number,
        asset: 'USDG',
        assetDecimals: 6,
        reason: 'FACILITATOR_ENABLED is true and the server-only facilitator key is configured',
        appliesTo: 'paid vault services only; a vault deposit is never paid through x402',
      }
    : {
        lane: 'partner_cloud' as const,
        paymentChain: 'base',
        chainId: 8453,
        asset: 'USDC',
        assetDecimals: 6,
        reason: cfg.facilitatorEnabled
          ? 'FACILITATOR_ENABLED is true but the server-only facilitator key is missing, so the partner-cloud lane applies'
          : 'the facilitator lane is not enabled, so the partner-cloud lane applies',
        appliesTo: 'paid vault services only; a vault deposit is never paid through x402',
      };
}

export type X402PaymentChain = ReturnType<typeof x402PaymentChain>;

export interface SourceVerification {
  subject: string;
  source: string;
  /** YYYY-MM-DD for published sources; the response's own timestamp for a live read. */
  lastVerified: string;
  method: 'published_source_snapshot' | 'live_chain_read' | 'registry_copy';
}

/** The fixed facts every vault response rests on. */
export function staticSourceVerification(): SourceVerification[] {
  return [
    {
      subject: 'V1 vault, its implementation, access policy and deposit-readiness registry addresses',
      source: `operator's public deployment record of chain 4663 (vault registry ${VAULT_REGISTRY_VERSION})`,
      lastVerified: VAULT_SOURCES_LAST_VERIFIED,
      method: 'published_source_snapshot',
    },
    {
      subject: 'V2 suite addresses (vault, request queue, batch settler, price mesh, risk policy, liveness, receipt registry, asset registry, execution adapter)',
      source: `operator's public V2 architecture document and SDK constants (vault registry ${VAULT_REGISTRY_VERSION})`,
      lastVerified: VAULT_SOURCES_LAST_VERIFIED,
      method: 'published_source_snapshot',
    },
    {
      subject: 'USDG address and decimals on chain 4663',
      source: "the broker chain's published contract list",
      lastVerified: VAULT_SOURCES_LAST_VERIFIED,
      method: 'published_source_snapshot',
    },
  ];
}

/** The chain-context fields every vault response carries. */
export function chainContext(cfg: PaymentLaneConfig, extraSources: SourceVerification[] = []) {
  return {
    vaultChain: vaultChain(),
    x402PaymentChain: x402PaymentChain(cfg),
    sourceVerification: [...staticSourceVerification(), ...extraSources],
  };
}
