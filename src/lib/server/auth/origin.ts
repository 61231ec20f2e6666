/**
 * Cross-site request check of the state-changing auth routes (verify, logout): a present
 * `Origin` header must be this service's ORIGIN; a request without one is accepted.
 *
 * Why an absent Origin is safe: every browser sends `Origin` on a POST (cross-site or not),
 * so a request without it does not come from a web page but from a non-browser client
 * (curl, an agent, a server), which has no victim's cookie to ride on and follows the
 * documented `{ message, signature }` contract. The other defences stay: the API takes JSON
 * bodies only, which a cross-site HTML form cannot send; the session cookie is SameSite=Lax,
 * so a cross-site POST never carries it; and signing in needs the wallet's signature over
 * this ORIGIN's domain.
 */
import { SvcError } from '../errors';
import { AUTH_CODES } from './errors';

export function checkRequestOrigin(originHeader: string | null, origin: string): void {
  if (originHeader === null) return;
  const expected = new URL(origin).origin;
  if (originHeader === expected) return;
  throw new SvcError(AUTH_CODES.ORIGIN_MISMATCH, `Requests from another origin are not accepted here; only from ${expected}`, {
    issues: [{ code: AUTH_CODES.ORIGIN_MISMATCH, message: 'Origin header differs from ORIGIN', path: 'headers.origin' }],
  });
}
