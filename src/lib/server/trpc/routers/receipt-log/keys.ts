/**
 * GET /api/receipts/keys: the service's public signing keys, with the period each was in use,
 * and the checkpointed log's origin and note verifier keys (the same keys, in the form
 * c2sp.org/signed-note verifiers and Go's note.NewVerifier read).
 */
import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { publishedKeyOut } from '../../../receipts/signature.schema';
import { noteVerifierKey } from '../../../receipts/tlog';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { checkpointVerifierKey } from '../../procedure-kit/tlog';
import { publishedKeysOf } from '../../service-keys';
import { receiptLogMeta } from './meta';

export const keysProcedure = publicProcedure
  .meta(receiptLogMeta('/receipts/keys', "The service's public signing keys, with the period each was in use"))
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    toolFields('receipt-keys', {
      signingKeyId: z.string(),
      keys: z.array(publishedKeyOut),
      checkpointLog: z
        .object({
          origin: z.string().describe("the checkpoints' origin line and their note key name"),
          noteVerifierKey: z.string().describe('<origin>+<hex key id>+<base64(0x01 || Ed25519 public key)> of the key signing now'),
          noteVerifierKeys: z.array(z.string()).describe('the note verifier key of every published key, oldest first'),
        })
        .describe('The checkpointed receipt log (c2sp.org/tlog-checkpoint): how to check its checkpoints'),
    }),
  )
  .query(async ({ ctx }) => {
    const { signer, keys } = await publishedKeysOf(ctx);
    const origin = ctx.config.receiptLog.origin;
    const noteVerifierKeys = keys.map((k) =>
      noteVerifierKey(origin, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x }, format: 'jwk' })),
    );
    return toolAnswer('receipt-keys', ctx, {
      signingKeyId: signer.keyId,
      keys,
      checkpointLog: { origin, noteVerifierKey: checkpointVerifierKey(ctx.config, signer), noteVerifierKeys },
    });
  });
