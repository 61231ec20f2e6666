/**
 * Stored Coils and receipts: lineage, provenance, passports and share-card images come from
 * the database, survive a restart, and repeated requests never duplicate anything. Named
 * @persistence so CI reruns them against PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADDR, rawCoil } from '../support/coils';
import { startServer, type TestServer } from '../support/server';
import { textWithoutSignatures } from '../support/signatures';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const NOW = '2026-05-01T00:00:00Z';
const component = (passport: { components: Array<{ name: string; value: number }> }, name: string) =>
  passport.components.find((c) => c.name === name)!.value;

describe('@persistence Coil store', () => {
  it('keeps lineage (fork depth 3), passports and share-card images across a restart', async () => {
    const first = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
    const root = (await first.post('/api/tools/generate-coil', { prompt: 'AI chips and data centers', nowIso: NOW })).json;
    const fork1 = (await first.post('/api/agent/svc', { prompt: 'add some crypto', basketContext: root.coil, nowIso: NOW })).json;
    const fork2 = (await first.post('/api/agent/svc', { prompt: 'add energy', basketContext: { slug: fork1.manifest.slug }, nowIso: NOW }))
      .json;
    const userFork = rawCoil({ slug: 'user-fork', forkOf: fork2.manifest.slug, parentManifestHash: fork2.receipt.manifestHash });
    const fork3 = (await first.post('/api/tools/receipt', { coil: userFork, nowIso: NOW })).json;
    expect(fork3.provenance.forkDepth).toBe(3);
    const card = (await first.post('/api/tools/share-card', { coil: root.coil, nowIso: NOW })).json;
    const passportBefore = (await first.get('/api/agents/passport/mock')).json.passport;
    expect(component(passportBefore, 'manifestsCoiled')).toBe(3);
    expect(component(passportBefore, 'forksReceived')).toBe(3);
    await first.stop({ keepData: true });

    const second = await startServer({ databaseUrl: first.databaseUrl, env: { STRATEGIST_PROVIDER: 'mock' } });
    second.adoptDataOf(first);
    servers.push(second);
    const provenance = (await second.get(`/api/coil/provenance/${fork3.receipt.manifestHash}`)).json.provenance;
    expect(provenance.forkDepth).toBe(3);
    expect(provenance.chain.map((l: { manifestHash: string }) => l.manifestHash)).toEqual([
      root.receipt.manifestHash,
      fork1.receipt.manifestHash,
      fork2.receipt.manifestHash,
      fork3.receipt.manifestHash,
    ]);
    expect(provenance.chain[0].receiptIds).toEqual(expect.arrayContaining([root.receipt.receiptId, card.receipt.receiptId]));
    expect((await second.get(`/api/coil/provenance/${root.receipt.manifestHash}`)).json.provenance.forkDepth).toBe(0);
    expect((await second.get(`/api/coil/provenance/${fork1.receipt.manifestHash}`)).json.provenance.forkDepth).toBe(1);

    const passportAfter = (await second.get('/api/agents/passport/mock')).json.passport;
    expect(passportAfter.components).toEqual(passportBefore.components);
    expect(passportAfter.reputation).toBe(passportBefore.reputation);

    const img = await fetch(`${second.url}/api/share-card/${card.receipt.receiptId}.svg`);
    expect(img.status).toBe(200);
    expect(await img.text()).toContain(card.receipt.receiptId);

    // The parent of a refinement by slug is found in the stored Coils after the restart too.
    const fork4 = (
      await second.post('/api/agent/svc', {
        prompt: 'less energy',
        basketContext: { slug: fork2.manifest.slug, assets: [{ tokenAddress: ADDR.SPY }] },
        nowIso: NOW,
      })
    ).json;
    expect(fork4.receipt.parentManifestHash).toBe(fork2.receipt.manifestHash);
  });

  it('stores a repeated request once, even when the repeats race', async () => {
    const server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
    servers.push(server);
    const body = { prompt: 'defensive index exposure', nowIso: NOW };
    const responses = await Promise.all(Array.from({ length: 6 }, () => server.post('/api/tools/generate-coil', body)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // One answer body; each issuance has its own signature block (issue 36).
    expect(new Set(responses.map((r) => textWithoutSignatures(r.text))).size).toBe(1);
    const again = await server.post('/api/tools/generate-coil', body);
    expect(again.json.receipt.receiptId).toBe(responses[0]!.json.receipt.receiptId);

    const passport = (await server.get('/api/agents/passport/mock')).json.passport;
    expect(component(passport, 'manifestsCoiled')).toBe(1);
    expect(component(passport, 'receipts')).toBe(1);
    const provenance = (await server.get(`/api/coil/provenance/${again.json.receipt.manifestHash}`)).json.provenance;
    expect(provenance.chain[0].receiptIds).toEqual([again.json.receipt.receiptId]);

    // Another clock gives another receipt of the same manifest; the manifest is still counted once.
    await server.post('/api/tools/generate-coil', { ...body, nowIso: '2026-05-02T00:00:00Z' });
    const later = (await server.get('/api/agents/passport/mock')).json.passport;
    expect(component(later, 'manifestsCoiled')).toBe(1);
    expect(component(later, 'receipts')).toBe(2);
  });
});
