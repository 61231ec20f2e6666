/**
 * Through the real server: the thesis and its reading are kept with the generation's receipt,
 * not with the content-addressed Coil (issue 33 item 3, docs/visibility.md#the-thesis-and-its-reading).
 * The wallet that generated it, or the browser that built it without a session, reads it back with
 * the stored Coil; nobody else does, even when the Coil itself is public or two theses gave the same
 * basket; My Coils shows it; the share page shows it only when the owner asked. The tests named
 * `@persistence` run again on PostgreSQL (`npm run test:postgres`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';
import { withoutSignatures } from '../support/signatures';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
});
afterAll(async () => {
  await server?.stop();
});

const NOW = '2026-12-01T10:00:00.000Z';

const builderCookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_builder='))
    ?.split(';')[0];

const storedCoil = (manifestHash: string, cookie?: string) => server.get(`/api/coil/manifests/${manifestHash}`, cookie ? { cookie } : {});

describe('the thesis kept with the receipt', () => {
  it('@persistence gives each wallet its own reading of one basket, and none of it to another wallet', async () => {
    const { cookie: a } = await signIn(server, WALLET_A);
    const { cookie: b } = await signIn(server, WALLET_B);
    // One thesis, one basket, two generations: each wallet's reading is kept with its own receipt.
    const thesis = 'Semiconductors and AI chips over the next few years';
    const corrections = { excluded: ['AMD'] };
    const genA = await server.post('/api/tools/generate-coil', { prompt: thesis, corrections, nowIso: NOW }, { cookie: a });
    const genB = await server.post('/api/tools/generate-coil', { prompt: thesis, nowIso: '2026-12-01T10:05:00.000Z' }, { cookie: b });
    expect(genA.status).toBe(200);
    expect(genB.status).toBe(200);
    const hashA = genA.json.receipt.manifestHash as string;

    const readA = await storedCoil(hashA, a);
    expect(readA.status).toBe(200);
    expect(readA.json.readings).toEqual([{ receiptId: genA.json.receipt.receiptId, thesis, reading: genA.json.reading, corrections }]);
    expect(readA.json.readings[0].reading.excluded).toContainEqual(expect.objectContaining({ ticker: 'AMD', source: 'correction' }));
    // Another wallet: the Coil and its reading do not exist for it.
    const readB = await storedCoil(hashA, b);
    expect(readB.status).toBe(404);
    expect(readB.text).not.toContain(thesis);
    // Its own generation of the same thesis reads back only its own receipt's reading.
    const ownB = await storedCoil(genB.json.receipt.manifestHash, b);
    expect(ownB.json.readings.map((r: any) => r.receiptId)).toEqual([genB.json.receipt.receiptId]);

    // My Coils shows the wallet's own thesis beside the Coil.
    const mine = (await server.get('/api/me/coils', { cookie: a })).json.items.find((c: any) => c.manifestHash === hashA);
    expect(mine.thesis).toBe(thesis);
  });

  it('@persistence keeps one public Coil of two browsers apart: each browser reads only its own generation', async () => {
    const thesis = 'Cloud software over the next decade';
    const first = await server.post('/trpc/tools.generateCoil', { prompt: thesis, nowIso: NOW });
    const second = await server.post('/trpc/tools.generateCoil', { prompt: thesis, nowIso: '2026-12-01T10:07:00.000Z' });
    const hash = first.json.result.data.receipt.manifestHash as string;
    expect(second.json.result.data.receipt.manifestHash).toBe(hash);
    const firstReads = (await storedCoil(hash, builderCookieOf(first.headers))).json.readings;
    const secondReads = (await storedCoil(hash, builderCookieOf(second.headers))).json.readings;
    expect(firstReads.map((r: any) => r.receiptId)).toEqual([first.json.result.data.receipt.receiptId]);
    expect(secondReads.map((r: any) => r.receiptId)).toEqual([second.json.result.data.receipt.receiptId]);
  });

  it('@persistence keeps a browser build for that browser only, and nothing of an anonymous REST call', async () => {
    const thesis = 'Semiconductors and AI chips, but never Intel';
    const built = await server.post('/trpc/tools.generateCoil', { prompt: thesis });
    expect(built.status).toBe(200);
    const cookie = builderCookieOf(built.headers)!;
    const hash = built.json.result.data.receipt.manifestHash as string;

    expect((await storedCoil(hash, cookie)).json.readings.map((r: any) => r.thesis)).toEqual([thesis]);
    // The Coil is public (built without a session); its thesis is not.
    const visitor = await storedCoil(hash);
    expect(visitor.status).toBe(200);
    expect(visitor.json.readings).toEqual([]);
    const otherBrowser = builderCookieOf((await server.post('/trpc/tools.generateCoil', { prompt: 'Water utilities' })).headers)!;
    expect((await storedCoil(hash, otherBrowser)).json.readings).toEqual([]);
    const { cookie: wallet } = await signIn(server, WALLET_B);
    expect((await storedCoil(hash, wallet)).json.readings).toEqual([]);

    // Claimed, the thesis goes with the Coil to the wallet: read from another browser with the session alone.
    const claimed = await server.post('/api/me/claim-coils', { manifestHashes: [hash] }, { cookie: `${wallet}; ${cookie}` });
    expect(claimed.json.claimedCount).toBe(1);
    expect((await storedCoil(hash, wallet)).json.readings.map((r: any) => r.thesis)).toEqual([thesis]);

    // A REST call without a session holds nobody who could read it back: nothing is kept.
    const rest = await server.post('/api/tools/generate-coil', { prompt: 'Robotics and automation, no Tesla' });
    expect(rest.status).toBe(200);
    expect(builderCookieOf(rest.headers)).toBeUndefined();
    expect((await storedCoil(rest.json.receipt.manifestHash)).json.readings).toEqual([]);
  });

  it('@persistence rebuilds deterministically: the same thesis and corrections give the same Coil, receipt and reading', async () => {
    const { cookie } = await signIn(server, WALLET_A);
    const thesis = 'AI chips: Nvidia, AMD and Broadcom';
    const first = await server.post('/api/tools/generate-coil', { prompt: thesis, nowIso: NOW }, { cookie });
    expect(first.json.coil.assets.map((a: any) => a.ticker)).toContain('AMD');
    const corrections = { excluded: ['AMD'] };
    const once = await server.post('/api/tools/generate-coil', { prompt: thesis, corrections, nowIso: NOW }, { cookie });
    const twice = await server.post('/api/tools/generate-coil', { prompt: thesis, corrections, nowIso: NOW }, { cookie });
    expect(once.json.coil.assets.map((a: any) => a.ticker)).not.toContain('AMD');
    expect(withoutSignatures(twice.json.receipt)).toEqual(withoutSignatures(once.json.receipt));
    expect(twice.json.reading).toEqual(once.json.reading);
    const kept = (await storedCoil(once.json.receipt.manifestHash, cookie)).json.readings;
    // One row for the repeated request, with the corrections as sent.
    expect(kept).toEqual([{ receiptId: once.json.receipt.receiptId, thesis, reading: once.json.reading, corrections }]);
  });

  it('@persistence shows the thesis on the share page only when the owner asks', async () => {
    const { cookie } = await signIn(server, WALLET_A);
    const thesis = 'Cloud software and payments, not Oracle';
    const gen = await server.post('/api/tools/generate-coil', { prompt: thesis }, { cookie });
    const coil = gen.json.coil;

    const plain = await server.post('/api/tools/share-card', { coil, nowIso: '2026-12-01T11:00:00.000Z' }, { cookie });
    expect(plain.status).toBe(200);
    expect(plain.json.thesisShared).toBe(false);
    const plainPage = await server.get(`/api/coil/share-cards/${plain.json.receipt.receiptId}`);
    expect(plainPage.status).toBe(200);
    expect(plainPage.json.sharedThesis).toBeUndefined();
    expect(plainPage.text).not.toContain(thesis);

    const shared = await server.post('/api/tools/share-card', { coil, shareThesis: true, nowIso: '2026-12-01T12:00:00.000Z' }, { cookie });
    expect(shared.json.thesisShared).toBe(true);
    const page = await server.get(`/api/coil/share-cards/${shared.json.receipt.receiptId}`);
    expect(page.json.sharedThesis).toMatchObject({ thesis, reading: gen.json.reading });
    // Sharing the card shares only that: the Coil's own answer to a visitor holds no thesis.
    expect((await storedCoil(gen.json.receipt.manifestHash)).json.readings).toEqual([]);

    // Without a thesis of its own, asking shares nothing.
    const { cookie: other } = await signIn(server, WALLET_B);
    const stranger = await server.post('/api/tools/share-card', { coil, shareThesis: true }, { cookie: other });
    expect(stranger.json.thesisShared).toBe(false);
    expect((await server.get(`/api/coil/share-cards/${stranger.json.receipt.receiptId}`)).json.sharedThesis).toBeUndefined();
  });
});
