/**
 * A fork's parent is resolved from the store (interface 2.3 `forkOf`, 2.5 `parentManifestHash`),
 * through the real server: every route that issues a receipt stamps the parent's manifest
 * hash of the newest stored receipt of the `forkOf` slug the caller may see; a named parent
 * must be one of them; a `forkOf` that cannot be resolved is 422, never a silent root; another
 * wallet's private parent is invisible; verification completes a fork the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_FUSES, rawCoil } from '../support/coils';
import { openTestDb, type TestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';
import { signIn, WALLET_A, WALLET_B } from '../support/siwe';

let server: TestServer;
let db: TestDb;
let cookieA: string;
let cookieB: string;
const NOW = '2026-04-01T08:00:00Z';

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

/** A Coil every tool accepts (valid, not paper, every capsule fuse declared). */
const toolCoil = (overrides: Parameters<typeof rawCoil>[0] = {}) =>
  rawCoil({
    mode: 'brokerage-mcp-plan',
    executionMode: 'human_confirm',
    fuses: FULL_FUSES,
    rebalancePolicy: { method: 'drift', driftThresholdBps: 500 },
    ...overrides,
  });

/** Stores a receipt of a Coil (as the parent of later forks) and returns its manifest hash. */
async function storeParent(coil: ReturnType<typeof rawCoil>, headers: Record<string, string> = {}, nowIso = NOW): Promise<string> {
  const res = await server.post('/api/tools/receipt', { coil, nowIso }, headers);
  expect(res.status, res.text).toBe(200);
  return res.json.receipt.manifestHash;
}

/** Every route that issues a receipt, with the body it takes for a Coil. */
const RECEIPT_ROUTES: Array<[string, (coil: unknown) => Record<string, unknown>]> = [
  ['/api/tools/validate-coil', (coil) => ({ coil })],
  ['/api/tools/score-coil', (coil) => ({ coil })],
  ['/api/tools/compile-capsule', (coil) => ({ coil })],
  ['/api/tools/risk-audit', (coil) => ({ coil })],
  ['/api/tools/drift-check', (coil) => ({ coil, currentWeightsBps: { NVDA: 4000, AMD: 3000, MSFT: 3000 } })],
  ['/api/tools/receipt', (coil) => ({ coil })],
  ['/api/tools/share-card', (coil) => ({ coil })],
];

describe("a fork without its parent's hash", () => {
  it("@persistence gets the stored parent's manifest hash stamped into the receipt of every tool, and provenance starts at the parent", async () => {
    const parentHash = await storeParent(toolCoil({ slug: 'lineage-parent-a' }));
    const fork = toolCoil({ slug: 'lineage-fork-a', name: 'A fork', forkOf: 'lineage-parent-a' });
    const manifests = new Set<string>();
    for (const [path, body] of RECEIPT_ROUTES) {
      const res = await server.post(path, { ...body(fork), nowIso: NOW });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.json.receipt.parentManifestHash, path).toBe(parentHash);
      manifests.add(res.json.receipt.manifestHash);
    }
    expect(manifests.size).toBe(1);
    const [manifestHash] = [...manifests];
    const provenance = (await server.get(`/api/coil/provenance/${manifestHash}`)).json.provenance;
    expect(provenance).toMatchObject({ forkDepth: 1, rootManifestHash: parentHash, rootUnresolved: false });
    expect(provenance.chain.map((l: { slug: string }) => l.slug)).toEqual(['lineage-parent-a', 'lineage-fork-a']);

    // Verification completes the fork the same way: the Coil as sent verifies against its receipt.
    const receipt = (await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW })).json.receipt;
    const verified = await server.post('/api/coil/verify', { coil: fork, receipt });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json.verification).toMatchObject({ ok: true, mismatches: [] });
  });

  it("@persistence takes the newest stored receipt of the slug by the server's storage order, not by a pinned nowIso", async () => {
    const first = await storeParent(toolCoil({ slug: 'lineage-parent-b' }), {}, '2031-01-01T00:00:00Z');
    const second = await storeParent(toolCoil({ slug: 'lineage-parent-b', name: 'Second version' }), {}, '2021-01-01T00:00:00Z');
    expect(second).not.toBe(first);
    const fork = toolCoil({ slug: 'lineage-fork-b', forkOf: 'lineage-parent-b' });
    expect((await server.post('/api/tools/score-coil', { coil: fork, nowIso: NOW })).json.receipt.parentManifestHash).toBe(second);
    // An older version named explicitly is still a stored parent of that slug.
    const older = await server.post('/api/tools/score-coil', { coil: { ...fork, parentManifestHash: first }, nowIso: NOW });
    expect(older.status, older.text).toBe(200);
    expect(older.json.receipt.parentManifestHash).toBe(first);
  });

  it('refuses a parentManifestHash that is not a stored receipt of the forkOf slug (422 FORK_PARENT_MISMATCH)', async () => {
    await storeParent(toolCoil({ slug: 'lineage-parent-c' }));
    const otherHash = await storeParent(toolCoil({ slug: 'lineage-elsewhere', name: 'Unrelated' }));
    for (const parentManifestHash of [otherHash, 'e'.repeat(64)]) {
      const res = await server.post('/api/tools/receipt', {
        coil: toolCoil({ slug: 'lineage-fork-c', forkOf: 'lineage-parent-c', parentManifestHash }),
        nowIso: NOW,
      });
      expect(res.status, res.text).toBe(422);
      expect(res.json.error).toMatchObject({
        code: 'FORK_PARENT_MISMATCH',
        issues: [expect.objectContaining({ code: 'FORK_PARENT_MISMATCH', path: 'coil.parentManifestHash' })],
      });
      expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    }
  });

  it('is 422 FORK_PARENT_NOT_FOUND on every receipt route when the forkOf slug has no stored receipt, and nothing is stored', async () => {
    const orphan = toolCoil({ slug: 'lineage-orphan', forkOf: 'lineage-never-stored' });
    for (const [path, body] of [...RECEIPT_ROUTES, ['/api/coil/verify', (coil: unknown) => ({ coil, receipt: {} })] as const]) {
      const res = await server.post(path, { ...body(orphan), nowIso: NOW });
      expect(res.status, `${path}: ${res.text}`).toBe(422);
      expect(res.json.error).toMatchObject({ code: 'FORK_PARENT_NOT_FOUND', issues: [expect.objectContaining({ path: 'coil.forkOf' })] });
    }
    expect(await db.receipt.count({ where: { coilSlug: 'lineage-orphan' } })).toBe(0);
    expect(await db.coil.count({ where: { slug: 'lineage-orphan' } })).toBe(0);
    // A root stays a root.
    expect(
      (await server.post('/api/tools/receipt', { coil: toolCoil({ slug: 'lineage-orphan' }), nowIso: NOW })).json.receipt
        .parentManifestHash,
    ).toBeUndefined();
  });

  it("@persistence never resolves to another wallet's private parent", async () => {
    const privateHash = await storeParent(toolCoil({ slug: 'lineage-private', name: 'Private parent' }), { cookie: cookieA });
    const fork = toolCoil({ slug: 'lineage-private-fork', forkOf: 'lineage-private' });
    for (const headers of [{}, { cookie: cookieB }] as Array<Record<string, string>>) {
      const res = await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW }, headers);
      expect(res.status, res.text).toBe(422);
      expect(res.json.error.code).toBe('FORK_PARENT_NOT_FOUND');
      // Naming the private hash reveals nothing more: the slug is still unknown to this caller.
      const named = await server.post('/api/tools/receipt', { coil: { ...fork, parentManifestHash: privateHash }, nowIso: NOW }, headers);
      expect(named.json.error.code).toBe('FORK_PARENT_NOT_FOUND');
    }
    const own = await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW }, { cookie: cookieA });
    expect(own.status, own.text).toBe(200);
    expect(own.json.receipt.parentManifestHash).toBe(privateHash);
    // A public receipt of the same slug is what everybody else sees.
    const publicHash = await storeParent(toolCoil({ slug: 'lineage-private', name: 'Public version' }));
    expect(
      (await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW }, { cookie: cookieB })).json.receipt.parentManifestHash,
    ).toBe(publicHash);
  });
});

describe('the strategist forks through the same resolution', () => {
  it('stamps the newest visible parent of a basketContext slug, and refuses one it cannot resolve', async () => {
    const parentHash = await storeParent(toolCoil({ slug: 'lineage-strategist-parent' }));
    const refined = await server.post('/api/agent/svc', {
      prompt: 'add some energy',
      basketContext: { slug: 'lineage-strategist-parent' },
      nowIso: NOW,
    });
    expect(refined.status, refined.text).toBe(200);
    expect(refined.json.manifest).toMatchObject({ forkOf: 'lineage-strategist-parent', parentManifestHash: parentHash });
    expect(refined.json.receipt.parentManifestHash).toBe(parentHash);

    const unknown = await server.post('/api/agent/svc', {
      prompt: 'add some energy',
      basketContext: { slug: 'lineage-nobody-stored-this' },
      nowIso: NOW,
    });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.json.error).toMatchObject({
      code: 'FORK_PARENT_NOT_FOUND',
      issues: [expect.objectContaining({ path: 'basketContext.slug' })],
    });

    await storeParent(toolCoil({ slug: 'lineage-strategist-private' }), { cookie: cookieA });
    const hidden = await server.post(
      '/api/agent/svc',
      { prompt: 'more AI', basketContext: { slug: 'lineage-strategist-private' }, nowIso: NOW },
      { cookie: cookieB },
    );
    expect(hidden.status).toBe(422);
    expect(hidden.json.error.code).toBe('FORK_PARENT_NOT_FOUND');

    // A complete Coil as context names its own hash, which must be a stored version of its slug.
    const edited = toolCoil({ slug: 'lineage-strategist-parent', name: 'Edited, never stored' });
    const unstored = await server.post('/api/agent/svc', { prompt: 'more AI', basketContext: edited, nowIso: NOW });
    expect(unstored.status).toBe(422);
    expect(unstored.json.error).toMatchObject({
      code: 'FORK_PARENT_MISMATCH',
      issues: [expect.objectContaining({ path: 'basketContext' })],
    });
  });
});

describe('verification of a fork', () => {
  it('checks the parent a receipt names against the store', async () => {
    const parentHash = await storeParent(toolCoil({ slug: 'lineage-verify-parent' }));
    const fork = toolCoil({ slug: 'lineage-verify-fork', forkOf: 'lineage-verify-parent' });
    const receipt = (await server.post('/api/tools/receipt', { coil: fork, nowIso: NOW })).json.receipt;
    expect(receipt.parentManifestHash).toBe(parentHash);
    const withHash = await server.post('/api/coil/verify', { coil: { ...fork, parentManifestHash: parentHash }, receipt });
    expect(withHash.json.verification.ok).toBe(true);
    const forged = await server.post('/api/coil/verify', { coil: fork, receipt: { ...receipt, parentManifestHash: 'e'.repeat(64) } });
    expect(forged.status).toBe(422);
    expect(forged.json.error).toMatchObject({
      code: 'FORK_PARENT_MISMATCH',
      issues: [expect.objectContaining({ path: 'receipt.parentManifestHash' })],
    });
    // A receipt that names no parent does not verify a fork: the resolved parent differs.
    const { parentManifestHash: _dropped, ...rootClaim } = receipt;
    const asRoot = await server.post('/api/coil/verify', { coil: fork, receipt: rootClaim });
    expect(asRoot.status).toBe(200);
    expect(asRoot.json.verification.ok).toBe(false);
    expect(asRoot.json.verification.mismatches).toContain('parentManifestHash');
  });
});
