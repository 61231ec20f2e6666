/**
 * Output shapes shared by every vault and x402 router: the two chain blocks kept apart in
 * every vault and x402 response (spec 1), the source-verification entries, and the lane
 * label. One shape per block, built by the functions of x402/lanes.ts.
 */
import { z } from 'zod';

export const vaultChainSchema = z
  .object({
    name: z.literal('broker_chain'),
    chainId: z.literal(4663),
    baseAsset: z.literal('USDG'),
    baseAssetAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    baseAssetDecimals: z.literal(6),
    role: z.string(),
  })
  .meta({ id: 'VaultChain', description: 'The chain the vaults live on: always the broker chain, id 4663, USDG with 6 decimals' });

export const x402PaymentChainSchema = z
  .object({
    lane: z.enum(['facilitator', 'partnerCloud']).describe('The lane selected for paid vault services (spec 4.8), the same key as x402Providers in the architecture object'),
    paymentChain: z.string().describe('broker_chain on the facilitator lane, base on the partner-cloud lane'),
    chainId: z.number().int(),
    network: z.string().describe('CAIP-2 network id (eip155:<chainId>)'),
    asset: z.string(),
    assetAddress: z.string(),
    assetDecimals: z.number().int(),
    settlesHere: z.boolean().describe('Whether this server takes and settles a payment on the lane now'),
    facilitatorState: z
      .enum(['disabled', 'key_missing', 'blocked', 'configured'])
      .describe('The facilitator lane: blocked when selected (enabled, key set) but misconfigured; payments are then refused, never moved to another lane'),
    reason: z.string(),
    appliesTo: z.string(),
  })
  .meta({ id: 'X402PaymentChain', description: 'The x402 lane a paid vault service uses; kept apart from the vault chain' });

export const sourceVerificationEntrySchema = z
  .object({
    subject: z.string(),
    source: z.string(),
    lastVerified: z.string().describe('YYYY-MM-DD of the published source snapshot, or the timestamp of a live read in this response'),
    method: z.enum(['published_source_snapshot', 'live_chain_read', 'registry_copy']),
  })
  .meta({ id: 'SourceVerification' });

export const sourceVerificationSchema = z.array(sourceVerificationEntrySchema);

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
