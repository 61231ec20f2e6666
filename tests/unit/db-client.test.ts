/**
 * The embedded database's connection settings (db/client.ts): WAL with synchronous = NORMAL
 * on the connection every query uses, in place before the first query runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'svc-db-client-'));
afterAll(async () => {
  const { closeDb } = await import('../../src/lib/server/db/client');
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

it('the first query already runs in WAL mode with synchronous = NORMAL', async () => {
  process.env.DATABASE_URL = `file:${join(dir, 'svc.db')}`;
  const { applyMigrations } = await import('../../src/lib/server/db/migrate');
  await applyMigrations(process.env.DATABASE_URL);
  const { getDb } = await import('../../src/lib/server/db/client');
  const db = getDb();
  const [sync] = await db.$queryRawUnsafe<Array<{ synchronous: bigint | number }>>('PRAGMA synchronous');
  const [journal] = await db.$queryRawUnsafe<Array<{ journal_mode: string }>>('PRAGMA journal_mode');
  expect(Number(sync!.synchronous)).toBe(1);
  expect(journal!.journal_mode).toBe('wal');
});
