/**
 * Session tokens in Lucia's design (lucia-auth.com, "Sessions"): the cookie carries a random
 * token; the database keeps only its SHA-256 as the session id, so a database leak yields
 * no usable cookie. Expiry slides: using a session in its second half renews it.
 */
import { randomFillSync } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { serverTimeAfter, type ServerTime } from '../clock';
import { SESSION_RENEW_WITHIN_MS, SESSION_TTL_MS } from './policy';

/** 20 random bytes (160 bits), base32 lower case: 32 characters of [a-z2-7]. */
export function generateSessionToken(random: (bytes: Uint8Array) => void = (b) => randomFillSync(b)): string {
  const bytes = new Uint8Array(20);
  random(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

const TOKEN_SHAPE = /^[a-z2-7]{32}$/;

/** Cookies that cannot be a token are refused without a database lookup. */
export function isSessionTokenShape(value: string | undefined): value is string {
  return value !== undefined && TOKEN_SHAPE.test(value);
}

/** The session id stored for a token: hex SHA-256 of its UTF-8 bytes. */
export function sessionIdOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function sessionExpiryFrom(now: ServerTime): ServerTime {
  return serverTimeAfter(now, SESSION_TTL_MS);
}

export type SessionFreshness = { state: 'expired' } | { state: 'valid'; expiresAt: Date } | { state: 'renew'; expiresAt: ServerTime };

/** What a use of a session at `now` does to it: refuse it, keep it, or push its expiry back. */
export function sessionFreshness(expiresAt: Date, now: ServerTime): SessionFreshness {
  if (now.getTime() >= expiresAt.getTime()) return { state: 'expired' };
  if (expiresAt.getTime() - now.getTime() < SESSION_RENEW_WITHIN_MS) return { state: 'renew', expiresAt: sessionExpiryFrom(now) };
  return { state: 'valid', expiresAt };
}
