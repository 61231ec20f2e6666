/** The oracle policy (registry/oracle-policy.ts) and the market session as answers show them. */
import { z } from 'zod';

/** The broker market session (registry/market-session.ts), as every answer that states it shows it. */
export const marketSessionOut = z.object({
  id: z.string(),
  timeZone: z.string(),
  opens: z.string(),
  closes: z.string(),
  description: z.string(),
  holidays: z.string(),
});

export const oraclePolicyOut = z
  .object({
    oraclePolicyVersion: z.string(),
    registryVersion: z.string(),
    source: z.string(),
    oracleAdapterAddress: z.string(),
    marketHours: z.string(),
    marketSession: marketSessionOut,
    defaultMaxStalenessSeconds: z.number().int(),
    requireFreshFeeds: z.boolean(),
    whenStale: z.literal('unknown'),
    whenMissing: z.literal('unknown'),
    rule: z.string(),
    assets: z.array(
      z.object({
        ticker: z.string(),
        tokenAddress: z.string(),
        kind: z.enum(['stock', 'etf', 'stablecoin', 'wrapped_native']),
        priceBasis: z.enum(['EXCHANGE_LIVE', 'MODEL_ACCRUAL', 'ACCOUNTING_IDENTITY', 'NOT_A_VAULT_ASSET']),
        priceSource: z.string(),
        priceFeedAddress: z.string().nullable(),
        maxPriceAgeSeconds: z.number().int().nullable(),
        staleMeans: z.string(),
      }),
    ),
  })
  .meta({ id: 'OraclePolicy' });

export const priceReadingOut = z.object({
  tokenAddress: z.string(),
  ticker: z.string().nullable(),
  state: z.enum(['live', 'unknown', 'identity']),
  reason: z.enum(['FRESH', 'STALE', 'MISSING', 'TIMESTAMP_IN_FUTURE', 'NO_FEED', 'NOT_IN_REGISTRY']),
  updatedAt: z.string().nullable(),
  ageSeconds: z.number().int().nullable(),
  maxPriceAgeSeconds: z.number().int().nullable(),
  price: z.string().nullable().describe('only while live: a stale or missing price is never shown as a value'),
  meaning: z.string(),
});
