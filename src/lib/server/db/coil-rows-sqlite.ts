/**
 * The Coil and receipt rows on the embedded SQLite file (db/coil-row-store.ts says why beside
 * Prisma): a better-sqlite3 connection of this module's own, statements prepared once, each
 * batch one synchronous transaction.
 *
 * Two connections in one process share the file safely in WAL mode (the migrator sets it): a
 * commit of either is seen by the other's next read. Prisma's connection may hold the write
 * lock across awaits (an interactive transaction); this connection therefore never waits for
 * the lock inside SQLite (`timeout: 0`: waiting would block the event loop that the other
 * transaction needs to finish) but tries again a moment later, for as long as better-sqlite3's
 * own default wait (5 s), and only then fails.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { sqlitePath } from './client';
import { coilValues, insertInto, lineageQueries, receiptValues, tlogEntriesOf, type CoilRowStore, type LineageRows } from './coil-rows';
import { keepCheckpointed, SQLITE_AUTOCHECKPOINT_FALLBACK, SQLITE_CONNECTION_PRAGMAS } from './sqlite-checkpointer';

/** How Prisma's SQLite adapter writes a DateTime (its default `iso8601` format). */
export function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

const LOCK_WAIT_MS = 5000;
const RETRY_MS = 2;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Runs a statement (or a transaction), trying again while another connection holds the lock. */
async function whenUnlocked<T>(run: () => T): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return run();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

export function openSqliteCoilRows(url: string): CoilRowStore {
  const file = sqlitePath(url);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 0 });
  // The same durability as Prisma's connection (db/client.ts): a commit is in the log before it
  // returns and survives the process being killed; checkpoints run off the event loop.
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) db.pragma(pragma);
  keepCheckpointed(file, () => {
    if (db.open) db.pragma(SQLITE_AUTOCHECKPOINT_FALLBACK);
  });

  const insertCoil = db.prepare(insertInto('Coil', 1, () => '?'));
  const insertReceipt = db.prepare(insertInto('Receipt', 1, () => '?'));
  const lineage = lineageQueries('?');
  const receiptsOf = db.prepare<[string], LineageRows['receipts'][number]>(lineage.receipts);
  const coilsOf = db.prepare<[string], LineageRows['coils'][number]>(lineage.coils);
  // The next log index is read and written in the same statement, inside the write
  // transaction: SQLite lets one writer in at a time (across processes too), so two
  // instances on one file never take the same index.
  const appendToLog = db.prepare(
    'INSERT INTO "TlogEntry" ("index", "receiptRowId", "receiptId", "salt", "entry", "appendedAt") ' +
      'SELECT COALESCE((SELECT MAX("index") FROM "TlogEntry"), -1) + 1, ?, ?, ?, ?, ? ' +
      'WHERE NOT EXISTS (SELECT 1 FROM "TlogEntry" WHERE "receiptRowId" = ?)',
  );
  const insertAll = db.transaction((pairs: Parameters<CoilRowStore['insert']>[0]) => {
    for (const { coil, receipt } of pairs) {
      insertCoil.run(coilValues(coil, sqliteTimestamp));
      insertReceipt.run(receiptValues(receipt, sqliteTimestamp));
    }
    for (const e of tlogEntriesOf(pairs))
      appendToLog.run(e.receiptRowId, e.receiptId, e.salt, e.entry, sqliteTimestamp(e.appendedAt), e.receiptRowId);
  });

  return {
    insert: (pairs) => whenUnlocked(() => insertAll(pairs)),
    lineage: (manifestHash) => whenUnlocked(() => ({ receipts: receiptsOf.all(manifestHash), coils: coilsOf.all(manifestHash) })),
    async close() {
      db.close();
    },
  };
}
