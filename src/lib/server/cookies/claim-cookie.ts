/**
 * The browser's claim token (docs/visibility.md#claiming): a random token in an HttpOnly
 * cookie, made the first time this browser builds a Coil without a wallet session. It is the
 * browser's proof that it built those Coils; the database keeps only its SHA-256 (the session
 * token's design, auth/session-token.ts). Only the web app's door (/trpc) gets one: REST and
 * MCP callers build public Coils that nobody claims.
 */
import { generateSessionToken, isSessionTokenShape, sessionIdOf } from '../auth/session-token';
import type { ServiceConfig } from '../config';
import { NO_COOKIES, type CookieJar } from './cookie-jar';

/** What the claim cookie needs of a procedure call (a `RequestContext` fits). */
export interface ClaimCookieCall {
  url: URL;
  cookies: CookieJar;
  config: ServiceConfig;
}

export const CLAIM_COOKIE = 'svc_builder';
/** The token made for a request, so that every call of one tRPC batch hands out the same one. */
const madeFor = new WeakMap<object, string>();
/** How long a browser keeps its tickets: 30 days. */
const CLAIM_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

/** The hash of the browser's claim token, or undefined when it has none. */
export function claimTokenHashOf(ctx: Pick<ClaimCookieCall, 'cookies'>): string | undefined {
  const token = ctx.cookies.get(CLAIM_COOKIE);
  return isSessionTokenShape(token) ? sessionIdOf(token) : undefined;
}

/** The hash of the browser's claim token, made (and its cookie set) when it has none; undefined outside the web app's door. */
export function ensureClaimTokenHash(ctx: ClaimCookieCall): string | undefined {
  if (ctx.cookies === NO_COOKIES || !ctx.url.pathname.startsWith('/trpc/')) return undefined;
  const existing = claimTokenHashOf(ctx);
  if (existing) return existing;
  const made = madeFor.get(ctx.cookies);
  if (made) return sessionIdOf(made);
  const token = generateSessionToken();
  madeFor.set(ctx.cookies, token);
  ctx.cookies.set(CLAIM_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: new URL(ctx.config.origin).protocol === 'https:',
    maxAge: CLAIM_COOKIE_MAX_AGE_SECONDS,
  });
  return sessionIdOf(token);
}
