/**
 * The canonical registry of chain 4663 (interface 2.8), as versioned data. Addresses are the
 * identity of an asset: a ticker is display metadata only.
 *
 * Sources. USDG and WETH come from the broker chain's own published contract list. The
 * operator's public repository does not publish the stock and ETF token addresses (its
 * tradable universe is served by a private API), so those come from public third-party
 * listings of the chain's live markets, cross-checked where more than one exists; each row
 * says which. Per-token price feeds are configured inside the operator's published oracle
 * adapter and are read live there (`getFeedConfig(token)`); the adapter is the price-feed
 * address recorded here. Bump REGISTRY_VERSION on any change: receipts stamp it.
 */

export const REGISTRY_VERSION = 'svc-registry-2026.11.0';
export const ORACLE_POLICY_VERSION = 'svc-oracle-policy-1.0.0';
export const BROKER_CHAIN_ID = 4663 as const;
export const BROKER_CHAIN_NAME = 'broker_chain';

/** The oracle adapter that serves every stock token's price (published by the operator). */
export const ORACLE_ADAPTER_ADDRESS = '0x8461a6137Da8064D7Eb3a13dB674af2eDf05A2c0';

export type AssetKind = 'stock' | 'etf' | 'stablecoin' | 'wrapped_native';

export interface RegistryAsset {
  ticker: string;
  name: string;
  kind: AssetKind;
  address: string;
  decimals: number;
  /** The contract that serves this asset's price, or null where no feed applies. */
  priceFeedAddress: string | null;
  addressSource: string;
}

const THIRD_PARTY_MULTI =
  "Not published by the operator. Taken from several independent public listings of the broker chain's live markets that agree; verify with a live read before relying on it.";
const THIRD_PARTY_SINGLE =
  "Not published by the operator. Taken from public third-party listings of the broker chain's live markets (fewer independent confirmations); verify with a live read before relying on it.";

export const STOCK_TOKENS: readonly RegistryAsset[] = [
  {
    ticker: 'AAPL',
    name: 'Apple',
    kind: 'stock',
    address: '0xaF3D76f1834A1d425780943C99Ea8A608f8a93f9',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'AMD',
    name: 'Advanced Micro Devices',
    kind: 'stock',
    address: '0x86923f96303D656E4aa86D9d42D1e57ad2023fdC',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'AMZN',
    name: 'Amazon',
    kind: 'stock',
    address: '0x12f190a9F9d7D37a250758b26824B97CE941bF54',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'COIN',
    name: 'Coinbase Global',
    kind: 'stock',
    address: '0x6330D8C3178a418788dF01a47479c0ce7CCF450b',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'GOOGL',
    name: 'Alphabet Class A',
    kind: 'stock',
    address: '0x2e0847E8910a9732eB3fb1bb4b70a580ADAD4FE3',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'META',
    name: 'Meta Platforms',
    kind: 'stock',
    address: '0xc0D6457C16Cc70d6790Dd43521C899C87ce02f35',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'MSFT',
    name: 'Microsoft',
    kind: 'stock',
    address: '0xe93237C50D904957Cf27E7B1133b510C669c2e74',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'NVDA',
    name: 'NVIDIA',
    kind: 'stock',
    address: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'PLTR',
    name: 'Palantir Technologies',
    kind: 'stock',
    address: '0x894E1EC2D74FFE5AEF8Dc8A9e84686acCB964F2A',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'TSLA',
    name: 'Tesla',
    kind: 'stock',
    address: '0x322F0929c4625eD5bAd873c95208D54E1c003b2d',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_MULTI,
  },
  {
    ticker: 'SPY',
    name: 'SPDR S&P 500 ETF Trust',
    kind: 'etf',
    address: '0x117cc2133c37B721F49dE2A7a74833232B3B4C0C',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'QQQ',
    name: 'Invesco QQQ Trust',
    kind: 'etf',
    address: '0xD5f3879160bc7c32ebb4dC785F8a4F505888de68',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'SGOV',
    name: 'iShares 0-3 Month Treasury Bond ETF',
    kind: 'etf',
    address: '0x92FD66527192E3e61d4DDd13322Aa222DE86F9B5',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'SLV',
    name: 'iShares Silver Trust',
    kind: 'etf',
    address: '0x411eFb0E7f985935DAec3D4C3ebaEa0d0AD7D89f',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: THIRD_PARTY_SINGLE,
  },
  {
    ticker: 'USO',
    name: 'United States Oil Fund',
    kind: 'etf',
    address: '0xa30FA36Db767ad9eD3f7a60fC79526fB4d56D344',
    decimals: 18,
    priceFeedAddress: ORACLE_ADAPTER_ADDRESS,
    addressSource: `${THIRD_PARTY_SINGLE} Some operator documents call it CUSO; the address, not the symbol, is the identity.`,
  },
];

export const USDG: RegistryAsset = {
  ticker: 'USDG',
  name: 'Global Dollar',
  kind: 'stablecoin',
  address: '0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168',
  decimals: 6,
  priceFeedAddress: null,
  addressSource: "Published by the broker chain's contract list and the operator's public documents.",
};

export const WETH: RegistryAsset = {
  ticker: 'WETH',
  name: 'Wrapped Ether',
  kind: 'wrapped_native',
  address: '0x0Bd7D308f8E1639FAb988df18A8011f41EAcAD73',
  decimals: 18,
  priceFeedAddress: null,
  addressSource: "Published by the broker chain's contract list.",
};

/**
 * The oracle policy in force (stamped into receipts as ORACLE_POLICY_VERSION). Stock and
 * ETF tokens trade on a 24/5 market, so staleness is feed-aware: a price older than the
 * bound is stale, and a stale-fed asset is never treated as live.
 */
export const ORACLE_POLICY = {
  version: ORACLE_POLICY_VERSION,
  source: 'oracle adapter (per-token feed configuration read live)',
  oracleAdapterAddress: ORACLE_ADAPTER_ADDRESS,
  marketHours: '24/5',
  maxStalenessSeconds: 3600,
  requireFreshFeeds: true,
  staleMeans: 'unknown price: never zero, never live',
} as const;
