/**
 * The caller's saved Coils and receipts (GET /api/me/*) through the real server. Owned
 * rows are put into the Coil and Receipt tables directly, as the tools save them (one row
 * per save, `ownerAddress` = the session's wallet or null). Tests named `@persistence`
 * also run against PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

let server: TestServer;
let db: TestDb;
let cookieA: string;
let cookieB: string;

const BASE_TIME = Date.parse('2026-03-01T12:00:00.000Z');

interface SavedCoil {
  slug: string;
  manifestHash: string;
  createdAt: Date;
}

/** Saves a Coil and one receipt for it, the way a tools request does. */
async function saveCoil(owner: string | null, slug: string, minutes: number, opts: { id?: string } = {}): Promise<SavedCoil> {
  const createdAt = new Date(BASE_TIME + minutes * 60_000);
  const manifestHash = `${randomUUID().replace(/-/g, '')}${'0'.repeat(32)}`;
  const manifest = { schemaVersion: '1.0.0', slug, name: `Coil ${slug}`, mode: 'paper', assets: [], forkOf: null };
  await db.coil.create({
    data: {
      id: opts.id ?? randomUUID(),
      slug,
      manifestHash,
      ownerAddress: owner,
      manifestJson: JSON.stringify(manifest),
      score: 71.5,
      createdAt,
    },
  });
  await db.receipt.create({
    data: {
      id: randomUUID(),
      receiptId: `hrcpt_${manifestHash.slice(0, 16)}`,
      kind: 'coil_manifest',
      manifestHash,
      weightsChecksum: 'f'.repeat(64),
      validationStatus: 'valid',
      coilSlug: slug,
      ownerAddress: owner,
      receiptJson: JSON.stringify({ receiptId: `hrcpt_${manifestHash.slice(0, 16)}`, manifestHash, anchoring: 'paper' }),
      createdAt,
      storedAt: createdAt,
    },
  });
  return { slug, manifestHash, createdAt };
}

const ownedByA: SavedCoil[] = [];
let ownedByB: SavedCoil;
let anonymous: SavedCoil;

beforeAll(async () => {
  server = await startServer();
  db = openTestDb(server.databaseUrl);
  cookieA = (await signIn(server, WALLET_A)).cookie;
  cookieB = (await signIn(server, WALLET_B)).cookie;
  for (let i = 0; i < 5; i++) ownedByA.push(await saveCoil(WALLET_A.address, `a-coil-${i}`, i));
  ownedByB = await saveCoil(WALLET_B.address, 'b-private-coil', 10);
  anonymous = await saveCoil(null, 'anonymous-coil', 11);
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe('GET /api/me/*: sessions required', () => {
  it('answers 401 SESSION_REQUIRED on every route without a session', async () => {
    for (const path of ['/api/me/coils', '/api/me/coils/a-coil-0', '/api/me/receipts']) {
      const res = await server.get(path);
      expect(res.status, path).toBe(401);
      expect(res.json.error.code).toBe('SESSION_REQUIRED');
      expect(res.text).not.toContain('a-coil');
    }
  });

  it('is marked with the walletSession (svc_session cookie) scheme in the OpenAPI document; auth routes are open (session and logout read the cookie when it is there)', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    expect(doc.components.securitySchemes.walletSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'svc_session' });
    for (const path of ['/me/coils', '/me/coils/{slug}', '/me/receipts']) {
      expect(doc.paths[path].get.security).toEqual([{ walletSession: [] }]);
    }
    for (const [path, method] of [
      ['/auth/nonce', 'get'],
      ['/auth/verify', 'post'],
    ] as const) {
      expect(doc.paths[path][method].security).toEqual([]);
    }
    for (const [path, method] of [
      ['/auth/session', 'get'],
      ['/auth/logout', 'post'],
    ] as const) {
      expect(doc.paths[path][method].security).toEqual([{}, { walletSession: [] }]);
    }
    const limit = doc.paths['/me/coils'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(doc.paths['/me/coils'].get.parameters.map((p: { name: string }) => p.name)).toContain('cursor');
  });
});

describe('GET /api/me/coils', () => {
  it("@persistence lists only the caller's Coils, newest first; never another wallet's or an anonymous one", async () => {
    const res = await server.get('/api/me/coils', { cookie: cookieA });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.json.items.map((c: { slug: string }) => c.slug)).toEqual(['a-coil-4', 'a-coil-3', 'a-coil-2', 'a-coil-1', 'a-coil-0']);
    expect(res.json.nextCursor).toBeNull();
    expect(res.json.items[0]).toMatchObject({
      slug: 'a-coil-4',
      name: 'Coil a-coil-4',
      manifestHash: ownedByA[4]!.manifestHash,
      score: 71.5,
      forkOf: null,
      createdAt: ownedByA[4]!.createdAt.toISOString(),
      manifest: { slug: 'a-coil-4', schemaVersion: '1.0.0' },
    });
    expect(res.text).not.toContain(ownedByB.manifestHash);
    expect(res.text).not.toContain(anonymous.manifestHash);

    const b = await server.get('/api/me/coils', { cookie: cookieB });
    expect(b.json.items.map((c: { slug: string }) => c.slug)).toEqual(['b-private-coil']);
  });

  it('@persistence pages with cursor and limit without skipping or repeating a row', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const res = await server.get(`/api/me/coils${query}`, { cookie: cookieA });
      expect(res.status).toBe(200);
      sizes.push(res.json.items.length);
      seen.push(...res.json.items.map((c: { slug: string }) => c.slug));
      cursor = res.json.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(['a-coil-4', 'a-coil-3', 'a-coil-2', 'a-coil-1', 'a-coil-0']);
  });

  it('@persistence orders rows saved at the same instant by id and pages through them exactly once', async () => {
    const cookie = (await signIn(server, WALLET_B)).cookie;
    const ids = ['tie-3', 'tie-1', 'tie-2'];
    for (const id of ids) await saveCoil(WALLET_B.address, `tie-${id}`, 30, { id });
    const first = await server.get('/api/me/coils?limit=2', { cookie });
    const second = await server.get(`/api/me/coils?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`, { cookie });
    const order = [...first.json.items, ...second.json.items].map((c: { id: string }) => c.id);
    expect(order.slice(0, 3)).toEqual(['tie-3', 'tie-2', 'tie-1']);
    expect(new Set(order).size).toBe(order.length);
  });

  it('refuses a bad cursor (400 CURSOR_INVALID) and a limit outside 1..100 or not an integer (400)', async () => {
    const bad = await server.get('/api/me/coils?cursor=not-a-cursor', { cookie: cookieA });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('CURSOR_INVALID');
    for (const limit of ['0', '101', 'abc', '2.5']) {
      const res = await server.get(`/api/me/coils?limit=${limit}`, { cookie: cookieA });
      expect(res.status, limit).toBe(400);
      expect(res.json.error.issues[0].path).toBe('limit');
    }
  });
});

describe('GET /api/me/coils/{slug}', () => {
  it("@persistence returns the caller's Coil with its receipts", async () => {
    const res = await server.get('/api/me/coils/a-coil-2', { cookie: cookieA });
    expect(res.status).toBe(200);
    expect(res.json.coil).toMatchObject({ slug: 'a-coil-2', manifestHash: ownedByA[2]!.manifestHash });
    expect(res.json.receipts).toHaveLength(1);
    expect(res.json.receipts[0]).toMatchObject({
      coilSlug: 'a-coil-2',
      manifestHash: ownedByA[2]!.manifestHash,
      kind: 'coil_manifest',
      receipt: { anchoring: 'paper' },
    });
    expect(res.json.receiptsNextCursor).toBeNull();
  });

  it("@persistence another wallet's slug is 404 COIL_NOT_FOUND (same as a slug nobody has), never its data", async () => {
    const other = await server.get(`/api/me/coils/${ownedByB.slug}`, { cookie: cookieA });
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('COIL_NOT_FOUND');
    expect(other.text).not.toContain(ownedByB.manifestHash);
    const nobody = await server.get('/api/me/coils/no-such-coil', { cookie: cookieA });
    expect(nobody.status).toBe(404);
    expect(nobody.json.error).toEqual({ ...other.json.error, issues: nobody.json.error.issues });
    const anon = await server.get(`/api/me/coils/${anonymous.slug}`, { cookie: cookieA });
    expect(anon.status).toBe(404);
  });

  it('@persistence when two wallets saved the same slug, each sees only its own save', async () => {
    const mineA = await saveCoil(WALLET_A.address, 'shared-slug', 40);
    const mineB = await saveCoil(WALLET_B.address, 'shared-slug', 41);
    const a = await server.get('/api/me/coils/shared-slug', { cookie: cookieA });
    const b = await server.get('/api/me/coils/shared-slug', { cookie: cookieB });
    expect(a.json.coil.manifestHash).toBe(mineA.manifestHash);
    expect(b.json.coil.manifestHash).toBe(mineB.manifestHash);
    expect(a.text).not.toContain(mineB.manifestHash);
    expect(a.json.receipts.map((r: { manifestHash: string }) => r.manifestHash)).toEqual([mineA.manifestHash]);
  });
});

describe('GET /api/me/receipts', () => {
  it("@persistence lists only the caller's receipts, newest first, paginated, optionally for one Coil", async () => {
    const all = await server.get('/api/me/receipts?limit=100', { cookie: cookieA });
    expect(all.status).toBe(200);
    const hashes = all.json.items.map((r: { manifestHash: string }) => r.manifestHash);
    for (const coil of ownedByA) expect(hashes).toContain(coil.manifestHash);
    expect(hashes).not.toContain(ownedByB.manifestHash);
    expect(hashes).not.toContain(anonymous.manifestHash);
    const times = all.json.items.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const page = await server.get('/api/me/receipts?limit=1', { cookie: cookieA });
    expect(page.json.items).toHaveLength(1);
    expect(page.json.nextCursor).toEqual(expect.any(String));
    const next = await server.get(`/api/me/receipts?limit=1&cursor=${encodeURIComponent(page.json.nextCursor)}`, { cookie: cookieA });
    expect(next.json.items[0].id).not.toBe(page.json.items[0].id);

    const one = await server.get('/api/me/receipts?coilSlug=a-coil-1', { cookie: cookieA });
    expect(one.json.items.map((r: { coilSlug: string }) => r.coilSlug)).toEqual(['a-coil-1']);
    const foreign = await server.get(`/api/me/receipts?coilSlug=${ownedByB.slug}`, { cookie: cookieA });
    expect(foreign.json.items).toEqual([]);
  });
});

describe('persistence across a restart', () => {
  it('@persistence the session and its saved Coils survive a server restart on the same database', async () => {
    const first = await startServer();
    const firstDb = openTestDb(first.databaseUrl);
    try {
      const { cookie } = await signIn(first, WALLET_A);
      await firstDb.coil.create({
        data: {
          id: randomUUID(),
          slug: 'survivor',
          manifestHash: 'e'.repeat(64),
          ownerAddress: WALLET_A.address,
          manifestJson: '{"slug":"survivor"}',
          createdAt: new Date(),
        },
      });
      await firstDb.$disconnect();
      await first.stop({ keepData: true });

      const second = await startServer({ databaseUrl: first.databaseUrl });
      second.adoptDataOf(first);
      try {
        const session = await second.get('/api/auth/session', { cookie });
        expect(session.json).toMatchObject({ authenticated: true, address: WALLET_A.address });
        const coils = await second.get('/api/me/coils', { cookie });
        expect(coils.status).toBe(200);
        expect(coils.json.items.map((c: { slug: string }) => c.slug)).toEqual(['survivor']);
      } finally {
        await second.stop();
      }
    } finally {
      await firstDb.$disconnect().catch(() => undefined);
    }
  });
});
