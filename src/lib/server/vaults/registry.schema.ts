/** A registered vault as the vault routes list it, and the ack texts every deposit carries. */
import { z } from 'zod';
import { addressShape, bytes32Shape } from './pack-shapes';

export const vaultListingSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    generation: z.enum(['v1', 'v2']),
    lifecycle: z.enum(['legacy_v1', 'canonical_v2']),
    address: addressShape,
    railId: z.string().nullable(),
    depositRoute: z.enum(['deposit_with_acks', 'request_queue']),
    acceptsDepositPacks: z.boolean(),
    addressSource: z.string(),
  })
  .meta({ id: 'VaultListing' });

export const ackTextSchema = z.object({ slot: z.enum(['risk', 'jurisdiction']), text: z.string(), keccak256: bytes32Shape });
