/**
 * The embedded database's connection settings (db/client.ts): WAL with synchronous = NORMAL
 * and no automatic checkpoint on the connection every query uses, in place before the first
 * query runs.
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

it('leaves WAL checkpoints to the worker thread: no commit of this connection runs one on the event loop', async () => {
  const { getDb } = await import('../../src/lib/server/db/client');
  const [setting] = await getDb().$queryRawUnsafe<Array<{ wal_autocheckpoint: bigint | number }>>('PRAGMA wal_autocheckpoint');
  expect(Number(setting!.wal_autocheckpoint)).toBe(0);
});
