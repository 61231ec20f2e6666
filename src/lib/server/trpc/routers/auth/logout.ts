/** POST /api/auth/logout: the caller's session ended, server-side. */
import { z } from 'zod';
import { checkRequestOrigin } from '../../../auth/origin';
import { invalidateSessionToken } from '../../../auth/sign-in';
import { authStore } from '../../../db/auth-repository';
import { clearSessionCookie, sessionTokenOf } from '../../../cookies/session-cookie';
import { publicProcedure } from '../../init';
import { authMeta, noInput, noStore } from './meta';

export const logoutProcedure = publicProcedure
  .meta(authMeta('POST', '/auth/logout', "End the caller's session (server-side)"))
  .input(noInput)
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx }) => {
    noStore(ctx.resHeaders);
    checkRequestOrigin(ctx.headers.get('origin'), ctx.config.origin);
    const token = sessionTokenOf(ctx.cookies);
    if (token) await invalidateSessionToken(token, authStore);
    clearSessionCookie(ctx.cookies, ctx.config.origin);
    return { ok: true as const };
  });
