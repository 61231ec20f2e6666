/**
 * The page's view of the wallet session, shared by the sign-in control in the layout and
 * the "My Coils" page. The session itself lives on the server (an HttpOnly cookie the page
 * cannot read); this state only mirrors GET /api/auth/session.
 */
import { TRPCClientError } from '@trpc/client';
import { getAddress, stringToHex, type Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { createClient } from '$lib/trpc';
import { isUserRejection, type DiscoveredWallet } from './eip1193';

export type SessionStatus = 'unknown' | 'signed_out' | 'signing_in' | 'signed_in';

export const walletSession = $state<{
  status: SessionStatus;
  address?: string;
  chainId?: number;
  expiresAt?: string;
  error?: string;
}>({ status: 'unknown' });

const SIGN_IN_CHAINS = [4663, 1];
const STATEMENT = 'Sign in to the Strategy Basket Service. This signature proves you control this wallet; it moves no funds and approves no transaction.';

/** A readable reason from a failed call: the service's stable code and its message. */
export function describeError(error: unknown): string {
  if (isUserRejection(error)) return 'You declined the request in your wallet.';
  if (error instanceof TRPCClientError) {
    const code = (error.data as { svcCode?: string } | undefined)?.svcCode;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
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
 * EIP-4361 with the chosen wallet: ask for the account, fetch a nonce, build the message
 * for this page's origin, have the wallet sign it (personal_sign), and let the server
 * verify it and set the session cookie.
 */
export async function signInWith(wallet: DiscoveredWallet): Promise<void> {
  walletSession.error = undefined;
  walletSession.status = 'signing_in';
  try {
    const client = createClient();
    const accounts = (await wallet.provider.request({ method: 'eth_requestAccounts' })) as string[];
    if (!accounts?.length) throw new Error('The wallet shared no account.');
    const address = getAddress(accounts[0]!);
    const walletChain = Number.parseInt(String(await wallet.provider.request({ method: 'eth_chainId' })), 16);
    const chainId = SIGN_IN_CHAINS.includes(walletChain) ? walletChain : 4663;
    const { nonce } = await client.auth.nonce.query();
    const issuedAt = new Date();
    const message = createSiweMessage({
      domain: window.location.host,
      uri: window.location.origin,
      address,
      statement: STATEMENT,
      version: '1',
      chainId,
      nonce,
      issuedAt,
      expirationTime: new Date(issuedAt.getTime() + 10 * 60 * 1000),
    });
    const signature = (await wallet.provider.request({ method: 'personal_sign', params: [stringToHex(message), address] })) as Hex;
    const result = await client.auth.verify.mutate({ message, signature });
    apply({ authenticated: true, ...result });
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
