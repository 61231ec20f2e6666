/**
 * The oracle policy in force (ORACLE_POLICY_VERSION, stamped into every receipt), per asset:
 * where its price comes from, on what basis, how old a price may be, and what a stale or
 * missing price means: unknown, never zero and never live. `explainOraclePolicy` also
 * classifies price readings a caller brings against the server's own clock.
 */
import {
  ALL_ASSETS,
  ORACLE_POLICY,
  ORACLE_POLICY_VERSION,
  REGISTRY_VERSION,
  checksumAddress,
  findAssetByAddress,
  type RegistryAsset,
} from './index';
import { MARKET_SESSION } from './market-session';
import type { ServerTime } from '../clock';

/** Freshness bound of a live-traded stock or ETF price. */
export const EXCHANGE_LIVE_MAX_AGE_SECONDS = ORACLE_POLICY.maxStalenessSeconds;
/** A once-daily accruing price (e.g. a T-bill ETF): 24 h plus 2 h grace. */
export const MODEL_ACCRUAL_MAX_AGE_SECONDS = 26 * 3600;
/** A reading stamped more than this far ahead of the server clock is not trusted. */
export const READING_FUTURE_SKEW_SECONDS = 120;

/** Assets whose price accrues once a day rather than trading live. */
const MODEL_ACCRUAL_TICKERS = new Set(['SGOV']);

export type PriceBasis = 'EXCHANGE_LIVE' | 'MODEL_ACCRUAL' | 'ACCOUNTING_IDENTITY' | 'NOT_A_VAULT_ASSET';

export interface AssetOraclePolicy {
  priceBasis: PriceBasis;
  priceSource: string;
  priceFeedAddress: string | null;
  maxPriceAgeSeconds: number | null;
  staleMeans: string;
}

export function assetOraclePolicy(asset: RegistryAsset): AssetOraclePolicy {
  if (asset.kind === 'stablecoin') {
    return {
      priceBasis: 'ACCOUNTING_IDENTITY',
      priceSource: 'USDG is the unit of account: valued at exactly 1.000000 USDG by identity',
      priceFeedAddress: null,
      maxPriceAgeSeconds: null,
      staleMeans: ORACLE_POLICY.staleMeans,
    };
  }
  if (asset.kind === 'wrapped_native') {
    return {
      priceBasis: 'NOT_A_VAULT_ASSET',
      priceSource: 'not priced by the vault rail: WETH is in the registry for identity checks only',
      priceFeedAddress: null,
      maxPriceAgeSeconds: null,
      staleMeans: ORACLE_POLICY.staleMeans,
    };
  }
  const accrual = MODEL_ACCRUAL_TICKERS.has(asset.ticker);
  return {
    priceBasis: accrual ? 'MODEL_ACCRUAL' : 'EXCHANGE_LIVE',
    priceSource: 'the oracle adapter, per-token feed configuration read live with getFeedConfig(token)',
    priceFeedAddress: asset.priceFeedAddress,
    maxPriceAgeSeconds: accrual ? MODEL_ACCRUAL_MAX_AGE_SECONDS : EXCHANGE_LIVE_MAX_AGE_SECONDS,
    staleMeans: ORACLE_POLICY.staleMeans,
  };
}

export interface PriceReadingInput {
  tokenAddress: string;
  /** When the feed last updated (ISO 8601 with a zone). */
  updatedAt: string;
  /** The price as the feed reported it, a decimal string in USD. */
  price?: string;
}

export type ReadingReason = 'FRESH' | 'STALE' | 'MISSING' | 'TIMESTAMP_IN_FUTURE' | 'NO_FEED' | 'NOT_IN_REGISTRY';

export interface ClassifiedReading {
  tokenAddress: string;
  ticker: string | null;
  state: 'live' | 'unknown' | 'identity';
  reason: ReadingReason;
  updatedAt: string | null;
  ageSeconds: number | null;
  maxPriceAgeSeconds: number | null;
  /** The reported price, only while it is live: a stale or missing price is never shown as a value. */
  price: string | null;
}

/**
 * Classifies one reading against the server's clock (never a caller's `nowIso`): fresh is
 * `live`; older than the bound, stamped in the future, or absent is `unknown`.
 */
export function classifyPriceReading(
  asset: RegistryAsset,
  reading: { updatedAt: Date; price?: string } | undefined,
  serverTime: ServerTime,
): ClassifiedReading {
  const policy = assetOraclePolicy(asset);
  const base = { tokenAddress: asset.address, ticker: asset.ticker, maxPriceAgeSeconds: policy.maxPriceAgeSeconds };
  if (policy.priceBasis === 'ACCOUNTING_IDENTITY') {
    return { ...base, state: 'identity', reason: 'NO_FEED', updatedAt: null, ageSeconds: null, price: '1' };
  }
  if (policy.maxPriceAgeSeconds === null) {
    return {
      ...base,
      state: 'unknown',
      reason: 'NO_FEED',
      updatedAt: reading ? reading.updatedAt.toISOString() : null,
      ageSeconds: null,
      price: null,
    };
  }
  if (!reading) return { ...base, state: 'unknown', reason: 'MISSING', updatedAt: null, ageSeconds: null, price: null };
  const ageSeconds = Math.floor((serverTime.getTime() - reading.updatedAt.getTime()) / 1000);
  const at = reading.updatedAt.toISOString();
  if (ageSeconds < -READING_FUTURE_SKEW_SECONDS)
    return { ...base, state: 'unknown', reason: 'TIMESTAMP_IN_FUTURE', updatedAt: at, ageSeconds, price: null };
  if (ageSeconds > policy.maxPriceAgeSeconds) return { ...base, state: 'unknown', reason: 'STALE', updatedAt: at, ageSeconds, price: null };
  return { ...base, state: 'live', reason: 'FRESH', updatedAt: at, ageSeconds: Math.max(ageSeconds, 0), price: reading.price ?? null };
}

export const READING_MEANING: Readonly<Record<ReadingReason, string>> = {
  FRESH: 'updated within the bound: the price is live',
  STALE: 'older than the bound: the price is unknown, never live and never zero',
  MISSING: 'no reading for this asset: the price is unknown, never zero',
  TIMESTAMP_IN_FUTURE: 'stamped ahead of the server clock: not trusted, so unknown',
  NO_FEED: 'the asset has no price feed on this rail',
  NOT_IN_REGISTRY: 'not a canonical asset: no policy applies and the price is unknown',
};

/**
 * The policy in force, per asset; with `readings`, each stock and ETF token classified (an
 * asset without a reading is `MISSING`, a reading for an address outside the registry is
 * `NOT_IN_REGISTRY`).
 */
export function explainOraclePolicy(
  readings: ReadonlyArray<{ tokenAddress: string; updatedAt: Date; price?: string }> | undefined,
  serverTime: ServerTime,
) {
  const policy = {
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    registryVersion: REGISTRY_VERSION,
    source: ORACLE_POLICY.source,
    oracleAdapterAddress: checksumAddress(ORACLE_POLICY.oracleAdapterAddress)!,
    marketHours: ORACLE_POLICY.marketHours,
    marketSession: { ...MARKET_SESSION },
    defaultMaxStalenessSeconds: ORACLE_POLICY.maxStalenessSeconds,
    requireFreshFeeds: ORACLE_POLICY.requireFreshFeeds,
    whenStale: 'unknown' as const,
    whenMissing: 'unknown' as const,
    rule: 'A price older than its bound, stamped in the future, or missing is unknown: never zero and never live. A basket or vault with an unknown price is never valued as if it were known.',
    assets: ALL_ASSETS.map((asset) => ({
      ticker: asset.ticker,
      tokenAddress: asset.address,
      kind: asset.kind,
      ...assetOraclePolicy(asset),
    })),
  };
  if (!readings) return { policy, readings: null };
  const byAddress = new Map<string, { updatedAt: Date; price?: string }>();
  const foreign: ClassifiedReading[] = [];
  for (const r of readings) {
    const asset = findAssetByAddress(r.tokenAddress);
    if (!asset) {
      foreign.push({
        tokenAddress: r.tokenAddress,
        ticker: null,
        state: 'unknown',
        reason: 'NOT_IN_REGISTRY',
        updatedAt: r.updatedAt.toISOString(),
        ageSeconds: null,
        maxPriceAgeSeconds: null,
        price: null,
      });
    } else {
      byAddress.set(asset.address.toLowerCase(), r);
    }
  }
  const classified = ALL_ASSETS.filter((a) => a.kind === 'stock' || a.kind === 'etf').map((asset) =>
    classifyPriceReading(asset, byAddress.get(asset.address.toLowerCase()), serverTime),
  );
  return { policy, readings: [...classified, ...foreign].map((r) => ({ ...r, meaning: READING_MEANING[r.reason] })) };
}
