/**
 * The Coil and receipt rows of the hot path (db/coil-rows-*.ts), written on their own driver
 * connection, read back through Prisma exactly as Prisma's own writes are: same columns, same
 * timestamp text on SQLite, same instants on PostgreSQL; a pair stored twice is stored once;
 * the lineage rows come back oldest first. The PostgreSQL case is @persistence
 * (TEST_DATABASE_URL, else the loopback PostgreSQL; under CI=true it must run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../src/lib/server/db/migrate';
import type { CoilRowStore, CoilWithReceiptRows } from '../../src/lib/server/db/coil-rows';
import { openPostgresCoilRows } from '../../src/lib/server/db/coil-rows-postgres';
import { openSqliteCoilRows } from '../../src/lib/server/db/coil-rows-sqlite';
import { openTestDb, type TestDb } from '../support/db';
import { createPostgresDatabase } from '../support/server';
import { postgresReachable, postgresUrl, requireService } from '../support/services';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function pair(n: number, at: Date, parent: string | null = null): CoilWithReceiptRows {
  const manifestHash = `m${n}`.padEnd(64, '0');
  return {
    logged: true,
    coil: {
      id: `coil-${n}`,
      slug: `slug-${n}`,
      manifestHash,
      parentManifestHash: parent,
      forkOf: parent ? 'parent-slug' : null,
      ownerAddress: null,
      agentId: n % 2 ? 'mock' : null,
      manifestJson: `{"slug":"slug-${n}"}`,
      score: 61.5,
      createdAt: at,
    },
    receipt: {
      id: `receipt-${n}`,
      receiptId: `hrcpt_${String(n).padStart(32, '0')}`,
      kind: 'coil_manifest',
      manifestHash,
      parentManifestHash: parent,
      weightsChecksum: 'w'.repeat(64),
      validationStatus: 'valid',
      coilSlug: `slug-${n}`,
      ownerAddress: null,
      receiptJson: `{"receiptId":"${n}"}`,
      createdAt: at,
      storedAt: at,
      signatureJson: '{"alg":"Ed25519"}',
      signedAt: at,
    },
  };
}

async function exercise(store: CoilRowStore, db: TestDb, provider: 'sqlite' | 'postgresql'): Promise<void> {
  const at = new Date('2026-11-25T10:00:00.123Z');
  const later = new Date('2026-11-25T10:00:01.000Z');
  await store.insert([pair(1, at), pair(2, at, 'm1'.padEnd(64, '0'))]);
  // Stored again, in a batch with a new one, and twice in one batch: each row once.
  await store.insert([pair(1, at), pair(3, later), pair(3, later)]);

  const coils = await db.coil.findMany({ orderBy: { id: 'asc' } });
  expect(coils.map((c) => c.id)).toEqual(['coil-1', 'coil-2', 'coil-3']);
  expect(coils[0]).toMatchObject({ slug: 'slug-1', score: 61.5, agentId: 'mock', parentManifestHash: null, forkOf: null });
  expect(coils[0]!.createdAt.toISOString()).toBe(at.toISOString());
  expect(coils[1]).toMatchObject({ parentManifestHash: 'm1'.padEnd(64, '0'), forkOf: 'parent-slug', agentId: null });
  const receipts = await db.receipt.findMany({ orderBy: { id: 'asc' } });
  expect(receipts.map((r) => r.receiptId)).toEqual([1, 2, 3].map((n) => `hrcpt_${String(n).padStart(32, '0')}`));
  expect(receipts[2]!.storedAt.toISOString()).toBe(later.toISOString());

  // Prisma's own write of the same instant is stored as the same text (SQLite keeps text).
  await db.coil.create({ data: { ...pair(9, at).coil, id: 'coil-9' } });
  if (provider === 'sqlite') {
    const texts = await db.$queryRawUnsafe<Array<{ id: string; createdAt: string }>>(
      `SELECT "id", CAST("createdAt" AS TEXT) AS "createdAt" FROM "Coil" WHERE "id" IN ('coil-1', 'coil-9') ORDER BY "id"`,
    );
    expect(texts[0]!.createdAt).toBe(texts[1]!.createdAt);
  }

  const lineage = await store.lineage('m2'.padEnd(64, '0'));
  expect(lineage).toEqual({
    receipts: [
      { receiptId: `hrcpt_${'2'.padStart(32, '0')}`, parentManifestHash: 'm1'.padEnd(64, '0'), coilSlug: 'slug-2', ownerAddress: null },
    ],
    coils: [{ parentManifestHash: 'm1'.padEnd(64, '0'), slug: 'slug-2', ownerAddress: null }],
  });
  expect(await store.lineage('f'.repeat(64))).toEqual({ receipts: [], coils: [] });
}

describe('Coil and receipt rows on their own connection', () => {
  it('on SQLite, beside Prisma on the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-coil-rows-'));
    const url = `file:${join(dir, 'svc.db')}`;
    await applyMigrations(url);
    const store = openSqliteCoilRows(url);
    const db = openTestDb(url);
    cleanups.push(async () => {
      await store.close();
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    });
    await exercise(store, db, 'sqlite');
  });

  it('on SQLite, waits for a transaction Prisma holds open across awaits instead of failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-coil-rows-lock-'));
    const url = `file:${join(dir, 'svc.db')}`;
    await applyMigrations(url);
    const store = openSqliteCoilRows(url);
    const db = openTestDb(url);
    cleanups.push(async () => {
      await store.close();
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    });
    let written: Promise<void> | undefined;
    await db.$transaction(async (tx) => {
      await tx.authNonce.create({ data: { nonce: 'held', createdAt: new Date(), expiresAt: new Date() } });
      // Prisma now holds the write lock; this write must wait for it without blocking the loop.
      written = store.insert([pair(1, new Date())]);
      await new Promise((r) => setTimeout(r, 50));
    });
    await written;
    expect(await db.coil.count()).toBe(1);
    expect(await db.authNonce.count()).toBe(1);
  });

  it('@persistence on PostgreSQL', async (ctx) => {
    const skip = await requireService(`PostgreSQL (${postgresUrl()})`, postgresReachable);
    if (skip) return ctx.skip();
    const { url, drop } = await createPostgresDatabase(postgresUrl());
    await applyMigrations(url);
    const store = openPostgresCoilRows(url, { connectMs: 5000, statementMs: 5000 });
    const db = openTestDb(url);
    cleanups.push(async () => {
      await store.close();
      await db.$disconnect();
      await drop();
    });
    await exercise(store, db, 'postgresql');
  });
});
