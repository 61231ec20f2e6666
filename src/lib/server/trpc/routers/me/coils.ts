/** GET /api/me/coils: the caller's saved Coils, newest first, a page at a time. */
import { z } from 'zod';
import { listOwnedCoils } from '../../../db/me-repository';
import { nowIsoField, publicProcedure } from '../../init';
import { meMeta, requireSession } from './meta';
import { nextCursor, ownedCoil, pageFields, pageOf } from './owned-rows';

export const coilsProcedure = publicProcedure
  // The caller's own saved texts, read back: not statements of the service.
  .meta(meMeta('GET', '/me/coils', "The caller's saved Coils", ['items.*.name', 'items.*.forkOf', 'items.*.manifest']))
  .input(z.object({ ...pageFields, nowIso: nowIsoField }).optional())
  .output(z.object({ items: z.array(ownedCoil), nextCursor }))
  .query(async ({ ctx, input }) => {
    const session = await requireSession(ctx);
    return listOwnedCoils(session.address, pageOf(input));
  });
