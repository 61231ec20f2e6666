/**
 * setupFiles of the `inproc` project: each test file gets its own migrated SQLite database,
 * chosen before any module reads the configuration (the repositories open `config()`'s
 * DATABASE_URL on first use), and removed afterwards. Nothing else of the process
 * environment is used but the rate limit's size: a test's configuration comes from
 * tests/support/caller.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'svc-inproc-'));
process.env.DATABASE_URL = `file:${join(dir, 'svc.db')}`;
// Every procedure call counts against the per-tool rate limit (trpc/init.ts); router-logic
// tests make many calls of one procedure, and the limit itself is tested through the real server.
process.env.RATE_LIMIT_MAX = '1000000';

beforeAll(async () => {
  const { applyMigrations } = await import('../../src/lib/server/db/migrate');
  await applyMigrations(process.env.DATABASE_URL!);
});

afterAll(async () => {
  const { closeDb } = await import('../../src/lib/server/db/client');
  const { closeCoilRows } = await import('../../src/lib/server/db/coil-row-store');
  await closeDb();
  await closeCoilRows();
  rmSync(dir, { recursive: true, force: true });
});
