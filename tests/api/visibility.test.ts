/**
 * One visibility rule for stored Coils and receipts (docs/visibility.md): a row saved with a
 * wallet session is readable only with that wallet's session and is otherwise answered exactly
 * as a row nobody stored; a row saved without a wallet is public by its content address;
 * issuing a share card publishes that Coil and that card. Every read of a stored row goes by
 * it: the Coil by manifest hash, provenance, the share-card image, the passports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

let server: TestServer;
let cookieA: string;
let cookieB: string;
/** The Coil wallet A validated under its session: its manifest hash and receipt id. */
let privateHash: string;
let privateReceiptId: string;

const NOBODY_HASH = 'cd'.repeat(32);
const NOBODY_RECEIPT = `hrcpt_${'0'.repeat(32)}`;
const NOBODY_WALLET = '0x000000000000000000000000000000000000dEaD';

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
  cookieA = (await signIn(server, WALLET_A)).cookie;
  cookieB = (await signIn(server, WALLET_B)).cookie;
  const saved = await server.post(
    '/api/tools/validate-coil',
    { coil: rawCoil({ slug: 'wallet-a-private', name: 'Wallet A private basket' }) },
    { cookie: cookieA },
  );
  expect(saved.status, saved.text).toBe(200);
  privateHash = saved.json.receipt.manifestHash;
  privateReceiptId = saved.json.receipt.receiptId;
});
afterAll(async () => {
  await server?.stop();
});

/** The passport's numbers, without who it is about or when it was computed. */
const passportNumbers = (res: { json: { passport: { reputation: number; components: unknown[] } } }) => ({
  reputation: res.json.passport.reputation,
  components: res.json.passport.components,
});

describe("a wallet's saved Coil, to anyone but that wallet", () => {
  it('is 404 by its manifest hash, with the body of a hash nobody stored', async () => {
    const nobody = await server.get(`/api/coil/manifests/${NOBODY_HASH}`);
    expect(nobody.status).toBe(404);
    for (const cookie of [undefined, cookieB]) {
      const res = await server.get(`/api/coil/manifests/${privateHash}`, cookie ? { cookie } : {});
      expect(res.status).toBe(404);
      expect(res.json).toEqual(nobody.json);
    }
    const own = await server.get(`/api/coil/manifests/${privateHash}`, { cookie: cookieA });
    expect(own.status).toBe(200);
    expect(own.json.receipts.map((r: { receiptId: string }) => r.receiptId)).toContain(privateReceiptId);
  });

  it('has no provenance: 404 as for a manifest nobody stored', async () => {
    const nobody = await server.get(`/api/coil/provenance/${NOBODY_HASH}`);
    for (const cookie of [undefined, cookieB]) {
      const res = await server.get(`/api/coil/provenance/${privateHash}`, cookie ? { cookie } : {});
      expect(res.status).toBe(404);
      expect(res.json).toEqual(nobody.json);
    }
    expect((await server.get(`/api/coil/provenance/${privateHash}`, { cookie: cookieA })).status).toBe(200);
  });

  it('has no share-card image unless the wallet shares it: 404 as for a receipt nobody stored', async () => {
    const nobody = await server.get(`/api/share-card/${NOBODY_RECEIPT}.svg`);
    expect(nobody.status).toBe(404);
    for (const cookie of [undefined, cookieB]) {
      const res = await server.get(`/api/share-card/${privateReceiptId}.svg`, cookie ? { cookie } : {});
      expect(res.status).toBe(404);
      expect(res.json).toEqual(nobody.json);
    }
    expect((await server.get(`/api/share-card/${privateReceiptId}.svg`, { cookie: cookieA })).status).toBe(200);
  });

  it("does not show in the wallet's passport, which reads as a wallet with no Coils", async () => {
    const nobody = await server.get(`/api/agents/passport/${NOBODY_WALLET}`);
    for (const cookie of [undefined, cookieB]) {
      const res = await server.get(`/api/agents/passport/${WALLET_A.address}`, cookie ? { cookie } : {});
      expect(res.status).toBe(200);
      expect(passportNumbers(res)).toEqual(passportNumbers(nobody));
    }
    const own = await server.get(`/api/agents/passport/${WALLET_A.address}`, { cookie: cookieA });
    expect(own.json.passport.components.find((c: { name: string }) => c.name === 'manifestsCoiled').value).toBe(1);
  });

  it("does not count in a strategist's passport seen by others", async () => {
    const before = await server.get('/api/agents/passport/mock');
    const generated = await server.post(
      '/api/tools/generate-coil',
      { prompt: 'Water utilities and desalination over a dry decade' },
      { cookie: cookieA },
    );
    expect(generated.status).toBe(200);
    expect(passportNumbers(await server.get('/api/agents/passport/mock'))).toEqual(passportNumbers(before));
    expect(passportNumbers(await server.get('/api/agents/passport/mock', { cookie: cookieB }))).toEqual(passportNumbers(before));
    const own = await server.get('/api/agents/passport/mock', { cookie: cookieA });
    expect(own.json.passport.reputation).toBeGreaterThan(before.json.passport.reputation);
  });

  it('cannot be forked by another wallet (the parent is not found, as for a slug nobody stored)', async () => {
    const fork = await server.post(
      '/api/tools/validate-coil',
      { coil: rawCoil({ slug: 'wallet-b-fork', forkOf: 'wallet-a-private' }) },
      { cookie: cookieB },
    );
    expect(fork.status).toBe(422);
    expect(fork.json.error.code).toBe('FORK_PARENT_NOT_FOUND');
  });
});

describe('sharing', () => {
  it('a share card issued by the wallet publishes that Coil and that card, and nothing of the wallet', async () => {
    const coil = rawCoil({ slug: 'wallet-a-shared', name: 'Wallet A shared basket' });
    const card = await server.post('/api/tools/share-card', { coil }, { cookie: cookieA });
    expect(card.status, card.text).toBe(200);
    const { receiptId, manifestHash } = card.json.receipt;

    const image = await server.get(`/api/share-card/${receiptId}.svg`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    const page = await server.get(`/api/coil/manifests/${manifestHash}`);
    expect(page.status).toBe(200);
    expect(page.json.receipts.map((r: { receiptId: string }) => r.receiptId)).toEqual([receiptId]);

    // The wallet's own earlier private Coil stays private, and the passport shows no Coil.
    expect((await server.get(`/api/coil/manifests/${privateHash}`)).status).toBe(404);
    const nobody = await server.get(`/api/agents/passport/${NOBODY_WALLET}`);
    expect(passportNumbers(await server.get(`/api/agents/passport/${WALLET_A.address}`))).toEqual(passportNumbers(nobody));
    // The wallet still has the card among its own receipts.
    const mine = await server.get('/api/me/receipts?limit=100', { cookie: cookieA });
    expect(mine.json.items.map((r: { receiptId: string }) => r.receiptId)).toContain(receiptId);
  });

  it('a Coil saved without a wallet is public by its content address', async () => {
    const saved = await server.post('/api/tools/validate-coil', { coil: rawCoil({ slug: 'nobody-public' }) });
    const { manifestHash, receiptId } = saved.json.receipt;
    for (const cookie of [undefined, cookieA, cookieB]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      expect((await server.get(`/api/coil/manifests/${manifestHash}`, headers)).status).toBe(200);
      expect((await server.get(`/api/share-card/${receiptId}.svg`, headers)).status).toBe(200);
      expect((await server.get(`/api/coil/provenance/${manifestHash}`, headers)).status).toBe(200);
    }
  });
});
