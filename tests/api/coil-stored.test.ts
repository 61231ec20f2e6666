/**
 * GET /api/coil/manifests/{manifestHash} (the stable address of a Coil page) through the
 * real server, on the REST door and the typed client: the stored Coil with its health,
 * stored receipts, provenance and the strategists that coiled it; 404 for a hash nobody
 * stored; nothing is written by reading. @persistence
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/trpc';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
const NOW = '2026-03-01T12:00:00Z';

beforeAll(async () => {
  server = await startServer({ env: { STRATEGIST_PROVIDER: 'mock' } });
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /api/coil/manifests/{manifestHash} @persistence', () => {
  it('answers the stored Coil, its health, its stored receipts, provenance and who coiled it', async () => {
    const generated = (await server.post('/api/tools/generate-coil', { prompt: 'AI chips and data-center GPUs', nowIso: NOW })).json;
    const hash = generated.receipt.manifestHash;
    const res = await server.get(`/api/coil/manifests/${hash}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      tool: 'stored-coil',
      manifestHash: hash,
      coiledBy: ['mock'],
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(res.json.coil.slug).toBe(generated.coil.slug);
    expect(res.json.coil.assets).toEqual(generated.coil.assets);
    expect(res.json.health).toEqual(generated.health);
    expect(res.json.receipts.map((r: { receiptId: string }) => r.receiptId)).toEqual([generated.receipt.receiptId]);
    expect(res.json.receipts[0]).toEqual(generated.receipt);
    expect(res.json.provenance).toMatchObject({ manifestHash: hash, forkDepth: 0, rootUnresolved: false });

    // Reading writes nothing: the same answer again, and no new receipt.
    const again = await server.get(`/api/coil/manifests/${hash}`);
    expect(again.json.receipts).toHaveLength(1);

    // The typed client reads the same.
    const client = createClient(fetch, server.url);
    const viaTrpc = await client.tools.storedCoil.query({ manifestHash: hash });
    expect(viaTrpc.coil).toEqual(res.json.coil);
  });

  it('names no strategist for a fork a caller wrote, and shows its parent in the provenance', async () => {
    const parent = (await server.post('/api/tools/generate-coil', { prompt: 'defensive index exposure and treasuries', nowIso: NOW })).json;
    const [a, b] = parent.coil.assets;
    const fork = {
      ...parent.coil,
      slug: `${parent.coil.slug}-fork`,
      assets: parent.coil.assets.map((x: { weightBps: number }, i: number) => ({
        ...x,
        weightBps: i === 0 ? a.weightBps - 50 : i === 1 ? b.weightBps + 50 : x.weightBps,
      })),
      forkOf: parent.coil.slug,
      parentManifestHash: parent.receipt.manifestHash,
    };
    delete fork.createdAt;
    const issued = await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW });
    expect(issued.status).toBe(200);
    const res = await server.get(`/api/coil/manifests/${issued.json.receipt.manifestHash}`);
    expect(res.status).toBe(200);
    expect(res.json.coiledBy).toEqual([]);
    expect(res.json.provenance.forkDepth).toBe(1);
    expect(res.json.provenance.chain[0].manifestHash).toBe(parent.receipt.manifestHash);
  });

  it('is 404 MANIFEST_NOT_FOUND for a hash nobody stored, and 400 for a malformed one', async () => {
    const missing = await server.get(`/api/coil/manifests/${'ab'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'MANIFEST_NOT_FOUND' });
    expect(missing.json.error.issues[0]).toMatchObject({ code: 'MANIFEST_NOT_FOUND', path: 'manifestHash' });
    const malformed = await server.get('/api/coil/manifests/not-a-hash');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.issues.length).toBeGreaterThan(0);
  });

  it('is in the OpenAPI document under the tools family', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    const op = doc.paths['/coil/manifests/{manifestHash}']?.get;
    expect(op?.tags).toEqual(['tools']);
    expect(op?.summary).toMatch(/stored Coil/);
  });
});
