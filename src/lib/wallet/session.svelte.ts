/**
 * The page's view of the wallet session, shared by the sign-in control in the layout and
 * the "My Coils" page. The session itself lives on the server (an HttpOnly cookie the page
 * cannot read); this state only mirrors GET /api/auth/session.
 */
import { getAddress, stringToHex, type Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { createClient } from '$lib/trpc';
import { readError } from '$lib/ui/errors';
import { ensureBrokerChain } from './chain';
import type { DiscoveredWallet } from './eip1193';

export type SessionStatus = 'unknown' | 'signed_out' | 'signing_in' | 'signed_in';

export const walletSession = $state<{
  status: SessionStatus;
  address?: string;
  chainId?: number;
  expiresAt?: string;
  error?: string;
}>({ status: 'unknown' });

const STATEMENT =
  'Sign in to the Strategy Basket Service. This signature proves you control this wallet; it moves no funds and approves no transaction.';

/** A readable reason from a failed call: the service's stable code and its message. */
export function describeError(error: unknown): string {
  const shown = readError(error);
  return shown.code === 'WALLET_REQUEST_DECLINED' ? shown.message : `${shown.code}: ${shown.message}`;
}

function apply(session: { authenticated: boolean; address?: string; chainId?: number; expiresAt?: string }): void {
  walletSession.status = session.authenticated ? 'signed_in' : 'signed_out';
  walletSession.address = session.address;
  walletSession.chainId = session.chainId;
  walletSession.expiresAt = session.expiresAt;
}

export async function refreshSession(): Promise<void> {
  try {
    apply(await createClient().auth.session.query());
  } catch (error) {
    walletSession.status = 'signed_out';
    walletSession.error = describeError(error);
  }
}

/**
 * The EIP-4361 message for this page's origin: the address, the chain (4663 unless the signer
 * says otherwise), a fresh single-use nonce from the server, and ten minutes to sign it.
 */
export async function signInMessage(address: string, chainId: number): Promise<string> {
  const { nonce } = await createClient().auth.nonce.query();
  // The rule flags any Date built inside an exported function; these two are local timestamps of the sign-in message.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- never mutated nor rendered
  const issuedAt = new Date();
  return createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address: getAddress(address),
    statement: STATEMENT,
    version: '1',
    chainId,
    nonce,
    issuedAt,
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- as issuedAt above
    expirationTime: new Date(issuedAt.getTime() + 10 * 60 * 1000),
  });
}

/** The server checks the signed message and sets the session cookie; the page mirrors the session. Throws the refusal. */
export async function completeSignIn(message: string, signature: Hex): Promise<void> {
  const result = await createClient().auth.verify.mutate({ message, signature });
  walletSession.error = undefined;
  apply({ authenticated: true, ...result });
}

/**
 * EIP-4361 with the chosen wallet: ask for the account, make sure the wallet is on chain
 * 4663 (the guard every wallet action passes), build the message for this page's origin, have
 * the wallet sign it (personal_sign), and let the server verify it and set the session cookie.
 */
export async function signInWith(wallet: DiscoveredWallet): Promise<void> {
  walletSession.error = undefined;
  walletSession.status = 'signing_in';
  try {
    const accounts = (await wallet.provider.request({ method: 'eth_requestAccounts' })) as string[];
    if (!accounts?.length) throw new Error('The wallet shared no account.');
    const address = getAddress(accounts[0]!);
    const chainId = await ensureBrokerChain(wallet.provider);
    const message = await signInMessage(address, chainId);
    const signature = (await wallet.provider.request({ method: 'personal_sign', params: [stringToHex(message), address] })) as Hex;
    await completeSignIn(message, signature);
  } catch (error) {
    walletSession.status = 'signed_out';
    walletSession.error = describeError(error);
  }
}

export async function signOut(): Promise<void> {
  walletSession.error = undefined;
  try {
    await createClient().auth.logout.mutate();
    apply({ authenticated: false });
  } catch (error) {
    walletSession.error = describeError(error);
  }
}
