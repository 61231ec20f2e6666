/** GET /api/auth/nonce: a single-use sign-in nonce. */
import { z } from 'zod';
import { issueNonce } from '../../../auth/nonce';
import { NONCE_RETENTION_MS } from '../../../auth/policy';
import { serverTimeAfter } from '../../../clock';
import { saveNonce, sweepNonces } from '../../../db/auth-repository';
import { publicProcedure } from '../../init';
import { authMeta, noInput, noStore } from './meta';

export const nonceProcedure = publicProcedure
  .meta(authMeta('GET', '/auth/nonce', 'A single-use sign-in nonce (expires after 10 minutes)'))
  .input(noInput)
  .output(z.object({ nonce: z.string(), issuedAt: z.string(), expiresAt: z.string() }))
  .query(async ({ ctx }) => {
    noStore(ctx.resHeaders);
    const issued = issueNonce(ctx.serverTime);
    await saveNonce(issued);
    await sweepNonces(serverTimeAfter(ctx.serverTime, -NONCE_RETENTION_MS));
    return { nonce: issued.nonce, issuedAt: issued.issuedAt.toISOString(), expiresAt: issued.expiresAt.toISOString() };
  });
