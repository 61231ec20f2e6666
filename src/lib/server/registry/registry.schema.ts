/** The canonical registry (registry/index.ts) and the resolution of an asset, as answers show them. */
import { z } from 'zod';

export const assetOut = z.object({
  ticker: z.string(),
  name: z.string(),
  kind: z.enum(['stock', 'etf', 'stablecoin', 'wrapped_native']),
  address: z.string(),
  decimals: z.number().int(),
  priceFeedAddress: z.string().nullable(),
  addressSource: z.string(),
});

export const registryOut = z.object({
  registryVersion: z.string(),
  oraclePolicyVersion: z.string(),
  chainId: z.literal(4663),
  identityRule: z.string(),
  assets: z.array(assetOut),
});

export const assetResolutionOut = z.object({
  status: z.enum(['canonical', 'ticker_address_mismatch', 'unknown_address', 'malformed_address', 'unknown_ticker']),
  asset: assetOut.nullable(),
  message: z.string(),
});
