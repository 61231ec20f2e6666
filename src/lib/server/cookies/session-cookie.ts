/**
 * The session cookie on the request's cookie jar (cookies/cookie-jar.ts), wired to the
 * database's auth store: the glue around the domain's `readSession` (`auth/session.ts`).
 * Every request's `ctx.getSession()` lands in `resolveSession` once.
 */
import { readSession, type SessionInfo } from '../auth/session';
import { SESSION_COOKIE } from '../auth/policy';
import { isSessionTokenShape } from '../auth/session-token';
import type { ServerTime } from '../clock';
import { config } from '../config';
import type { CookieJar, CookieOptions } from './cookie-jar';
import { authStore } from '../db/auth-repository';

export type { SessionInfo };

function cookieOptions(origin: string): CookieOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // From the public origin, never from the request URL: behind a TLS-terminating proxy
    // the request is http even when the public origin is https.
    secure: new URL(origin).protocol === 'https:',
  };
}

export function setSessionCookie(cookies: CookieJar, token: string, expiresAt: Date, origin: string = config().origin): void {
  cookies.set(SESSION_COOKIE, token, { ...cookieOptions(origin), expires: expiresAt });
}

export function clearSessionCookie(cookies: CookieJar, origin: string = config().origin): void {
  cookies.delete(SESSION_COOKIE, cookieOptions(origin));
}

/** The raw token of the request's cookie, when it has the shape of one. */
export function sessionTokenOf(cookies: CookieJar): string | undefined {
  const value = cookies.get(SESSION_COOKIE);
  return isSessionTokenShape(value) ? value : undefined;
}

/** `now` is the server's clock at arrival (the context passes `serverTime`). */
export async function resolveSession(cookies: CookieJar, now: ServerTime): Promise<SessionInfo | null> {
  const reading = await readSession(cookies.get(SESSION_COOKIE), now, authStore);
  if (reading.cookie === 'clear') clearSessionCookie(cookies);
  if (reading.cookie === 'renew') setSessionCookie(cookies, reading.token, reading.session.expiresAt);
  return reading.session;
}
