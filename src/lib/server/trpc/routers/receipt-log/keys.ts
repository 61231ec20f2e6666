/** GET /api/receipts/keys: the service's public signing keys, with the period each was in use. */
import { z } from 'zod';
import { publishedKeyOut } from '../../../receipts/signature.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { publishedKeysOf } from '../../service-keys';
import { receiptLogMeta } from './meta';

export const keysProcedure = publicProcedure
  .meta(receiptLogMeta('/receipts/keys', "The service's public signing keys, with the period each was in use"))
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(toolFields('receipt-keys', { signingKeyId: z.string(), keys: z.array(publishedKeyOut) }))
  .query(async ({ ctx }) => {
    const { signer, keys } = await publishedKeysOf(ctx);
    return toolAnswer('receipt-keys', ctx, { signingKeyId: signer.keyId, keys });
  });
