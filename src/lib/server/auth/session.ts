/**
 * The caller's wallet session, read from the value of the `svc_session` cookie: token →
 * SHA-256 session id → stored row. Expired sessions are deleted on sight; a session used in
 * the second half of its life is renewed (sliding expiry). No framework, database or
 * configuration here: the cookie jar and the store are the glue's (`cookies/session-cookie.ts`).
 */
import type { ServerTime } from '../clock';
import { isSessionTokenShape } from './session-token';
import { validateSessionToken, type AuthStore } from './sign-in';

export interface SessionInfo {
  address: string;
  chainId: number;
  expiresAt: Date;
}

/**
 * What the request's cookie turned out to be, and what the response must do with the cookie:
 * `keep` it, `clear` it (sent but no live session behind it) or `renew` it (re-sent with the
 * session's new expiry).
 */
export type SessionReading =
  { session: null; cookie: 'keep' | 'clear' } | { session: SessionInfo; token: string; cookie: 'keep' | 'renew' };

/**
 * `cookieValue` is the raw cookie (undefined when none was sent). `now` is the server's clock
 * at arrival, never the caller's `nowIso`: a pinned clock must not revive an expired session.
 */
export async function readSession(cookieValue: string | undefined, now: ServerTime, store: AuthStore): Promise<SessionReading> {
  const session = isSessionTokenShape(cookieValue) ? await validateSessionToken(cookieValue, now, store) : null;
  if (!session) return { session: null, cookie: cookieValue === undefined ? 'keep' : 'clear' };
  return {
    session: { address: session.address, chainId: session.chainId, expiresAt: session.expiresAt },
    token: cookieValue!,
    cookie: session.renewed ? 'renew' : 'keep',
  };
}
