/**
 * The caller's wallet session, if any. The Sign-In with Ethereum issue fills this in
 * (cookie → SHA-256 session id → database); until then every request is anonymous.
 */
import type { Cookies } from '@sveltejs/kit';

export interface SessionInfo {
  address: string;
  chainId: number;
  expiresAt: Date;
}

export async function resolveSession(_cookies: Cookies, _now: Date): Promise<SessionInfo | null> {
  return null;
}
