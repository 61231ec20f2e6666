/**
 * Cross-site request check of the state-changing auth routes (verify, logout). The API
 * takes JSON only, so a cross-site HTML form cannot reach it, but a session cookie is
 * SameSite=Lax, and a browser always sends `Origin` on a POST: a POST whose Origin is not
 * this service's ORIGIN (or that has none) did not come from this service's pages.
 */
import { SvcError } from '../errors';
import { AUTH_CODES } from './errors';

export function checkRequestOrigin(originHeader: string | null, origin: string): void {
  const expected = new URL(origin).origin;
  if (originHeader !== null && originHeader === expected) return;
  const message =
    originHeader === null
      ? `This request must carry an Origin header equal to ${expected}`
      : `Requests from ${originHeader.slice(0, 200)} are not accepted here; only from ${expected}`;
  throw new SvcError(AUTH_CODES.ORIGIN_MISMATCH, message, {
    issues: [{ code: AUTH_CODES.ORIGIN_MISMATCH, message: originHeader === null ? 'Origin header missing' : 'Origin header differs from ORIGIN', path: 'headers.origin' }],
  });
}
