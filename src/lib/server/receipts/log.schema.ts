/** The receipt log (receipts/log.ts) as answers show it: hashes and the signed tree head. */
import { z } from 'zod';
import { LOG_VERSION } from './log';
import { LOG_REASONS } from './log-policy';
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

/** What a tool answer says of its receipt and the log (receipts/log-policy.ts). */
export const receiptLogOut = z
  .object({
    logged: z.boolean().describe('whether this receipt row is appended to the checkpointed receipt log'),
    reason: z
      .enum(LOG_REASONS)
      .describe(
        'generated_coil, explicit_receipt (POST /api/tools/receipt), wallet_save (a call with a wallet session): logged; not_requested: an anonymous tool call, stored and signed for lineage and provenance, not logged',
      ),
    proofPath: z.string().nullable().describe('the c2sp.org/tlog-proof@v1 file of the receipt (GET), when logged'),
  })
  .meta({ id: 'ReceiptLogStatus', description: 'Whether the receipt was appended to the receipt log, and why' });
