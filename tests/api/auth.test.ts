/**
 * Sign-In with Ethereum and wallet sessions through the real server (issue 7): the nonce,
 * every check of POST /api/auth/verify on its own, the session cookie, logout, expiry and
 * sliding renewal. Tests named `@persistence` also run against PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, getNonce, sessionCookieOf, sessionIdOf, signIn, siweMessage, tokenOf, verify } from '../support/siwe';

const DAY_MS = 24 * 60 * 60 * 1000;

let server: TestServer;
let db: TestDb;
const extra: TestServer[] = [];

beforeAll(async () => {
  server = await startServer();
  db = openTestDb(server.databaseUrl);
});
afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([server?.stop(), ...extra.map((s) => s.stop())]);
});

/** Signs `message` with `account` and posts it. */
async function signAndVerify(message: string, account = WALLET_A, origin?: string | null) {
  const signature = await account.signMessage({ message });
  return verify(server, { message, signature }, origin);
}

function expectRefused(res: { status: number; json: any; headers: Headers }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json.error.code).toBe(code);
  expect(res.headers.getSetCookie().some((c) => c.startsWith('svc_session=') && !c.startsWith('svc_session=;'))).toBe(false);
}

/** The nonce still opens a session: a refusal did not spend it. */
async function expectNonceStillSpendable(nonce: string) {
  const res = await signAndVerify(siweMessage(server, WALLET_A, nonce));
  expect(res.status, res.text).toBe(200);
}

describe('GET /api/auth/nonce', () => {
  it('issues a fresh alphanumeric nonce of 96+ bits that expires after 10 minutes, never cached', async () => {
    const a = await server.get('/api/auth/nonce');
    const b = await server.get('/api/auth/nonce');
    expect(a.status).toBe(200);
    expect(a.json.nonce).toMatch(/^[A-Za-z0-9]{17,}$/);
    expect(a.json.nonce).not.toBe(b.json.nonce);
    expect(Date.parse(a.json.expiresAt) - Date.parse(a.json.issuedAt)).toBe(10 * 60 * 1000);
    expect(a.headers.get('cache-control')).toBe('no-store');
  });

  it('@persistence stores the nonce server-side, unused, with its expiry', async () => {
    const nonce = await getNonce(server);
    const row = await db.authNonce.findUnique({ where: { nonce } });
    expect(row).not.toBeNull();
    expect(row!.usedAt).toBeNull();
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(10 * 60 * 1000);
  });
});

describe('POST /api/auth/verify: success', () => {
  it('@persistence opens a session: checksummed address, chain, 30-day expiry, HttpOnly SameSite=Lax cookie; only the SHA-256 of the token is stored', async () => {
    const { response, cookie } = await signIn(server, WALLET_A);
    expect(response.json).toMatchObject({ address: WALLET_A.address, chainId: 4663 });
    const expiresIn = Date.parse(response.json.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * DAY_MS);
    expect(expiresIn).toBeLessThanOrEqual(30 * DAY_MS);

    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//i);
    expect(setCookie).not.toMatch(/; Secure/i); // ORIGIN is http here
    expect(setCookie).toMatch(/; Expires=/i);

    const token = tokenOf(cookie);
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(await db.session.findUnique({ where: { id: token } })).toBeNull();
    const stored = await db.session.findUnique({ where: { id: sessionIdOf(token) } });
    expect(stored).toMatchObject({ address: WALLET_A.address, chainId: 4663 });

    const session = await server.get('/api/auth/session', { cookie });
    expect(session.json).toEqual({ authenticated: true, address: WALLET_A.address, chainId: 4663, expiresAt: response.json.expiresAt });
  });

  it('@persistence creates the wallet user once, keyed by the checksummed address', async () => {
    await signIn(server, WALLET_B);
    await signIn(server, WALLET_B);
    const users = await db.walletUser.findMany({ where: { address: { in: [WALLET_B.address, WALLET_B.address.toLowerCase()] } } });
    expect(users.map((u) => u.address)).toEqual([WALLET_B.address]);
    expect(await db.session.count({ where: { address: WALLET_B.address } })).toBeGreaterThanOrEqual(2);
  });

  it('accepts chain id 1 as well as 4663', async () => {
    const { response } = await signIn(server, WALLET_A, { chainId: 1 });
    expect(response.json.chainId).toBe(1);
  });

  it('sets the Secure attribute when ORIGIN is https', async () => {
    const https = await startServer({ env: { ORIGIN: 'https://svc.test.example' } });
    extra.push(https);
    const nonce = await getNonce(https);
    const message = siweMessage(https, WALLET_A, nonce);
    const res = await verify(https, { message, signature: await WALLET_A.signMessage({ message }) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('svc_session='))).toMatch(/; Secure/i);
  });
});

describe('POST /api/auth/verify: each refusal on its own', () => {
  it('a reused nonce: 401 SIWE_NONCE_REUSED', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce);
    expect((await signAndVerify(message)).status).toBe(200);
    expectRefused(await signAndVerify(message), 401, 'SIWE_NONCE_REUSED');
    // A new message around the same spent nonce is refused too.
    expectRefused(await signAndVerify(siweMessage(server, WALLET_B, nonce), WALLET_B), 401, 'SIWE_NONCE_REUSED');
  });

  it('a nonce this server never issued: 401 SIWE_NONCE_UNKNOWN', async () => {
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, 'NeverIssuedHere123')), 401, 'SIWE_NONCE_UNKNOWN');
  });

  it('@persistence an expired nonce: 401 SIWE_NONCE_EXPIRED', async () => {
    const issued = new Date(Date.now() - 11 * 60 * 1000);
    await db.authNonce.create({
      data: { nonce: 'ExpiredNonce00011', createdAt: issued, expiresAt: new Date(issued.getTime() + 10 * 60 * 1000) },
    });
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, 'ExpiredNonce00011')), 401, 'SIWE_NONCE_EXPIRED');
    // A nowIso pinned inside the nonce's life does not revive it: the check reads the server clock.
    const message = siweMessage(server, WALLET_A, 'ExpiredNonce00011', { issuedAt: issued });
    const signature = await WALLET_A.signMessage({ message });
    const pinned = await server.request('POST', '/api/auth/verify', {
      body: { message, signature, nowIso: new Date(issued.getTime() + 60 * 1000).toISOString() },
      headers: { origin: server.env.ORIGIN! },
    });
    expectRefused(pinned, 401, 'SIWE_NONCE_EXPIRED');
  });

  it('a wrong domain: 401 SIWE_DOMAIN_MISMATCH (other host, and same host on another port)', async () => {
    const nonce = await getNonce(server);
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { domain: 'evil.example' })), 401, 'SIWE_DOMAIN_MISMATCH');
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { domain: '127.0.0.1:1' })), 401, 'SIWE_DOMAIN_MISMATCH');
    await expectNonceStillSpendable(nonce);
  });

  it("a scheme in the message that is not ORIGIN's: 401 SIWE_DOMAIN_MISMATCH", async () => {
    const nonce = await getNonce(server);
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { scheme: 'https' })), 401, 'SIWE_DOMAIN_MISMATCH');
  });

  it('a wrong URI: 401 SIWE_URI_MISMATCH', async () => {
    const nonce = await getNonce(server);
    expectRefused(
      await signAndVerify(siweMessage(server, WALLET_A, nonce, { uri: 'https://evil.example/login' })),
      401,
      'SIWE_URI_MISMATCH',
    );
    const otherPort = `http://127.0.0.1:${server.port + 1}/`;
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { uri: otherPort })), 401, 'SIWE_URI_MISMATCH');
    await expectNonceStillSpendable(nonce);
  });

  it('a URI with a path on ORIGIN is accepted', async () => {
    const nonce = await getNonce(server);
    expect((await signAndVerify(siweMessage(server, WALLET_A, nonce, { uri: `${server.env.ORIGIN}/me` }))).status).toBe(200);
  });

  it('a wrong chain id: 401 SIWE_CHAIN_UNSUPPORTED', async () => {
    const nonce = await getNonce(server);
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { chainId: 137 })), 401, 'SIWE_CHAIN_UNSUPPORTED');
    await expectNonceStillSpendable(nonce);
  });

  it('an issuedAt in the future: 401 SIWE_ISSUED_IN_FUTURE', async () => {
    const nonce = await getNonce(server);
    const future = new Date(Date.now() + 60 * 60 * 1000);
    expectRefused(await signAndVerify(siweMessage(server, WALLET_A, nonce, { issuedAt: future })), 401, 'SIWE_ISSUED_IN_FUTURE');
    await expectNonceStillSpendable(nonce);
  });

  it('an expired message (expirationTime in the past): 401 SIWE_MESSAGE_EXPIRED', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce, {
      issuedAt: new Date(Date.now() - 5 * 60 * 1000),
      expirationTime: new Date(Date.now() - 60 * 1000),
    });
    expectRefused(await signAndVerify(message), 401, 'SIWE_MESSAGE_EXPIRED');
  });

  it('nowIso cannot move the clock of the checks: an expired message stays expired', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce, {
      issuedAt: new Date(Date.now() - 5 * 60 * 1000),
      expirationTime: new Date(Date.now() - 60 * 1000),
    });
    const signature = await WALLET_A.signMessage({ message });
    const res = await server.request('POST', '/api/auth/verify', {
      body: { message, signature, nowIso: new Date(Date.now() - 3 * 60 * 1000).toISOString() },
      headers: { origin: server.env.ORIGIN! },
    });
    expectRefused(res, 401, 'SIWE_MESSAGE_EXPIRED');
  });

  it('a notBefore in the future: 401 SIWE_NOT_YET_VALID', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce, { notBefore: new Date(Date.now() + 60 * 60 * 1000) });
    expectRefused(await signAndVerify(message), 401, 'SIWE_NOT_YET_VALID');
    await expectNonceStillSpendable(nonce);
  });

  it('a tampered message (changed after signing): 401 SIWE_SIGNATURE_INVALID, nonce not spent', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce);
    const signature = await WALLET_A.signMessage({ message });
    const tampered = message.replace('This proves wallet ownership only.', 'This proves wallet ownership only!');
    expect(tampered).not.toBe(message);
    expectRefused(await verify(server, { message: tampered, signature }), 401, 'SIWE_SIGNATURE_INVALID');
    await expectNonceStillSpendable(nonce);
  });

  it('a signature of another key: 401 SIWE_SIGNATURE_INVALID (B cannot sign in as A)', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce);
    expectRefused(await verify(server, { message, signature: await WALLET_B.signMessage({ message }) }), 401, 'SIWE_SIGNATURE_INVALID');
    expectRefused(await verify(server, { message, signature: `0x${'11'.repeat(65)}` }), 401, 'SIWE_SIGNATURE_INVALID');
    await expectNonceStillSpendable(nonce);
  });

  it('a message that is not EIP-4361: 400 SIWE_MESSAGE_MALFORMED; a non-hex signature: 400', async () => {
    const nonce = await getNonce(server);
    const valid = siweMessage(server, WALLET_A, nonce);
    const lowercased = valid.replace(WALLET_A.address, WALLET_A.address.toLowerCase()); // not EIP-55
    for (const message of ['hello', lowercased, valid.replace('Version: 1', 'Version: 2')]) {
      const res = await verify(server, { message, signature: await WALLET_A.signMessage({ message }) });
      expect(res.status, message).toBe(400);
      expect(res.json.error.code).toBe('SIWE_MESSAGE_MALFORMED');
    }
    const bad = await verify(server, { message: valid, signature: 'not-hex' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe('signature');
  });

  it('an Origin header that is not ORIGIN: 403 ORIGIN_MISMATCH, nonce not spent', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce);
    const signature = await WALLET_A.signMessage({ message });
    expectRefused(await verify(server, { message, signature }, 'http://evil.example'), 403, 'ORIGIN_MISMATCH');
    expectRefused(await verify(server, { message, signature }, 'null'), 403, 'ORIGIN_MISMATCH');
    expect((await verify(server, { message, signature })).status).toBe(200);
  });

  it('a REST client without an Origin header follows the { message, signature } contract: session opened, used, logged out', async () => {
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_A, nonce);
    const signature = await WALLET_A.signMessage({ message });
    const res = await verify(server, { message, signature }, null);
    expect(res.status).toBe(200);
    expect(res.json.address).toBe(WALLET_A.address);
    const cookie = sessionCookieOf(res)!;
    expect((await server.get('/api/auth/session', { cookie })).json.authenticated).toBe(true);
    const out = await server.request('POST', '/api/auth/logout', { body: {}, headers: { cookie } });
    expect(out.status).toBe(200);
    expect((await server.get('/api/auth/session', { cookie })).json).toEqual({ authenticated: false });
  });

  it('@persistence two concurrent verifies of one nonce: exactly one 200, the other 401 SIWE_NONCE_REUSED', async () => {
    for (let round = 0; round < 3; round++) {
      const nonce = await getNonce(server);
      const message = siweMessage(server, WALLET_A, nonce);
      const signature = await WALLET_A.signMessage({ message });
      const results = await Promise.all(Array.from({ length: 4 }, () => verify(server, { message, signature })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 401, 401, 401]);
      for (const r of results.filter((r) => r.status === 401)) expect(r.json.error.code).toBe('SIWE_NONCE_REUSED');
      const row = await db.authNonce.findUnique({ where: { nonce } });
      expect(row!.usedAt).not.toBeNull();
    }
  });
});

describe('sessions: cookie checks, logout, expiry, renewal', () => {
  it('no cookie, a forged cookie or a garbage cookie: not authenticated, and /api/me is 401', async () => {
    const forged = `svc_session=${'a'.repeat(32)}`;
    for (const headers of [undefined, { cookie: forged }, { cookie: 'svc_session=%00garbage' }]) {
      const session = await server.get('/api/auth/session', headers);
      expect(session.status).toBe(200);
      expect(session.json).toEqual({ authenticated: false });
      const me = await server.get('/api/me/coils', headers);
      expect(me.status).toBe(401);
      expect(me.json.error.code).toBe('SESSION_REQUIRED');
    }
    // A forged cookie is cleared.
    const res = await server.get('/api/auth/session', { cookie: forged });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('svc_session=;'))).toBe(true);
  });

  it("a cookie holding a real session's stored id (not its token) is refused", async () => {
    const { cookie } = await signIn(server, WALLET_A);
    const storedId = sessionIdOf(tokenOf(cookie));
    const res = await server.get('/api/me/coils', { cookie: `svc_session=${storedId}` });
    expect(res.status).toBe(401);
  });

  it('@persistence logout invalidates the session server-side; the logged-out cookie is refused', async () => {
    const { cookie } = await signIn(server, WALLET_A);
    expect((await server.get('/api/me/coils', { cookie })).status).toBe(200);
    const out = await server.request('POST', '/api/auth/logout', { body: {}, headers: { cookie, origin: server.env.ORIGIN! } });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true });
    expect(out.headers.getSetCookie().some((c) => c.startsWith('svc_session=;'))).toBe(true);
    expect(await db.session.findUnique({ where: { id: sessionIdOf(tokenOf(cookie)) } })).toBeNull();
    // The same cookie, replayed after logout:
    expect((await server.get('/api/me/coils', { cookie })).status).toBe(401);
    expect((await server.get('/api/auth/session', { cookie })).json).toEqual({ authenticated: false });
  });

  it('logout without a session still answers { ok: true }', async () => {
    const out = await server.request('POST', '/api/auth/logout', { body: {}, headers: { origin: server.env.ORIGIN! } });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true });
  });

  it('logout from another origin: 403 ORIGIN_MISMATCH and the session keeps working', async () => {
    const { cookie } = await signIn(server, WALLET_A);
    const out = await server.request('POST', '/api/auth/logout', { body: {}, headers: { cookie, origin: 'http://evil.example' } });
    expect(out.status).toBe(403);
    expect(out.json.error.code).toBe('ORIGIN_MISMATCH');
    expect((await server.get('/api/me/coils', { cookie })).status).toBe(200);
  });

  it('@persistence an expired session is refused and deleted; nowIso cannot revive it', async () => {
    const { cookie } = await signIn(server, WALLET_A);
    const id = sessionIdOf(tokenOf(cookie));
    const expiredAt = new Date(Date.now() - 60 * 1000);
    await db.session.update({ where: { id }, data: { expiresAt: expiredAt } });
    const before = new Date(expiredAt.getTime() - DAY_MS).toISOString();
    const pinned = await server.get(`/api/me/coils?nowIso=${encodeURIComponent(before)}`, { cookie });
    expect(pinned.status).toBe(401);
    expect(await db.session.findUnique({ where: { id } })).toBeNull();
    expect((await server.get('/api/auth/session', { cookie })).json).toEqual({ authenticated: false });
  });

  it('@persistence sliding renewal: a session used with under 15 days left is renewed to 30 days and its cookie re-sent', async () => {
    // Time is controlled through the stored expiry (documented in the README): the server's
    // clock stays real, the session is moved to the point of its life under test.
    const { cookie } = await signIn(server, WALLET_A);
    const id = sessionIdOf(tokenOf(cookie));

    const notDue = new Date(Date.now() + 20 * DAY_MS);
    await db.session.update({ where: { id }, data: { expiresAt: notDue } });
    const kept = await server.get('/api/auth/session', { cookie });
    expect(kept.json.expiresAt).toBe(notDue.toISOString());
    expect(sessionCookieOf(kept)).toBeUndefined();
    expect((await db.session.findUnique({ where: { id } }))!.expiresAt.toISOString()).toBe(notDue.toISOString());

    const due = new Date(Date.now() + 1 * DAY_MS);
    await db.session.update({ where: { id }, data: { expiresAt: due } });
    const renewed = await server.get('/api/me/coils', { cookie });
    expect(renewed.status).toBe(200);
    expect(sessionCookieOf(renewed)).toBe(cookie); // same token, new Expires
    const setCookie = renewed.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
    const cookieExpiry = Date.parse(/Expires=([^;]+)/i.exec(setCookie)![1]!);
    expect(cookieExpiry - Date.now()).toBeGreaterThan(29 * DAY_MS);
    const stored = (await db.session.findUnique({ where: { id } }))!.expiresAt.getTime();
    expect(stored - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(stored - Date.now()).toBeLessThanOrEqual(30 * DAY_MS);
    const session = await server.get('/api/auth/session', { cookie });
    expect(Date.parse(session.json.expiresAt)).toBe(stored);
  });

  it('@persistence signing in again from the same browser ends the session its cookie held', async () => {
    const first = await signIn(server, WALLET_A);
    const nonce = await getNonce(server);
    const message = siweMessage(server, WALLET_B, nonce);
    const res = await server.request('POST', '/api/auth/verify', {
      body: { message, signature: await WALLET_B.signMessage({ message }) },
      headers: { origin: server.env.ORIGIN!, cookie: first.cookie },
    });
    expect(res.status).toBe(200);
    const second = sessionCookieOf(res)!;
    expect(second).not.toBe(first.cookie);
    expect(await db.session.findUnique({ where: { id: sessionIdOf(tokenOf(first.cookie)) } })).toBeNull();
    expect((await server.get('/api/auth/session', { cookie: first.cookie })).json).toEqual({ authenticated: false });
    expect((await server.get('/api/auth/session', { cookie: second })).json).toMatchObject({
      authenticated: true,
      address: WALLET_B.address,
    });
  });

  it('the typed client path (/trpc) sees the same session', async () => {
    const { cookie } = await signIn(server, WALLET_B);
    const res = await server.get('/trpc/auth.session', { cookie });
    expect(res.status).toBe(200);
    expect(res.json.result.data).toMatchObject({ authenticated: true, address: WALLET_B.address });
    const me = await server.get('/trpc/me.coils', {});
    expect(me.status).toBe(401);
    expect(me.json.error.data.svcCode).toBe('SESSION_REQUIRED');
  });
});
