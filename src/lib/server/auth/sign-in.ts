/**
 * The sign-in and session rules, callable without HTTP (the REST route, the typed client
 * and any later tool use these). Storage is passed in, so this file holds no Prisma and
 * no clock of its own.
 */
import type { Hex } from 'viem';
import type { BrokerChainClient } from '../chain-client';
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { AUTH_CODES } from './errors';
import { nonceState, type NonceState } from './nonce';
import { generateSessionToken, sessionExpiryFrom, sessionFreshness, sessionIdOf } from './session-token';
import { checkSiweFields, parseSiweMessage } from './siwe';
import { verifySignInSignature } from './signature';

export interface StoredNonce {
  expiresAt: Date;
  usedAt: Date | null;
}

export interface StoredSession {
  address: string;
  chainId: number;
  expiresAt: Date;
}

export interface AuthStore {
  findNonce(nonce: string): Promise<StoredNonce | null>;
  /**
   * Marks the nonce used if, and only if, it is unused and unexpired at `now`, in one
   * conditional write. True for exactly one caller per nonce.
   */
  burnNonce(nonce: string, now: ServerTime): Promise<boolean>;
  /** Creates the wallet user on its first sign-in, then the session. */
  createSession(session: StoredSession & { id: string; expiresAt: ServerTime; createdAt: ServerTime }): Promise<void>;
  findSession(id: string): Promise<StoredSession | null>;
  setSessionExpiry(id: string, expiresAt: ServerTime): Promise<void>;
  deleteSession(id: string): Promise<void>;
}

export interface SignInSettings {
  /** ORIGIN: the SIWE domain and URI the message must name. */
  origin: string;
  /** The request's arrival time. Never a caller-pinned clock. */
  now: ServerTime;
  /** The client of chain 4663, for contract-wallet signatures (null: EOAs only). */
  chain?: BrokerChainClient | null;
}

export interface SignedIn {
  /** The cookie value; only its SHA-256 is stored. */
  token: string;
  address: string;
  chainId: number;
  expiresAt: Date;
}

const NONCE_REFUSALS: Record<Exclude<NonceState, 'spendable'>, { code: string; message: string }> = {
  unknown: { code: AUTH_CODES.SIWE_NONCE_UNKNOWN, message: 'The nonce was not issued by this service; get one from GET /api/auth/nonce' },
  expired: { code: AUTH_CODES.SIWE_NONCE_EXPIRED, message: 'The nonce has expired (nonces are good for 10 minutes); get a new one' },
  used: { code: AUTH_CODES.SIWE_NONCE_REUSED, message: 'The nonce was already used for a sign-in; get a new one' },
};

function refuseNonce(state: Exclude<NonceState, 'spendable'>): never {
  const { code, message } = NONCE_REFUSALS[state];
  throw new SvcError(code, message, { issues: [{ code, message, path: 'message.nonce' }] });
}

/**
 * Verifies a signed EIP-4361 message and opens a session. The nonce is spent only after
 * every other check passed, so a forged or mistaken attempt cannot burn someone else's
 * nonce; the spend itself is the conditional write that picks one winner.
 */
export async function signInWithEthereum(
  request: { message: string; signature: Hex },
  settings: SignInSettings,
  store: AuthStore,
): Promise<SignedIn> {
  const fields = parseSiweMessage(request.message);
  checkSiweFields(fields, { origin: settings.origin, now: settings.now });

  const before = nonceState(await store.findNonce(fields.nonce), settings.now);
  if (before !== 'spendable') refuseNonce(before);

  await verifySignInSignature(
    { address: fields.address, message: request.message, signature: request.signature, chainId: fields.chainId },
    { chain: settings.chain },
  );

  if (!(await store.burnNonce(fields.nonce, settings.now))) {
    // Another verify spent it first (or it expired meanwhile): say which.
    const after = nonceState(await store.findNonce(fields.nonce), settings.now);
    refuseNonce(after === 'spendable' ? 'used' : after);
  }

  const token = generateSessionToken();
  const expiresAt = sessionExpiryFrom(settings.now);
  await store.createSession({
    id: sessionIdOf(token),
    address: fields.address,
    chainId: fields.chainId,
    expiresAt,
    createdAt: settings.now,
  });
  return { token, address: fields.address, chainId: fields.chainId, expiresAt };
}

export interface ValidatedSession extends StoredSession {
  /** True when this use pushed the expiry back (the cookie must be re-sent). */
  renewed: boolean;
}

/** The session a token opens at `now`, renewing it when due; null when none (expired ones are deleted). */
export async function validateSessionToken(token: string, now: ServerTime, store: AuthStore): Promise<ValidatedSession | null> {
  const id = sessionIdOf(token);
  const session = await store.findSession(id);
  if (!session) return null;
  const freshness = sessionFreshness(session.expiresAt, now);
  if (freshness.state === 'expired') {
    await store.deleteSession(id);
    return null;
  }
  if (freshness.state === 'renew') {
    await store.setSessionExpiry(id, freshness.expiresAt);
    return { ...session, expiresAt: freshness.expiresAt, renewed: true };
  }
  return { ...session, renewed: false };
}

/** Logout: the session stops working everywhere, whoever holds a copy of the cookie. */
export async function invalidateSessionToken(token: string, store: AuthStore): Promise<void> {
  await store.deleteSession(sessionIdOf(token));
}
