/**
 * Through the real server: My Coils lists one row per Coil, and the claim of Coils built in a
 * browser before signing in (docs/visibility.md#claiming) is the server's to check: only the
 * browser that holds the build's ticket (the HttpOnly svc_builder cookie set by the web app's
 * door) may claim, once, and only when it asks. Also the share card as a PNG beside the SVG and
 * the basket plan over REST. The tests named `@persistence` run again on PostgreSQL
 * (`npm run test:postgres`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { openTestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
});
afterAll(async () => {
  await server?.stop();
});

const builderCookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_builder='))
    ?.split(';')[0];

/** A Coil built the way the web app builds it: the typed client's door, no session. */
async function buildInBrowser(prompt: string, cookie?: string) {
  const res = await server.post('/trpc/tools.generateCoil', { prompt }, cookie ? { cookie } : {});
  expect(res.status).toBe(200);
  return { manifestHash: res.json.result.data.receipt.manifestHash as string, cookie: builderCookieOf(res.headers) ?? cookie };
}

describe('claiming Coils built before signing in', () => {
  it('gives the web app a ticket at build time, and nothing to REST callers', async () => {
    const built = await buildInBrowser('Cloud software and semiconductors');
    const setCookie = (await server.post('/trpc/tools.generateCoil', { prompt: 'Healthcare and index' })).headers.getSetCookie();
    expect(setCookie.find((c) => c.startsWith('svc_builder='))).toMatch(/HttpOnly/i);
    expect(built.cookie).toMatch(/^svc_builder=[a-z2-7]{32}$/);
    const rest = await server.post('/api/tools/generate-coil', { prompt: 'Cloud software and semiconductors' });
    expect(rest.status).toBe(200);
    expect(builderCookieOf(rest.headers)).toBeUndefined();
  });

  it('@persistence claims only with the ticket of the browser that built the Coil, once, and only when asked', async () => {
    const built = await buildInBrowser('Defensive utilities and broad index exposure');
    const second = await buildInBrowser('Semiconductors and AI chips', built.cookie);
    expect(second.cookie).toBe(built.cookie); // one ticket cookie per browser
    const { cookie: session } = await signIn(server, WALLET_A);

    // Signed in, nothing moved by itself.
    expect((await server.get('/api/me/coils', { cookie: session })).json.items).toEqual([]);

    // Another browser (no ticket, or another browser's ticket) lists nothing and claims nothing.
    const other = await buildInBrowser('Energy transition and uranium');
    const { cookie: sessionB } = await signIn(server, WALLET_B);
    const stranger = await server.post(
      '/api/me/claim-coils',
      { manifestHashes: [built.manifestHash] },
      { cookie: `${sessionB}; ${other.cookie}` },
    );
    expect(stranger.status).toBe(200);
    expect(stranger.json).toEqual({
      results: [{ manifestHash: built.manifestHash, claimed: false, reason: 'NO_CLAIM_TICKET' }],
      claimedCount: 0,
    });
    const noTicket = await server.post('/api/me/claim-coils', { manifestHashes: [built.manifestHash] }, { cookie: sessionB });
    expect(noTicket.json.claimedCount).toBe(0);
    expect((await server.get('/api/me/coils', { cookie: sessionB })).json.items).toEqual([]);

    // The building browser sees both of its Coils and claims one of them explicitly.
    const listed = await server.get('/api/me/claimable-coils', { cookie: `${session}; ${built.cookie}` });
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((i: any) => i.manifestHash).sort()).toEqual([built.manifestHash, second.manifestHash].sort());
    const claimed = await server.post(
      '/api/me/claim-coils',
      { manifestHashes: [built.manifestHash] },
      { cookie: `${session}; ${built.cookie}` },
    );
    expect(claimed.json).toEqual({ results: [{ manifestHash: built.manifestHash, claimed: true }], claimedCount: 1 });
    const mine = (await server.get('/api/me/coils', { cookie: session })).json.items;
    expect(mine.map((c: any) => c.manifestHash)).toEqual([built.manifestHash]);
    expect((await server.get('/api/me/receipts', { cookie: session })).json.items.map((r: any) => r.manifestHash)).toEqual([
      built.manifestHash,
    ]);

    // A ticket is used once: again, nothing; the other Coil is still claimable.
    const again = await server.post(
      '/api/me/claim-coils',
      { manifestHashes: [built.manifestHash] },
      { cookie: `${session}; ${built.cookie}` },
    );
    expect(again.json.claimedCount).toBe(0);
    const left = await server.get('/api/me/claimable-coils', { cookie: `${session}; ${built.cookie}` });
    expect(left.json.items.map((i: any) => i.manifestHash)).toEqual([second.manifestHash]);
  });

  it('@persistence uses the ticket only once the copy is committed: a copy the database refuses leaves it unused', async () => {
    const built = await buildInBrowser('Semiconductor equipment and lithography');
    const { cookie: session, address } = await signIn(server, WALLET_A);
    const cookie = `${session}; ${built.cookie}`;
    const db = openTestDb(server.databaseUrl);
    const postgres = /^postgres/i.test(server.databaseUrl);
    // The database refuses a wallet's copy of a Coil (a real refusal, on the row store's own connection).
    if (postgres) {
      await db.$executeRawUnsafe(
        `CREATE FUNCTION svc_test_refuse_copy() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'copy refused by the test'; END $$ LANGUAGE plpgsql`,
      );
      await db.$executeRawUnsafe(
        `CREATE TRIGGER svc_test_refuse_copy BEFORE INSERT ON "Coil" FOR EACH ROW WHEN (NEW."ownerAddress" IS NOT NULL) EXECUTE FUNCTION svc_test_refuse_copy()`,
      );
    } else {
      await db.$executeRawUnsafe(
        `CREATE TRIGGER svc_test_refuse_copy BEFORE INSERT ON "Coil" WHEN NEW."ownerAddress" IS NOT NULL BEGIN SELECT RAISE(ABORT, 'copy refused by the test'); END`,
      );
    }
    try {
      const failed = await server.post('/api/me/claim-coils', { manifestHashes: [built.manifestHash] }, { cookie });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.json.error.code).toEqual(expect.any(String));
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER svc_test_refuse_copy' + (postgres ? ' ON "Coil"' : ''));
      if (postgres) await db.$executeRawUnsafe('DROP FUNCTION svc_test_refuse_copy()');
    }
    const ticket = await db.coilClaim.findFirst({ where: { manifestHash: built.manifestHash } });
    expect(ticket?.claimedBy).toBeNull();
    await db.$disconnect();
    const listed = await server.get('/api/me/claimable-coils', { cookie });
    expect(listed.json.items.map((i: any) => i.manifestHash)).toContain(built.manifestHash);

    const claimed = await server.post('/api/me/claim-coils', { manifestHashes: [built.manifestHash] }, { cookie });
    expect(claimed.json).toEqual({ results: [{ manifestHash: built.manifestHash, claimed: true }], claimedCount: 1 });
    const mine = (await server.get('/api/me/coils', { cookie: session })).json.items.map((c: any) => c.manifestHash);
    expect(mine).toContain(built.manifestHash);
    const used = await openTestDb(server.databaseUrl).coilClaim.findFirst({ where: { manifestHash: built.manifestHash } });
    expect(used?.claimedBy?.toLowerCase()).toBe(address.toLowerCase());
  });

  it('hands one ticket to the Coils of one batch', async () => {
    const res = await server.post('/trpc/tools.generateCoil,tools.generateCoil?batch=1', {
      0: { prompt: 'Robotics and automation' },
      1: { prompt: 'Water utilities and infrastructure' },
    });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie().filter((c) => c.startsWith('svc_builder='));
    expect(cookies).toHaveLength(1);
    const cookie = cookies[0]!.split(';')[0]!;
    const { cookie: session } = await signIn(server, WALLET_A);
    const listed = await server.get('/api/me/claimable-coils', { cookie: `${session}; ${cookie}` });
    expect(listed.json.items.map((i: any) => i.manifestHash).sort()).toEqual(
      (res.json as any[]).map((r) => r.result.data.receipt.manifestHash).sort(),
    );
  });

  it('needs a session: 401 without one, and bad hashes are a 400', async () => {
    const built = await buildInBrowser('Biotech and healthcare');
    expect((await server.get('/api/me/claimable-coils', { cookie: built.cookie! })).status).toBe(401);
    expect((await server.post('/api/me/claim-coils', { manifestHashes: [built.manifestHash] }, { cookie: built.cookie! })).status).toBe(
      401,
    );
    const { cookie: session } = await signIn(server, WALLET_A);
    const bad = await server.post('/api/me/claim-coils', { manifestHashes: ['not-a-hash'] }, { cookie: `${session}; ${built.cookie}` });
    expect(bad.status).toBe(400);
  });
});

describe('My Coils: one row per Coil', () => {
  it('@persistence lists a Coil once after a receipt and a share card of it, on every page', async () => {
    const { cookie } = await signIn(server, WALLET_B);
    const generated = await server.post('/api/tools/generate-coil', { prompt: 'Cloud software, payments and index exposure' }, { cookie });
    const coil = generated.json.coil;
    // The receipt tool and the share card save the same Coil again (another coiling agent: none).
    expect((await server.post('/api/tools/receipt', { coil }, { cookie })).status).toBe(200);
    expect((await server.post('/api/tools/share-card', { coil }, { cookie })).status).toBe(200);
    const other = await server.post(
      '/api/tools/receipt',
      { coil: rawCoil({ slug: 'another-basket', name: 'Another basket' }) },
      { cookie },
    );
    expect(other.status).toBe(200);

    const all = (await server.get('/api/me/coils', { cookie })).json.items.map((c: any) => c.manifestHash);
    expect(all.filter((h: string) => h === generated.json.receipt.manifestHash)).toHaveLength(1);
    expect(new Set(all).size).toBe(all.length);
    // Page by page (one row a page): still each Coil once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await server.get(`/api/me/coils?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { cookie })).json;
      seen.push(...page.items.map((c: any) => c.manifestHash));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });
});

describe('the share card as a PNG', () => {
  it('serves the same card as a PNG beside the SVG, and 404 for a receipt nobody stored', async () => {
    const shared = await server.post('/api/tools/share-card', { coil: rawCoil() });
    const receiptId = shared.json.receipt.receiptId;
    const res = await fetch(`${server.url}/api/share-card/${receiptId}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: 1200 x 630.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    const missing = await server.get(`/api/share-card/hrcpt_${'0'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('RECEIPT_NOT_FOUND');
    const card = await server.get(`/api/coil/share-cards/${receiptId}`);
    expect(card.status).toBe(200);
    expect(card.json.card).toMatchObject({ receiptId, manifestHash: shared.json.receipt.manifestHash });
  });
});

describe('the basket plan over REST', () => {
  it('answers POST /api/stocks/plan-basket with one leg per asset and the invariants', async () => {
    const res = await server.post('/api/stocks/plan-basket', {
      coil: rawCoil(),
      totalAmountUsdg: '250',
      maxSlippageBps: 100,
      userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
      userAcknowledgedPartnerExecutesTrade: true,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ plannedCount: 3, plannedAmountUsdg: '250', notInvestmentAdvice: true, liveOrderSent: false });
    expect(res.text).not.toContain('{partner_api_url}/agent/prompt with');
    const refused = await server.post('/api/stocks/plan-basket', { coil: rawCoil(), totalAmountUsdg: '0', maxSlippageBps: 100 });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('BASKET_INVALID');
  });
});
