/**
 * Sign-In with Ethereum and wallet sessions (interface 5, runtime contract "auth" rows):
 * GET /api/auth/nonce, POST /api/auth/verify, GET /api/auth/session, POST /api/auth/logout.
 *
 * Every security decision here (nonce and message expiry, session expiry) uses the
 * server's clock, `ctx.serverTime`, never `ctx.answerTime`: `nowIso` pins the timestamps of
 * an answer, and must never let a caller move the clock of a check.
 */
import { z } from 'zod';
import { brokerChainClient } from '../../chain-client';
import { serverTimeAfter } from '../../clock';
import { issueNonce } from '../../auth/nonce';
import { checkRequestOrigin } from '../../auth/origin';
import { MAX_MESSAGE_CHARS, MAX_SIGNATURE_CHARS, NONCE_RETENTION_MS } from '../../auth/policy';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../http/session-cookie';
import { invalidateSessionToken, signInWithEthereum } from '../../auth/sign-in';
import { authStore, saveNonce, sweepNonces } from '../../db/auth-repository';
import type { HeaderWriter } from '../context';
import { nowIsoField, publicProcedure, rest, router } from '../init';

const noInput = z.object({ nowIso: nowIsoField }).optional();

const verifyInput = z.object({
  message: z.string().min(1).max(MAX_MESSAGE_CHARS).describe('The EIP-4361 message exactly as the wallet signed it'),
  signature: z
    .string()
    .max(MAX_SIGNATURE_CHARS)
    .regex(/^0x[0-9a-fA-F]+$/, 'expected a 0x-prefixed hex signature')
    .describe('personal_sign signature of the message (65 bytes for an EOA; ERC-1271/6492 bytes for a contract wallet)'),
  nowIso: nowIsoField,
});

const sessionOutput = z.object({
  authenticated: z.boolean(),
  address: z.string().optional().describe('EIP-55 checksummed wallet address'),
  chainId: z.number().int().optional(),
  expiresAt: z.string().optional().describe('When the session ends unless it is used again (sliding renewal)'),
});

const AUTH_ERRORS_TEXT =
  'Refusals, each with its own code: 400 SIWE_MESSAGE_MALFORMED (not an EIP-4361 message); 401 SIWE_DOMAIN_MISMATCH, SIWE_URI_MISMATCH, SIWE_VERSION_UNSUPPORTED, SIWE_CHAIN_UNSUPPORTED (only 4663 and 1), SIWE_ISSUED_IN_FUTURE (more than 2 minutes ahead), SIWE_MESSAGE_EXPIRED, SIWE_NOT_YET_VALID, SIWE_NONCE_UNKNOWN, SIWE_NONCE_EXPIRED, SIWE_NONCE_REUSED, SIWE_SIGNATURE_INVALID; 403 ORIGIN_MISMATCH (an Origin header other than ORIGIN; a request without Origin, from a non-browser client, is accepted); 503 SIWE_SIGNATURE_CHECK_UNAVAILABLE (a contract-wallet check could not reach chain 4663).';

function noStore(headers: HeaderWriter): void {
  headers.set('cache-control', 'no-store');
}

export const authRouter = router({
  nonce: publicProcedure
    .meta({
      family: 'auth',
      openapi: rest('GET', '/auth/nonce', 'A single-use sign-in nonce (expires after 10 minutes)', {
        description:
          'Returns a random alphanumeric nonce (20 characters, about 119 bits) stored server-side. Put it in the EIP-4361 message you sign; the first successful POST /api/auth/verify spends it.',
      }),
    })
    .input(noInput)
    .output(z.object({ nonce: z.string(), issuedAt: z.string(), expiresAt: z.string() }))
    .query(async ({ ctx }) => {
      noStore(ctx.resHeaders);
      const issued = issueNonce(ctx.serverTime);
      await saveNonce(issued);
      await sweepNonces(serverTimeAfter(ctx.serverTime, -NONCE_RETENTION_MS));
      return { nonce: issued.nonce, issuedAt: issued.issuedAt.toISOString(), expiresAt: issued.expiresAt.toISOString() };
    }),

  verify: publicProcedure
    .meta({
      family: 'auth',
      openapi: rest('POST', '/auth/verify', 'Verify a signed Sign-In with Ethereum message and open a session', {
        description: `The message must name this service's host as its domain and a URI on ORIGIN, version 1, chain 4663 or 1, a nonce from GET /api/auth/nonce (unexpired, unused), an issuedAt not in the future, and respect its expirationTime and notBefore. The signature must recover to the message's address (contract wallets through ERC-1271/6492 on chain 4663 when the chain RPC is configured). On success the wallet user is created on first sign-in, a session the request's cookie already held is ended, and an HttpOnly, SameSite=Lax session cookie \`svc_session\` is set (Secure when ORIGIN is https), valid 30 days with sliding renewal. An Origin header, when present, must equal ORIGIN. ${AUTH_ERRORS_TEXT}`,
      }),
    })
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
    }),

  session: publicProcedure
    .meta({
      family: 'auth',
      openapi: rest('GET', '/auth/session', "The caller's wallet session, if any", {
        description:
          'Always 200: `{ authenticated: false }` without a valid session (none, expired, logged out or forged), otherwise the address, chain id and expiry. Using a session with less than 15 days left renews it to 30 days and re-sends the cookie.',
      }),
    })
    .input(noInput)
    .output(sessionOutput)
    .query(async ({ ctx }) => {
      noStore(ctx.resHeaders);
      const session = await ctx.getSession();
      if (!session) return { authenticated: false };
      return { authenticated: true, address: session.address, chainId: session.chainId, expiresAt: session.expiresAt.toISOString() };
    }),

  logout: publicProcedure
    .meta({
      family: 'auth',
      openapi: rest('POST', '/auth/logout', "End the caller's session (server-side)", {
        description:
          'Deletes the session row, so the cookie stops working everywhere, and clears the cookie. Answers `{ ok: true }` also when there was no session. An Origin header, when present, must equal ORIGIN (403 ORIGIN_MISMATCH); a request without one is accepted.',
      }),
    })
    .input(noInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      noStore(ctx.resHeaders);
      checkRequestOrigin(ctx.headers.get('origin'), ctx.config.origin);
      const token = sessionTokenOf(ctx.cookies);
      if (token) await invalidateSessionToken(token, authStore);
      clearSessionCookie(ctx.cookies, ctx.config.origin);
      return { ok: true as const };
    }),
});
