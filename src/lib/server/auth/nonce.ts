/** Sign-in nonces: random, alphanumeric (EIP-4361 grammar), with a fixed lifetime. */
import { randomFillSync } from 'node:crypto';
import { generateRandomString, type RandomReader } from '@oslojs/crypto/random';
import { serverTimeAfter, type ServerTime } from '../clock';
import { NONCE_LENGTH, NONCE_TTL_MS } from './policy';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const systemRandom: RandomReader = { read: (bytes) => randomFillSync(bytes) };

export interface IssuedNonce {
  nonce: string;
  issuedAt: ServerTime;
  expiresAt: ServerTime;
}

export function issueNonce(now: ServerTime, random: RandomReader = systemRandom): IssuedNonce {
  return {
    nonce: generateRandomString(random, ALPHANUMERIC, NONCE_LENGTH),
    issuedAt: now,
    expiresAt: serverTimeAfter(now, NONCE_TTL_MS),
  };
}

/** Why a nonce cannot be spent, from its stored row (or its absence). */
export type NonceState = 'unknown' | 'expired' | 'used' | 'spendable';

export function nonceState(row: { expiresAt: Date; usedAt: Date | null } | null, now: ServerTime): NonceState {
  if (!row) return 'unknown';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'spendable';
}
