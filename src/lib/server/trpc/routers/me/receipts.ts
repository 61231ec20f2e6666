/** GET /api/me/receipts: the caller's saved receipts, newest first, a page at a time. */
import { z } from 'zod';
import { listOwnedReceipts } from '../../../db/me-repository';
import { nowIsoField, publicProcedure } from '../../init';
import { meMeta, requireSession } from './meta';
import { nextCursor, ownedReceipt, pageFields, pageOf } from './owned-rows';

export const receiptsProcedure = publicProcedure
  .meta(meMeta('GET', '/me/receipts', "The caller's saved receipts"))
  .input(
    z
      .object({
        ...pageFields,
        coilSlug: z.string().min(1).max(200).meta({ description: 'Only the receipts of this Coil slug' }).optional(),
        nowIso: nowIsoField,
      })
      .optional(),
  )
  .output(z.object({ items: z.array(ownedReceipt), nextCursor }))
  .query(async ({ ctx, input }) => {
    const session = await requireSession(ctx);
    return listOwnedReceipts(session.address, { ...pageOf(input), coilSlug: input?.coilSlug });
  });
