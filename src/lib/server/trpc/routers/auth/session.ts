/** GET /api/auth/session: the caller's wallet session, if any. */
import { z } from 'zod';
import { publicProcedure } from '../../init';
import { authMeta, noInput, noStore } from './meta';

const sessionOutput = z.object({
  authenticated: z.boolean(),
  address: z.string().optional().describe('EIP-55 checksummed wallet address'),
  chainId: z.number().int().optional(),
  expiresAt: z.string().optional().describe('When the session ends unless it is used again (sliding renewal)'),
});

export const sessionProcedure = publicProcedure
  .meta(authMeta('GET', '/auth/session', "The caller's wallet session, if any"))
  .input(noInput)
  .output(sessionOutput)
  .query(async ({ ctx }) => {
    noStore(ctx.resHeaders);
    const session = await ctx.getSession();
    if (!session) return { authenticated: false };
    return { authenticated: true, address: session.address, chainId: session.chainId, expiresAt: session.expiresAt.toISOString() };
  });
