/**
 * The fixed numbers of wallet sessions, in one place so the README, the OpenAPI text and
 * the tests quote the same values.
 */

/** A nonce is good for 10 minutes after it is issued (runtime contract). */
export const NONCE_TTL_MS = 10 * 60 * 1000;

/**
 * Spent and expired nonces are kept this long after they expire, so a late verify still
 * learns "reused" or "expired" rather than "unknown"; older rows are swept when new nonces
 * are issued.
 */
export const NONCE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Nonce length: 20 characters of [A-Za-z0-9] carry about 119 bits (EIP-4361 asks for 8+). */
export const NONCE_LENGTH = 20;

/** A session lives 30 days from sign-in or from its last renewal. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Sliding renewal (Lucia's design): a session used when less than 15 days remain is pushed
 * back to a full 30 days, so an active wallet stays signed in and an idle one expires.
 */
export const SESSION_RENEW_WITHIN_MS = 15 * 24 * 60 * 60 * 1000;

/** How far in the future a message's `issuedAt` (and `notBefore`) may be: wallet clocks drift. */
export const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** Chains a sign-in message may name: the broker chain and Ethereum mainnet. */
export const SIGN_IN_CHAIN_IDS: readonly number[] = [4663, 1];

/** The name of the session cookie (also the OpenAPI `walletSession` scheme). */
export const SESSION_COOKIE = 'svc_session';

/** Messages and signatures larger than this are refused before parsing. */
export const MAX_MESSAGE_CHARS = 8192;
export const MAX_SIGNATURE_CHARS = 16384;
