/**
 * Output shapes shared by the x402 and vault-analysis routers: the two chain blocks kept
 * apart in every vault and x402 response (spec 1) and the lane label.
 */
import { z } from 'zod';

export const vaultChainSchema = z.object({
  chain: z.literal('broker_chain'),
  chainId: z.literal(4663),
  baseAsset: z.literal('USDG'),
  baseAssetAddress: z.string(),
  baseAssetDecimals: z.literal(6),
});

export const x402PaymentChainSchema = z.object({
  lane: z.enum(['facilitator', 'partnerCloud']),
  provider: z.enum(['facilitator', 'partnerCloud']),
  chain: z.string(),
  chainId: z.number().int(),
  network: z.string(),
  asset: z.string(),
  assetAddress: z.string(),
  assetDecimals: z.number().int(),
  reason: z.string(),
});

export const sourceVerificationSchema = z.array(z.object({ subject: z.string(), source: z.string(), lastVerified: z.string() }));

/** The fields every vault and x402 response carries. */
export const chainBlockFields = {
  vaultChain: vaultChainSchema,
  x402PaymentChain: x402PaymentChainSchema,
  sourceVerification: sourceVerificationSchema,
};

export const laneSelectionSchema = z.object({
  lane: z.enum(['facilitator', 'partnerCloud']),
  provider: z.enum(['facilitator', 'partnerCloud']),
  paymentChain: z.string(),
  chainId: z.number().int(),
  network: z.string(),
  asset: z.string(),
  assetAddress: z.string(),
  assetDecimals: z.number().int(),
  settlesHere: z.boolean(),
  facilitatorState: z.enum(['disabled', 'key_missing', 'blocked', 'configured']),
  reason: z.string(),
  blockers: z.array(z.string()),
});
