/**
 * The caller's wallet session, read from the `svc_session` cookie: token → SHA-256 session
 * id → database row. Every request's `ctx.getSession()` lands here once. Expired sessions
 * are deleted on sight; a session used in the second half of its life is renewed and its
 * cookie re-sent (sliding expiry).
 */
import type { Cookies } from '@sveltejs/kit';
import { config } from '../config';
import { authStore } from '../db/auth-repository';
import { SESSION_COOKIE } from './policy';
import { isSessionTokenShape } from './session-token';
import { validateSessionToken } from './sign-in';

export interface SessionInfo {
  address: string;
  chainId: number;
  expiresAt: Date;
}

function cookieOptions(origin: string) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // Explicit: SvelteKit would otherwise decide from the request URL, which behind a
    // TLS-terminating proxy is http even when the public origin is https.
    secure: new URL(origin).protocol === 'https:',
  };
}

export function setSessionCookie(cookies: Cookies, token: string, expiresAt: Date, origin: string = config().origin): void {
  cookies.set(SESSION_COOKIE, token, { ...cookieOptions(origin), expires: expiresAt });
}

export function clearSessionCookie(cookies: Cookies, origin: string = config().origin): void {
  cookies.delete(SESSION_COOKIE, cookieOptions(origin));
}

/** The raw token of the request's cookie, when it has the shape of one. */
export function sessionTokenOf(cookies: Cookies): string | undefined {
  const value = cookies.get(SESSION_COOKIE);
  return isSessionTokenShape(value) ? value : undefined;
}

/**
 * `now` is the server's clock at arrival (the context passes `serverTime`), never the
 * caller's `nowIso`: a pinned clock must not revive an expired session.
 */
export async function resolveSession(cookies: Cookies, now: Date): Promise<SessionInfo | null> {
  const present = cookies.get(SESSION_COOKIE) !== undefined;
  const token = sessionTokenOf(cookies);
  const session = token ? await validateSessionToken(token, now, authStore) : null;
  if (!session) {
    if (present) clearSessionCookie(cookies);
    return null;
  }
  if (session.renewed) setSessionCookie(cookies, token!, session.expiresAt);
  return { address: session.address, chainId: session.chainId, expiresAt: session.expiresAt };
}
