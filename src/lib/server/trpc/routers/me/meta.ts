/** What the operations of the me family share: their meta and the session they all need. */
import { AUTH_CODES } from '../../../auth/errors';
import type { SessionInfo } from '../../../auth/session';
import { SvcError } from '../../../errors';
import type { RequestContext } from '../../context';
import { rest } from '../../init';
import type { SvcMeta } from '../../meta';

/** The meta of a /me route: wallet-scoped, so the document marks the session cookie. */
export const meMeta = (method: 'GET' | 'POST', path: `/${string}`, summary: string, callerPaths?: string[]): SvcMeta => ({
  family: 'me',
  openapi: rest(method, path, summary, { protect: true }),
  ...(callerPaths ? { callerPaths } : {}),
});

/** The caller's wallet session (401 SESSION_REQUIRED without one); the answer is then private. */
export async function requireSession(ctx: RequestContext): Promise<SessionInfo> {
  const session = await ctx.getSession();
  if (!session) {
    throw new SvcError(AUTH_CODES.SESSION_REQUIRED, 'Sign in with Ethereum first: this route needs a wallet session', {
      issues: [{ code: AUTH_CODES.SESSION_REQUIRED, message: 'no valid svc_session cookie (missing, expired, logged out or unknown)' }],
    });
  }
  ctx.resHeaders.set('cache-control', 'private, no-store');
  return session;
}
