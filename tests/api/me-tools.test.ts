/**
 * The Coil tooling and wallet sessions together, through the real server: a tools request
 * that carries a valid session saves its Coil and receipt to that wallet; without a session
 * (or with a forged one) they belong to no wallet and never appear under /api/me; another
 * wallet can never read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';
import { rawCoil } from '../support/coils';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

let server: TestServer;
let db: TestDb;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
  db = openTestDb(server.databaseUrl);
  cookieA = (await signIn(server, WALLET_A)).cookie;
  cookieB = (await signIn(server, WALLET_B)).cookie;
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const coilNamed = (slug: string, overrides: Parameters<typeof rawCoil>[0] = {}) => rawCoil({ slug, ...overrides });
const slugsOf = (res: { json: { items: Array<{ slug: string }> } }) => res.json.items.map((c) => c.slug);
const receiptIdsOf = (res: { json: { items: Array<{ receiptId: string }> } }) => res.json.items.map((r) => r.receiptId);

describe('tools requests and /api/me', () => {
  it('@persistence a tools request with a valid session saves its Coil and receipt to that wallet; without a session it never appears under /api/me; another wallet can never read it', async () => {
    const owned = await server.post(
      '/api/tools/generate-coil',
      { prompt: 'AI chip makers keep compounding as data centres scale' },
      { cookie: cookieA },
    );
    expect(owned.status, owned.text).toBe(200);
    const ownedSlug: string = owned.json.coil.slug;
    const ownedReceipt: string = owned.json.receipt.receiptId;

    const anonymous = await server.post('/api/tools/generate-coil', {
      prompt: 'Defensive dividend payers and broad index exposure for a slow year',
    });
    expect(anonymous.status, anonymous.text).toBe(200);
    const anonymousSlug: string = anonymous.json.coil.slug;
    const anonymousReceipt: string = anonymous.json.receipt.receiptId;
    expect(anonymousSlug).not.toBe(ownedSlug);

    const forged = await server.post(
      '/api/tools/generate-coil',
      { prompt: 'Semiconductor equipment and cloud platforms over the next decade' },
      { cookie: `svc_session=${'b'.repeat(32)}` },
    );
    expect(forged.status, forged.text).toBe(200);
    const forgedSlug: string = forged.json.coil.slug;

    // The owner sees the Coil and its receipt.
    const coilsA = await server.get('/api/me/coils', { cookie: cookieA });
    expect(slugsOf(coilsA)).toContain(ownedSlug);
    expect(coilsA.json.items.find((c: { slug: string }) => c.slug === ownedSlug).manifestHash).toBe(owned.json.receipt.manifestHash);
    expect(receiptIdsOf(await server.get('/api/me/receipts', { cookie: cookieA }))).toContain(ownedReceipt);
    const detail = await server.get(`/api/me/coils/${ownedSlug}`, { cookie: cookieA });
    expect(detail.status).toBe(200);
    expect(detail.json.receipts.map((r: { receiptId: string }) => r.receiptId)).toContain(ownedReceipt);

    // Anonymous (and forged-session) Coils belong to no wallet, but are kept for lineage.
    for (const cookie of [cookieA, cookieB]) {
      const coils = await server.get('/api/me/coils?limit=100', { cookie });
      expect(slugsOf(coils)).not.toContain(anonymousSlug);
      expect(slugsOf(coils)).not.toContain(forgedSlug);
      expect(receiptIdsOf(await server.get('/api/me/receipts?limit=100', { cookie }))).not.toContain(anonymousReceipt);
      expect((await server.get(`/api/me/coils/${anonymousSlug}`, { cookie })).status).toBe(404);
    }
    const stored = await db.coil.findMany({ where: { slug: { in: [anonymousSlug, forgedSlug] } } });
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.every((row) => row.ownerAddress === null)).toBe(true);
    expect(await db.receipt.count({ where: { receiptId: anonymousReceipt, ownerAddress: null } })).toBeGreaterThanOrEqual(1);

    // Another wallet can never read it.
    const other = await server.get(`/api/me/coils/${ownedSlug}`, { cookie: cookieB });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain(owned.json.receipt.manifestHash);
    const coilsB = await server.get('/api/me/coils?limit=100', { cookie: cookieB });
    expect(slugsOf(coilsB)).not.toContain(ownedSlug);
    const receiptsB = await server.get(`/api/me/receipts?limit=100&coilSlug=${ownedSlug}`, { cookie: cookieB });
    expect(receiptsB.json.items).toEqual([]);
    // Nor can anyone without a session.
    expect((await server.get(`/api/me/coils/${ownedSlug}`)).status).toBe(401);
  });

  it('@persistence a strategist request (POST /api/agent/svc) with a session saves its Coil to that wallet only', async () => {
    const res = await server.post(
      '/api/agent/svc',
      { prompt: 'Cloud software and payments networks for a long horizon', mode: 'paper' },
      { cookie: cookieB },
    );
    expect(res.status, res.text).toBe(200);
    const slug: string = res.json.manifest.slug;
    expect(slugsOf(await server.get('/api/me/coils?limit=100', { cookie: cookieB }))).toContain(slug);
    expect(slugsOf(await server.get('/api/me/coils?limit=100', { cookie: cookieA }))).not.toContain(slug);
    expect((await server.get(`/api/me/coils/${slug}`, { cookie: cookieA })).status).toBe(404);
  });

  it('@persistence rows are stored at the server clock: a later request that pins an older nowIso is still the newest, and its answer keeps the pinned time', async () => {
    const first = await server.post(
      '/api/tools/receipt',
      { coil: coilNamed('clock-first'), nowIso: '2031-01-01T00:00:00Z' },
      { cookie: cookieA },
    );
    expect(first.status, first.text).toBe(200);
    const second = await server.post(
      '/api/tools/receipt',
      { coil: coilNamed('clock-second'), nowIso: '2020-01-01T00:00:00Z' },
      { cookie: cookieA },
    );
    expect(second.status, second.text).toBe(200);
    expect(second.json.generatedAt).toBe('2020-01-01T00:00:00.000Z');
    const slugs = slugsOf(await server.get('/api/me/coils?limit=100', { cookie: cookieA }));
    expect(slugs.indexOf('clock-second')).toBeLessThan(slugs.indexOf('clock-first'));
  });

  it("a saved Coil read back from /api/me is the caller's own text: its memo may say anything, never a 500", async () => {
    const coil = coilNamed('claiming-memo', { memo: { title: 'Diary', body: 'The agent sold NVDA yesterday.', disclaimer: 'mine' } });
    expect((await server.post('/api/tools/receipt', { coil }, { cookie: cookieA })).status).toBe(200);
    const list = await server.get('/api/me/coils?limit=100', { cookie: cookieA });
    expect(list.status).toBe(200);
    expect(list.json.items.find((c: { slug: string }) => c.slug === 'claiming-memo').manifest.memo.body).toBe(
      'The agent sold NVDA yesterday.',
    );
    const one = await server.get('/api/me/coils/claiming-memo', { cookie: cookieA });
    expect(one.status).toBe(200);
  });
});
