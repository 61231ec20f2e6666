/** GET /api/me/coils: the caller's saved Coils, newest first, a page at a time. */
import { z } from 'zod';
import { newestThesesOf } from '../../../db/coil-reading-repository';
import { listOwnedCoils } from '../../../db/me-repository';
import { nowIsoField, publicProcedure } from '../../init';
import { meMeta, requireSession } from './meta';
import { nextCursor, ownedCoil, pageFields, pageOf } from './owned-rows';

export const coilsProcedure = publicProcedure
  // The caller's own saved texts, read back: not statements of the service.
  .meta(meMeta('GET', '/me/coils', "The caller's saved Coils", ['items.*.name', 'items.*.forkOf', 'items.*.manifest', 'items.*.thesis']))
  .input(z.object({ ...pageFields, nowIso: nowIsoField }).optional())
  .output(
    z.object({
      items: z.array(
        ownedCoil.extend({
          thesis: z
            .string()
            .nullable()
            .describe("the wallet's newest thesis that generated this Coil; null for a Coil it did not generate from one"),
        }),
      ),
      nextCursor,
    }),
  )
  .query(async ({ ctx, input }) => {
    const session = await requireSession(ctx);
    const page = await listOwnedCoils(session.address, pageOf(input));
    const theses = await newestThesesOf(
      page.items.map((c) => c.manifestHash),
      { wallet: session.address },
    );
    return { ...page, items: page.items.map((c) => ({ ...c, thesis: theses.get(c.manifestHash) ?? null })) };
  });
