/** Long descriptions of the auth family (routers/auth/), keyed by procedure path. */

const AUTH_ERRORS_TEXT =
  'Refusals, each with its own code: 400 SIWE_MESSAGE_MALFORMED (not an EIP-4361 message); 401 SIWE_DOMAIN_MISMATCH, SIWE_URI_MISMATCH, SIWE_VERSION_UNSUPPORTED, SIWE_CHAIN_UNSUPPORTED (only 4663 and 1), SIWE_ISSUED_IN_FUTURE (more than 2 minutes ahead), SIWE_MESSAGE_EXPIRED, SIWE_NOT_YET_VALID, SIWE_NONCE_UNKNOWN, SIWE_NONCE_EXPIRED, SIWE_NONCE_REUSED, SIWE_SIGNATURE_INVALID; 403 ORIGIN_MISMATCH (an Origin header other than ORIGIN; a request without Origin, from a non-browser client, is accepted); 503 SIWE_SIGNATURE_CHECK_UNAVAILABLE (a contract-wallet check could not reach chain 4663).';

export const AUTH_DOCS: Readonly<Record<string, string>> = {
  'auth.nonce':
    'Returns a random alphanumeric nonce (20 characters, about 119 bits) stored server-side. Put it in the EIP-4361 message you sign; the first successful POST /api/auth/verify spends it.',
  'auth.verify': `The message must name this service's host as its domain and a URI on ORIGIN, version 1, chain 4663 or 1, a nonce from GET /api/auth/nonce (unexpired, unused), an issuedAt not in the future, and respect its expirationTime and notBefore. The signature must recover to the message's address (contract wallets through ERC-1271/6492 on chain 4663 when the chain RPC is configured). On success the wallet user is created on first sign-in, a session the request's cookie already held is ended, and an HttpOnly, SameSite=Lax session cookie \`svc_session\` is set (Secure when ORIGIN is https), valid 30 days with sliding renewal. An Origin header, when present, must equal ORIGIN. ${AUTH_ERRORS_TEXT}`,
  'auth.session':
    'Always 200: `{ authenticated: false }` without a valid session (none, expired, logged out or forged), otherwise the address, chain id and expiry. Using a session with less than 15 days left renews it to 30 days and re-sends the cookie.',
  'auth.logout':
    'Deletes the session row, so the cookie stops working everywhere, and clears the cookie. Answers `{ ok: true }` also when there was no session. An Origin header, when present, must equal ORIGIN (403 ORIGIN_MISMATCH); a request without one is accepted.',
};
