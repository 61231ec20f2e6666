/**
 * The Coil and receipt rows on the embedded SQLite file (db/coil-row-store.ts says why beside
 * Prisma): better-sqlite3 connections of this module's own, statements prepared once, each
 * batch one transaction.
 *
 * The batches are committed on a worker thread of their own. better-sqlite3 runs a statement
 * synchronously on the calling thread, and a commit's work (the B-tree writes and the log's
 * `write()` calls) was 27 % of the main thread's time at 1,000 validate-coil calls a second,
 * where the main thread was on a CPU for 0.78 to 0.98 ms a call: at half of peak it was three
 * quarters busy or more, and its tail was the queue behind it (docs/performance.md). The
 * worker is sent the rows' values, already in column order, and answers once the transaction
 * has committed, so a 200 still means the rows are stored. The lineage reads stay on a
 * connection on the main thread: a read in WAL mode never waits for the writer. If the worker
 * cannot start or dies, the batches are committed on the main thread again, as before.
 *
 * Connections in one process share the file safely in WAL mode (the migrator sets it): a
 * commit of one is seen by the others' next read. Prisma's connection may hold the write lock
 * across awaits (an interactive transaction). The writer thread waits for it inside SQLite;
 * the connection on the main thread never does (`timeout: 0`: waiting would block the event
 * loop that the other transaction needs to finish) but tries again a moment later. Both give
 * up after better-sqlite3's own default wait (5 s).
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { logger } from '../http/logger';
import { sqlitePath } from './client';
import {
  coilValues,
  insertInto,
  lineageQueries,
  logLeavesOf,
  receiptValues,
  type CoilRowStore,
  type CoilWithReceiptRows,
  type LineageRows,
} from './coil-rows';
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

/** The statements of a batch, in the order the transaction runs them. */
const STATEMENTS = [
  insertInto('Coil', 1, () => '?'),
  insertInto('Receipt', 1, () => '?'),
  // The next log index is read and written in the same statement, inside the write
  // transaction: SQLite lets one writer in at a time (across processes too), so two
  // instances on one file never take the same index.
  'INSERT INTO "ReceiptLogEntry" ("index", "leafHash", "receiptId", "appendedAt") ' +
    'SELECT COALESCE((SELECT MAX("index") FROM "ReceiptLogEntry"), -1) + 1, ?, ?, ? ' +
    'WHERE NOT EXISTS (SELECT 1 FROM "ReceiptLogEntry" WHERE "leafHash" = ?)',
];

/** Each statement's rows of values for one batch, in the order of STATEMENTS. */
type BatchValues = unknown[][][];

function batchValues(pairs: readonly CoilWithReceiptRows[]): BatchValues {
  return [
    pairs.map(({ coil }) => coilValues(coil, sqliteTimestamp)),
    pairs.map(({ receipt }) => receiptValues(receipt, sqliteTimestamp)),
    logLeavesOf(pairs).map((leaf) => [leaf.leafHash, leaf.receiptId, sqliteTimestamp(leaf.appendedAt), leaf.leafHash]),
  ];
}

// The writer's source, evaluated as CommonJS for the reason sqlite-checkpointer.ts gives. It
// may wait inside SQLite for the lock (up to LOCK_WAIT_MS, better-sqlite3's own default):
// only this thread waits, not the event loop that another connection's transaction needs.
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.lockWaitMs });
for (const pragma of workerData.pragmas) db.pragma(pragma);
const statements = workerData.statements.map((sql) => db.prepare(sql));
const commit = db.transaction((batch) => {
  for (let i = 0; i < statements.length; i++) for (const values of batch[i]) statements[i].run(values);
});
parentPort.on('message', (m) => {
  if (m.stop) {
    db.close();
    parentPort.close();
  } else if (m.pragma) db.pragma(m.pragma);
  else {
    try {
      commit(m.batch);
      parentPort.postMessage({ id: m.id });
    } catch (error) {
      parentPort.postMessage({ id: m.id, error: { message: String(error && error.message), code: error && error.code } });
    }
  }
});
`;

interface Committing {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The worker that commits the batches, or null once it is lost (the caller then commits them itself). */
function startWriter(file: string) {
  let worker: Worker | null;
  const committing = new Map<number, Committing>();
  let nextId = 0;
  const lose = (reason: string) => {
    if (!worker) return;
    worker = null;
    logger.error({ event: 'sqlite_writer_lost', reason }, 'the Coil rows are committed on the event loop');
    for (const { reject } of committing.values()) reject(new Error(`the SQLite writer stopped (${reason})`));
    committing.clear();
  };
  try {
    worker = new Worker(WRITER_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        lockWaitMs: LOCK_WAIT_MS,
        pragmas: SQLITE_CONNECTION_PRAGMAS,
        statements: STATEMENTS,
      },
    });
  } catch (error) {
    worker = null;
    logger.error(
      { event: 'sqlite_writer_lost', reason: (error as Error)?.name ?? 'start' },
      'the Coil rows are committed on the event loop',
    );
    return null;
  }
  worker.unref();
  worker.on('message', (m: { id: number; error?: { message: string; code?: string } }) => {
    const waiting = committing.get(m.id);
    if (!waiting) return;
    committing.delete(m.id);
    if (!m.error) return waiting.resolve();
    waiting.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
  });
  worker.on('error', (error) => lose(error?.name ?? 'error'));
  worker.on('exit', (code) => lose(`exit ${code}`));
  return {
    get alive() {
      return worker !== null;
    },
    commit(batch: BatchValues): Promise<void> {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        committing.set(id, { resolve, reject });
        worker!.postMessage({ id, batch });
      });
    },
    pragma(pragma: string) {
      worker?.postMessage({ pragma });
    },
    async stop() {
      const stopping = worker;
      if (!stopping) return;
      worker = null;
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      stopping.postMessage({ stop: true });
      await exited;
    },
  };
}

/**
 * `commitOn: 'event-loop'` commits on the main thread, the path a lost writer falls back to;
 * the tests run the same checks on both.
 */
export function openSqliteCoilRows(url: string, { commitOn = 'worker' }: { commitOn?: 'worker' | 'event-loop' } = {}): CoilRowStore {
  const file = sqlitePath(url);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 0 });
  // The same durability as Prisma's connection (db/client.ts): a commit is in the log before it
  // returns and survives the process being killed; checkpoints run off the event loop.
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) db.pragma(pragma);
  const writer = commitOn === 'worker' ? startWriter(file) : null;
  keepCheckpointed(file, () => {
    if (db.open) db.pragma(SQLITE_AUTOCHECKPOINT_FALLBACK);
    writer?.pragma(SQLITE_AUTOCHECKPOINT_FALLBACK);
  });

  const statements = STATEMENTS.map((sql) => db.prepare(sql));
  const commitHere = db.transaction((batch: BatchValues) => {
    statements.forEach((statement, i) => {
      for (const values of batch[i]!) statement.run(values);
    });
  });
  const lineage = lineageQueries('?');
  const receiptsOf = db.prepare<[string], LineageRows['receipts'][number]>(lineage.receipts);
  const coilsOf = db.prepare<[string], LineageRows['coils'][number]>(lineage.coils);

  return {
    insert: (pairs) => {
      const batch = batchValues(pairs);
      return writer?.alive ? writer.commit(batch) : whenUnlocked(() => commitHere(batch));
    },
    lineage: (manifestHash) => whenUnlocked(() => ({ receipts: receiptsOf.all(manifestHash), coils: coilsOf.all(manifestHash) })),
    async close() {
      await writer?.stop();
      db.close();
    },
  };
}
