/** POST /api/me/claim-coils: Coils this browser built before signing in, claimed for the signed-in wallet. */
import { z } from 'zod';
import { claimCoils } from '../../../db/coil-claim-repository';
import { claimTokenHashOf } from '../../../cookies/claim-cookie';
import { signIssued } from '../../../receipts/signature';
import { serviceSigner } from '../../../signing-key';
import { nowIsoField, publicProcedure } from '../../init';
import { CLAIM_LIST_LIMIT } from './claim-limits';
import { meMeta, requireSession } from './meta';

const MANIFEST_HASH = /^[0-9a-f]{64}$/;

export const claimCoilsProcedure = publicProcedure
  .meta(meMeta('POST', '/me/claim-coils', 'Claim Coils this browser built before signing in for the signed-in wallet'))
  .input(
    z.object({
      manifestHashes: z.array(z.string().regex(MANIFEST_HASH, 'expected 64 lower-case hex digits')).min(1).max(CLAIM_LIST_LIMIT),
      nowIso: nowIsoField,
    }),
  )
  .output(
    z.object({
      results: z.array(
        z.discriminatedUnion('claimed', [
          z.object({ manifestHash: z.string(), claimed: z.literal(true) }),
          z.object({ manifestHash: z.string(), claimed: z.literal(false), reason: z.literal('NO_CLAIM_TICKET') }),
        ]),
      ),
      claimedCount: z.number().int(),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const session = await requireSession(ctx);
    const tokenHash = claimTokenHashOf(ctx);
    const unique = [...new Set(input.manifestHashes)];
    const results = tokenHash
      ? await claimCoils(tokenHash, unique, session.address, ctx.serverTime, (receipt) =>
          signIssued(receipt, serviceSigner(ctx.config), ctx.serverTime, true),
        )
      : unique.map((manifestHash) => ({ manifestHash, claimed: false as const, reason: 'NO_CLAIM_TICKET' as const }));
    return { results, claimedCount: results.filter((r) => r.claimed).length };
  });
