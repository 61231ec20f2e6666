/**
 * Sign-In with Ethereum from a test: fixed local test accounts (the well-known public
 * development keys, never funded anywhere that matters), EIP-4361 messages built with
 * viem, and helpers that sign in against a running test server.
 */
import { createHash } from 'node:crypto';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe';
import type { ApiResponse, TestServer } from './server';

export const WALLET_A = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
export const WALLET_B = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

export async function getNonce(server: TestServer): Promise<string> {
  const res = await server.get('/api/auth/nonce');
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${res.text}`);
  return res.json.nonce;
}

export type MessageOverrides = Partial<Omit<CreateSiweMessageParameters, 'address'>>;

/** A message this server accepts, unless `overrides` change something. */
export function siweMessage(server: TestServer, account: PrivateKeyAccount, nonce: string, overrides: MessageOverrides = {}): string {
  return createSiweMessage({
    domain: new URL(server.env.ORIGIN!).host,
    uri: server.env.ORIGIN!,
    version: '1',
    chainId: 4663,
    nonce,
    issuedAt: new Date(),
    statement: 'Sign in to the Strategy Basket Service. This proves wallet ownership only.',
    address: account.address,
    ...overrides,
  });
}

export function verify(
  server: TestServer,
  body: { message: string; signature: string },
  origin: string | null = server.env.ORIGIN!,
): Promise<ApiResponse> {
  return server.request('POST', '/api/auth/verify', { body, headers: origin === null ? {} : { origin } });
}

/** The `name=value` part of the session cookie a response sets, if any. */
export function sessionCookieOf(res: ApiResponse): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('svc_session='));
  return set?.split(';')[0];
}

export function tokenOf(cookie: string): string {
  return cookie.slice('svc_session='.length);
}

/** The stored session id of a token (Lucia's design: SHA-256, hex). */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface SignedIn {
  cookie: string;
  address: string;
  response: ApiResponse;
}

export async function signIn(server: TestServer, account: PrivateKeyAccount, overrides: MessageOverrides = {}): Promise<SignedIn> {
  const message = siweMessage(server, account, await getNonce(server), overrides);
  const signature = await account.signMessage({ message });
  const response = await verify(server, { message, signature });
  const cookie = sessionCookieOf(response);
  if (response.status !== 200 || !cookie) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return { cookie, address: account.address, response };
}
