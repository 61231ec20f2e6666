/** The pure rules of wallet sessions: message checks, nonce state, session expiry, tokens, cursors, Origin. */
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { issueNonce, nonceState } from '../../src/lib/server/auth/nonce';
import { checkRequestOrigin } from '../../src/lib/server/auth/origin';
import { readSession } from '../../src/lib/server/auth/session';
import { generateSessionToken, isSessionTokenShape, sessionFreshness, sessionIdOf } from '../../src/lib/server/auth/session-token';
import type { AuthStore, StoredSession } from '../../src/lib/server/auth/sign-in';
import { checkSiweFields, parseSiweMessage } from '../../src/lib/server/auth/siwe';
import { verifySignInSignature } from '../../src/lib/server/auth/signature';
import { decodeCursor, encodeCursor } from '../../src/lib/server/db/page-cursor';
import { SvcError } from '../../src/lib/server/errors';
import { serverTimeAt } from '../support/clocks';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const NOW = serverTimeAt('2026-05-01T10:00:00.000Z');
const ORIGIN = 'https://svc.example:8443';
const DAY = 24 * 60 * 60 * 1000;

function message(overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  return createSiweMessage({
    domain: 'svc.example:8443',
    uri: 'https://svc.example:8443/',
    version: '1',
    chainId: 4663,
    nonce: 'abcdefgh12345678',
    issuedAt: NOW,
    address: account.address,
    ...overrides,
  });
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as SvcError).code;
  }
  return undefined;
}

const check = (text: string, now = NOW) => codeOf(() => checkSiweFields(parseSiweMessage(text), { origin: ORIGIN, now }));

describe('EIP-4361 checks', () => {
  it('accepts a message for this origin and names each failing rule', () => {
    expect(check(message())).toBeUndefined();
    expect(check(message({ domain: 'svc.example' }))).toBe('SIWE_DOMAIN_MISMATCH');
    expect(check(message({ scheme: 'http' }))).toBe('SIWE_DOMAIN_MISMATCH');
    expect(check(message({ scheme: 'https' }))).toBeUndefined();
    expect(check(message({ uri: 'https://svc.example/' }))).toBe('SIWE_URI_MISMATCH');
    expect(check(message({ uri: 'http://svc.example:8443/' }))).toBe('SIWE_URI_MISMATCH');
    expect(check(message({ chainId: 10 }))).toBe('SIWE_CHAIN_UNSUPPORTED');
    expect(check(message({ chainId: 1 }))).toBeUndefined();
    expect(check(message({ issuedAt: new Date(NOW.getTime() + 60_000) }))).toBeUndefined(); // within skew
    expect(check(message({ issuedAt: new Date(NOW.getTime() + 3 * 60_000) }))).toBe('SIWE_ISSUED_IN_FUTURE');
    expect(check(message({ expirationTime: NOW }))).toBe('SIWE_MESSAGE_EXPIRED');
    expect(check(message({ expirationTime: new Date(NOW.getTime() + 1) }))).toBeUndefined();
    expect(check(message({ notBefore: new Date(NOW.getTime() + 3 * 60_000) }))).toBe('SIWE_NOT_YET_VALID');
  });

  it('refuses what the grammar refuses', () => {
    expect(codeOf(() => parseSiweMessage('hello'))).toBe('SIWE_MESSAGE_MALFORMED');
    expect(codeOf(() => parseSiweMessage(message().replace(account.address, account.address.toLowerCase())))).toBe(
      'SIWE_MESSAGE_MALFORMED',
    );
    expect(codeOf(() => parseSiweMessage(message().replace('Nonce: abcdefgh12345678', 'Nonce: short')))).toBe('SIWE_MESSAGE_MALFORMED');
  });
});

describe('signatures (no RPC configured: EOAs only)', () => {
  it('accepts the address owner and refuses another key or another text', async () => {
    const text = message();
    const signature = await account.signMessage({ message: text });
    await expect(verifySignInSignature({ address: account.address, message: text, signature, chainId: 4663 })).resolves.toBeUndefined();
    const other = await privateKeyToAccount(`0x${'2'.repeat(64)}`).signMessage({ message: text });
    await expect(verifySignInSignature({ address: account.address, message: text, signature: other, chainId: 4663 })).rejects.toMatchObject(
      { code: 'SIWE_SIGNATURE_INVALID' },
    );
    await expect(verifySignInSignature({ address: account.address, message: `${text} `, signature, chainId: 4663 })).rejects.toMatchObject({
      code: 'SIWE_SIGNATURE_INVALID',
    });
    await expect(
      verifySignInSignature({ address: account.address, message: text, signature: '0x1234', chainId: 4663 }),
    ).rejects.toMatchObject({ code: 'SIWE_SIGNATURE_INVALID' });
  });
});

describe('nonces', () => {
  it('are 20 alphanumeric characters, distinct, valid for 10 minutes', () => {
    const a = issueNonce(NOW);
    expect(a.nonce).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(issueNonce(NOW).nonce).not.toBe(a.nonce);
    expect(a.expiresAt.getTime() - NOW.getTime()).toBe(600_000);
  });

  it('report why they cannot be spent', () => {
    expect(nonceState(null, NOW)).toBe('unknown');
    expect(nonceState({ expiresAt: new Date(NOW.getTime() + 1), usedAt: null }, NOW)).toBe('spendable');
    expect(nonceState({ expiresAt: NOW, usedAt: null }, NOW)).toBe('expired');
    expect(nonceState({ expiresAt: new Date(NOW.getTime() + 1), usedAt: NOW }, NOW)).toBe('used');
  });
});

describe('session tokens and expiry', () => {
  it('stores only a SHA-256 of a 160-bit token', () => {
    const token = generateSessionToken();
    expect(isSessionTokenShape(token)).toBe(true);
    expect(isSessionTokenShape(`${token}x`)).toBe(false);
    expect(isSessionTokenShape(undefined)).toBe(false);
    expect(sessionIdOf(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('expires at its end, renews in its second half, and is left alone before', () => {
    expect(sessionFreshness(NOW, NOW)).toEqual({ state: 'expired' });
    expect(sessionFreshness(new Date(NOW.getTime() + 20 * DAY), NOW)).toEqual({
      state: 'valid',
      expiresAt: new Date(NOW.getTime() + 20 * DAY),
    });
    expect(sessionFreshness(new Date(NOW.getTime() + 14 * DAY), NOW)).toEqual({
      state: 'renew',
      expiresAt: new Date(NOW.getTime() + 30 * DAY),
    });
  });
});

describe('reading the session cookie (no framework, no database)', () => {
  function store(rows: Record<string, StoredSession>): AuthStore & { rows: Record<string, StoredSession> } {
    return {
      rows,
      findNonce: async () => null,
      burnNonce: async () => false,
      createSession: async () => {},
      findSession: async (id) => rows[id] ?? null,
      setSessionExpiry: async (id, expiresAt) => {
        rows[id] = { ...rows[id]!, expiresAt };
      },
      deleteSession: async (id) => {
        delete rows[id];
      },
    };
  }
  const row = (inDays: number): StoredSession => ({
    address: account.address,
    chainId: 4663,
    expiresAt: new Date(NOW.getTime() + inDays * DAY),
  });

  it('leaves an absent cookie alone and clears one that names no live session', async () => {
    expect(await readSession(undefined, NOW, store({}))).toEqual({ session: null, cookie: 'keep' });
    expect(await readSession('not-a-token', NOW, store({}))).toEqual({ session: null, cookie: 'clear' });
    expect(await readSession(generateSessionToken(), NOW, store({}))).toEqual({ session: null, cookie: 'clear' });
  });

  it('deletes an expired session on sight, renews one in its second half and keeps a fresh one', async () => {
    const token = generateSessionToken();
    const id = sessionIdOf(token);
    const expired = store({ [id]: row(0) });
    expect((await readSession(token, NOW, expired)).cookie).toBe('clear');
    expect(expired.rows[id]).toBeUndefined();

    const halfway = store({ [id]: row(10) });
    const renewed = await readSession(token, NOW, halfway);
    expect(renewed).toMatchObject({ cookie: 'renew', token, session: { address: account.address, chainId: 4663 } });
    expect(renewed.session!.expiresAt.getTime()).toBeGreaterThan(row(10).expiresAt.getTime());
    expect(halfway.rows[id]!.expiresAt).toEqual(renewed.session!.expiresAt);

    expect(await readSession(token, NOW, store({ [id]: row(20) }))).toEqual({ session: row(20), token, cookie: 'keep' });
  });
});

describe('page cursors', () => {
  it('round-trip and refuse anything altered', () => {
    const cursor = { createdAt: NOW, id: 'row-1' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(codeOf(() => decodeCursor('%%%'))).toBe('CURSOR_INVALID');
    expect(codeOf(() => decodeCursor(Buffer.from('yesterday|x').toString('base64url')))).toBe('CURSOR_INVALID');
    expect(codeOf(() => decodeCursor(Buffer.from(`${NOW.toISOString()}|`).toString('base64url')))).toBe('CURSOR_INVALID');
  });
});

describe('Origin check', () => {
  it('accepts exactly ORIGIN, or no Origin at all', () => {
    expect(codeOf(() => checkRequestOrigin('https://svc.example:8443', ORIGIN))).toBeUndefined();
    expect(codeOf(() => checkRequestOrigin('https://svc.example', ORIGIN))).toBe('ORIGIN_MISMATCH');
    expect(codeOf(() => checkRequestOrigin('null', ORIGIN))).toBe('ORIGIN_MISMATCH');
    // No Origin: a non-browser client (browsers always send it on a POST).
    expect(codeOf(() => checkRequestOrigin(null, ORIGIN))).toBeUndefined();
  });
});
