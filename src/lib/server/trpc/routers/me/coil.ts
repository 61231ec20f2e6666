/** GET /api/me/coils/{slug}: one of the caller's saved Coils, with its newest receipts. */
import { z } from 'zod';
import { findOwnedCoil, listOwnedReceipts } from '../../../db/me-repository';
import { DEFAULT_PAGE_LIMIT } from '../../../db/page-cursor';
import { SvcError } from '../../../errors';
import { nowIsoField, publicProcedure } from '../../init';
import { meMeta, requireSession } from './meta';
import { nextCursor, ownedCoil, ownedReceipt } from './owned-rows';

export const coilProcedure = publicProcedure
  .meta(
    meMeta('GET', '/me/coils/{slug}', "One of the caller's saved Coils, with its receipts", ['coil.name', 'coil.forkOf', 'coil.manifest']),
  )
  .input(z.object({ slug: z.string().min(1).max(200), nowIso: nowIsoField }))
  .output(z.object({ coil: ownedCoil, receipts: z.array(ownedReceipt), receiptsNextCursor: nextCursor }))
  .query(async ({ ctx, input }) => {
    const session = await requireSession(ctx);
    const coil = await findOwnedCoil(session.address, input.slug);
    if (!coil) {
      throw new SvcError('COIL_NOT_FOUND', 'No saved Coil with this slug belongs to your wallet', {
        issues: [{ code: 'COIL_NOT_FOUND', message: 'not among your saved Coils', path: 'slug' }],
      });
    }
    const receipts = await listOwnedReceipts(session.address, { coilSlug: input.slug, limit: DEFAULT_PAGE_LIMIT });
    return { coil, receipts: receipts.items, receiptsNextCursor: receipts.nextCursor };
  });
