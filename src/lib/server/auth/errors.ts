/**
 * Stable reason codes of the auth family. Each failing check of a sign-in has its own code
 * so a client (and a test) can tell exactly which rule refused it. Their HTTP statuses
 * are in the one table of src/lib/server/trpc/error-map.ts.
 */
export const AUTH_CODES = {
  /** The message is not a well-formed EIP-4361 message (400). */
  SIWE_MESSAGE_MALFORMED: 'SIWE_MESSAGE_MALFORMED',
  /** The message's domain (or its optional scheme) is not this service's ORIGIN host (401). */
  SIWE_DOMAIN_MISMATCH: 'SIWE_DOMAIN_MISMATCH',
  /** The message's URI is not on this service's ORIGIN (401). */
  SIWE_URI_MISMATCH: 'SIWE_URI_MISMATCH',
  /** The message's version is not 1 (401). */
  SIWE_VERSION_UNSUPPORTED: 'SIWE_VERSION_UNSUPPORTED',
  /** The message names a chain other than 4663 or 1 (401). */
  SIWE_CHAIN_UNSUPPORTED: 'SIWE_CHAIN_UNSUPPORTED',
  /** `issuedAt` is later than now plus the allowed clock skew (401). */
  SIWE_ISSUED_IN_FUTURE: 'SIWE_ISSUED_IN_FUTURE',
  /** `expirationTime` has passed (401). */
  SIWE_MESSAGE_EXPIRED: 'SIWE_MESSAGE_EXPIRED',
  /** `notBefore` has not been reached (401). */
  SIWE_NOT_YET_VALID: 'SIWE_NOT_YET_VALID',
  /** The nonce was never issued here (or was swept long after it expired) (401). */
  SIWE_NONCE_UNKNOWN: 'SIWE_NONCE_UNKNOWN',
  /** The nonce was issued here but its 10 minutes are over (401). */
  SIWE_NONCE_EXPIRED: 'SIWE_NONCE_EXPIRED',
  /** The nonce was already spent by an earlier sign-in (401). */
  SIWE_NONCE_REUSED: 'SIWE_NONCE_REUSED',
  /** The signature does not prove the message's address signed this exact message (401). */
  SIWE_SIGNATURE_INVALID: 'SIWE_SIGNATURE_INVALID',
  /** A contract-wallet signature could not be checked because the chain did not answer (503). */
  SIWE_SIGNATURE_CHECK_UNAVAILABLE: 'SIWE_SIGNATURE_CHECK_UNAVAILABLE',
  /** A state-changing auth request without this service's Origin header (403). */
  ORIGIN_MISMATCH: 'ORIGIN_MISMATCH',
  /** A wallet-scoped route called without a valid session (401). */
  SESSION_REQUIRED: 'SESSION_REQUIRED',
} as const;

export type AuthCode = (typeof AUTH_CODES)[keyof typeof AUTH_CODES];
