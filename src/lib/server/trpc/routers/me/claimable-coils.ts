/** GET /api/me/claimable-coils: Coils this browser built before signing in, which the wallet may claim. */
import { z } from 'zod';
import { listClaimableCoils } from '../../../db/coil-claim-repository';
import { claimTokenHashOf } from '../../../cookies/claim-cookie';
import { nowIsoField, publicProcedure } from '../../init';
import { CLAIM_LIST_LIMIT } from './claim-limits';
import { meMeta, requireSession } from './meta';

export const claimableCoilsProcedure = publicProcedure
  .meta(
    meMeta('GET', '/me/claimable-coils', 'Coils this browser built before signing in, which the wallet may claim', [
      'items.*.name',
      'items.*.slug',
    ]),
  )
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    z.object({
      items: z.array(
        z.object({ manifestHash: z.string(), slug: z.string(), name: z.string(), assetCount: z.number().int(), builtAt: z.string() }),
      ),
    }),
  )
  .query(async ({ ctx }) => {
    await requireSession(ctx);
    const tokenHash = claimTokenHashOf(ctx);
    return { items: tokenHash ? await listClaimableCoils(tokenHash, CLAIM_LIST_LIMIT) : [] };
  });
