/** POST /api/auth/verify: a signed Sign-In with Ethereum message verified, and a session opened. */
import { z } from 'zod';
import { checkRequestOrigin } from '../../../auth/origin';
import { MAX_MESSAGE_CHARS, MAX_SIGNATURE_CHARS } from '../../../auth/policy';
import { invalidateSessionToken, signInWithEthereum } from '../../../auth/sign-in';
import { brokerChainClient } from '../../../chain-client';
import { authStore } from '../../../db/auth-repository';
import { sessionTokenOf, setSessionCookie } from '../../../cookies/session-cookie';
import { nowIsoField, publicProcedure } from '../../init';
import { authMeta, noStore } from './meta';

const verifyInput = z.object({
  message: z.string().min(1).max(MAX_MESSAGE_CHARS).describe('The EIP-4361 message exactly as the wallet signed it'),
  signature: z
    .string()
    .max(MAX_SIGNATURE_CHARS)
    .regex(/^0x[0-9a-fA-F]+$/, 'expected a 0x-prefixed hex signature')
    .describe('personal_sign signature of the message (65 bytes for an EOA; ERC-1271/6492 bytes for a contract wallet)'),
  nowIso: nowIsoField,
});

export const verifyProcedure = publicProcedure
  .meta(authMeta('POST', '/auth/verify', 'Verify a signed Sign-In with Ethereum message and open a session'))
  .input(verifyInput)
  .output(z.object({ address: z.string(), chainId: z.number().int(), expiresAt: z.string() }))
  .mutation(async ({ ctx, input }) => {
    noStore(ctx.resHeaders);
    checkRequestOrigin(ctx.headers.get('origin'), ctx.config.origin);
    const signedIn = await signInWithEthereum(
      { message: input.message, signature: input.signature as `0x${string}` },
      { origin: ctx.config.origin, now: ctx.serverTime, chain: brokerChainClient(ctx.config) },
      authStore,
    );
    // Signing in again (same or another wallet) replaces the browser's session: the one
    // its cookie held stops working rather than lingering until it expires.
    const previous = sessionTokenOf(ctx.cookies);
    if (previous) await invalidateSessionToken(previous, authStore);
    setSessionCookie(ctx.cookies, signedIn.token, signedIn.expiresAt, ctx.config.origin);
    return { address: signedIn.address, chainId: signedIn.chainId, expiresAt: signedIn.expiresAt.toISOString() };
  });
