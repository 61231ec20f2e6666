/**
 * The only way any code resolves an asset: by ticker or by address, case-insensitively,
 * with addresses checksummed on output.
 */
import { getAddress, isAddress } from 'viem';
import {
  BROKER_CHAIN_ID,
  ORACLE_POLICY,
  ORACLE_POLICY_VERSION,
  REGISTRY_VERSION,
  STOCK_TOKENS,
  USDG,
  WETH,
  type RegistryAsset,
} from './data';

export { BROKER_CHAIN_ID, ORACLE_POLICY, ORACLE_POLICY_VERSION, REGISTRY_VERSION, STOCK_TOKENS, USDG, WETH };
export type { RegistryAsset };

export const ALL_ASSETS: readonly RegistryAsset[] = [...STOCK_TOKENS, USDG, WETH].map((a) => ({
  ...a,
  address: getAddress(a.address),
  priceFeedAddress: a.priceFeedAddress ? getAddress(a.priceFeedAddress) : null,
}));

const byTicker = new Map(ALL_ASSETS.map((a) => [a.ticker.toUpperCase(), a]));
const byAddress = new Map(ALL_ASSETS.map((a) => [a.address.toLowerCase(), a]));

export function findAssetByTicker(ticker: string): RegistryAsset | undefined {
  return byTicker.get(ticker.trim().toUpperCase());
}

export function findAssetByAddress(address: string): RegistryAsset | undefined {
  return byAddress.get(address.trim().toLowerCase());
}

/** A stock or ETF token (not USDG or WETH) at its canonical address. */
export function findStockTokenByAddress(address: string): RegistryAsset | undefined {
  const asset = findAssetByAddress(address);
  return asset && (asset.kind === 'stock' || asset.kind === 'etf') ? asset : undefined;
}

/** Checksums an address (viem), or returns undefined when it is not a 20-byte hex address. */
export function checksumAddress(address: string): string | undefined {
  return isAddress(address, { strict: false }) ? getAddress(address) : undefined;
}

export type CanonicalCheck =
  | { status: 'canonical'; asset: RegistryAsset }
  | { status: 'ticker_address_mismatch'; asset: RegistryAsset }
  | { status: 'unknown_address' }
  | { status: 'malformed_address' };

/**
 * Checks a (ticker, address) pair: the address decides. A canonical ticker presented at
 * another address is a mismatch (a look-alike token), never a match.
 */
export function checkCanonical(ticker: string | undefined, address: string): CanonicalCheck {
  if (!checksumAddress(address)) return { status: 'malformed_address' };
  const atAddress = findAssetByAddress(address);
  if (atAddress) {
    if (ticker && ticker.trim().toUpperCase() !== atAddress.ticker) {
      const named = findAssetByTicker(ticker);
      if (named) return { status: 'ticker_address_mismatch', asset: named };
    }
    return { status: 'canonical', asset: atAddress };
  }
  const named = ticker ? findAssetByTicker(ticker) : undefined;
  if (named) return { status: 'ticker_address_mismatch', asset: named };
  return { status: 'unknown_address' };
}

/** The public-safe registry table served by GET /api/stocks/registry. */
export function publicRegistry() {
  return {
    registryVersion: REGISTRY_VERSION,
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    chainId: BROKER_CHAIN_ID,
    identityRule: 'The token address is the identity; a ticker is display metadata. A canonical ticker at any other address is rejected.',
    assets: ALL_ASSETS.map((a) => ({ ...a })),
  };
}
