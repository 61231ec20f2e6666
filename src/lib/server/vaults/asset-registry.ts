/**
 * The vault asset registry (interface 4.4 `GET /api/vaults/asset-registry`): the canonical assets
 * of chain 4663, each with where its address comes from, its oracle policy (price source,
 * price basis and freshness bound) and its jurisdiction policy. Built from the canonical
 * registry, the only source of asset identity.
 */
import { ALL_ASSETS, BROKER_CHAIN_ID, ORACLE_POLICY_VERSION, REGISTRY_VERSION, type RegistryAsset } from '../registry';
import { assetOraclePolicy } from '../registry/oracle-policy';

export const VAULT_ASSET_REGISTRY_VERSION = 'svc-vault-asset-registry-1.0.0';

/** The date the canonical registry table (REGISTRY_VERSION 2026.11.0) was compiled from its sources. */
export const REGISTRY_SOURCES_LAST_VERIFIED = '2026-11-22';

/** The V2 vault's policy names one execution-grade stock token (operator's architecture document). */
const V2_EXECUTION_GRADE_TICKERS = new Set(['AAPL']);

function jurisdictionPolicy(asset: RegistryAsset) {
  const tokenized = asset.kind === 'stock' || asset.kind === 'etf';
  return {
    svcGatesOnJurisdiction: false as const,
    svcCollectsLocation: false as const,
    depositorAcknowledgment: 'svc-vault-source-disclosure-ack-v1 (in the vault deposit jurisdiction slot)',
    note: tokenized
      ? 'Tokenized exposure, not direct ownership of the stock or fund. Eligibility to hold or trade it is decided by the issuer and venue; a partner may require its own external verification, which this service never performs.'
      : 'No jurisdiction rule of this service applies to this asset.',
  };
}

export function vaultAssetRegistry() {
  return {
    assetRegistryVersion: VAULT_ASSET_REGISTRY_VERSION,
    registryVersion: REGISTRY_VERSION,
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    chainId: BROKER_CHAIN_ID,
    identityRule: 'The token address is the identity; a ticker is display metadata. A canonical ticker at any other address is rejected.',
    assets: ALL_ASSETS.map((asset) => ({
      ticker: asset.ticker,
      name: asset.name,
      kind: asset.kind,
      address: asset.address,
      decimals: asset.decimals,
      v2ExecutionGrade: V2_EXECUTION_GRADE_TICKERS.has(asset.ticker),
      oraclePolicy: assetOraclePolicy(asset),
      jurisdictionPolicy: jurisdictionPolicy(asset),
      sourceVerification: {
        source: asset.addressSource,
        method: 'published_source_snapshot' as const,
        lastVerified: REGISTRY_SOURCES_LAST_VERIFIED,
        registryVersion: REGISTRY_VERSION,
      },
    })),
  };
}
