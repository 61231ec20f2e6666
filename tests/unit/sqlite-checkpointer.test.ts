/**
 * WAL checkpoints on a worker thread (db/sqlite-checkpointer.ts): a log written by a
 * connection that never checkpoints is copied into the database by the worker, and when the
 * worker cannot run, the connection is told to checkpoint by itself again.
 */
import { mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it, vi } from 'vitest';
import { keepCheckpointed, SQLITE_CONNECTION_PRAGMAS, stopCheckpointer } from '../../src/lib/server/db/sqlite-checkpointer';

const dir = mkdtempSync(join(tmpdir(), 'svc-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mxFrame (frames in the log) and nBackfill (frames copied into the database) of the WAL index. */
function walIndex(file: string): { frames: number; backfilled: number } {
  const fd = openSync(`${file}-shm`, 'r');
  try {
    const header = Buffer.alloc(136);
    readSync(fd, header, 0, header.length, 0);
    return { frames: header.readUInt32LE(16), backfilled: header.readUInt32LE(96) };
  } finally {
    closeSync(fd);
  }
}

it('copies a log that its writer never checkpoints into the database, off the writer', async () => {
  const file = join(dir, 'worker.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) db.pragma(pragma);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  // 1,500 commits of 2 KB each: past the 1,000 pages at which SQLite would checkpoint by itself.
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < 1500; i++) insert.run('x'.repeat(2048));
  // The writer's commits copied nothing: its own checkpoint is off.
  expect(walIndex(file).frames).toBeGreaterThan(1000);
  expect(walIndex(file).backfilled).toBe(0);
  const lost = vi.fn();
  keepCheckpointed(file, lost);
  await vi.waitFor(() => expect(walIndex(file).backfilled).toBe(walIndex(file).frames), { timeout: 5000, interval: 50 });
  expect(walIndex(file).backfilled).toBeGreaterThan(0);
  expect(lost).not.toHaveBeenCalled();
  await stopCheckpointer(file);
  db.close();
});

it('tells the connection to checkpoint by itself again when the worker cannot open the database', async () => {
  const lost = vi.fn();
  keepCheckpointed(join(dir, 'no-such-folder', 'svc.db'), lost);
  await vi.waitFor(() => expect(lost).toHaveBeenCalledTimes(1), { timeout: 5000, interval: 20 });
});
