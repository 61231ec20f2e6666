/** The receipt log (receipts/log.ts) as answers show it: hashes and the signed tree head. */
import { z } from 'zod';
import { LOG_VERSION } from './log';
import { signatureBlockOut } from './signature.schema';

export const HEX_64 = z.string().regex(/^[0-9a-f]{64}$/);

export const signedTreeHeadOut = z
  .object({
    logVersion: z.literal(LOG_VERSION),
    treeSize: z.number().int(),
    rootHash: HEX_64.describe('RFC 9162 Merkle tree hash of the first treeSize entries'),
    timestamp: z.string().describe("the server's clock when the head was signed (never nowIso)"),
    signature: signatureBlockOut,
  })
  .meta({ id: 'SignedTreeHead', description: "The receipt log's head, signed by the service" });
