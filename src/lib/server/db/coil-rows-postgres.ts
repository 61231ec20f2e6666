/**
 * The Coil and receipt rows on PostgreSQL (db/coil-row-store.ts says why beside Prisma): a
 * small pg pool of this module's own. A batch is one statement, so one round trip and one
 * commit: the receipts' INSERT with the Coils' INSERT as a data-modifying WITH, which
 * PostgreSQL runs in the same transaction.
 */
import pg from 'pg';
import { postgresPoolConfig, type DatabaseTimeouts } from './postgres-pool';
import {
  coilValues,
  insertInto,
  lineageQueries,
  receiptValues,
  tlogEntriesOf,
  type CoilRowStore,
  type CoilWithReceiptRows,
  type LineageRows,
} from './coil-rows';

/**
 * How Prisma's PostgreSQL adapter writes a DateTime into a `TIMESTAMP(3)` column: the UTC wall
 * time, without a zone.
 */
export function postgresTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

const LINEAGE = lineageQueries('$1');

/** Connections of this pool (Prisma keeps its own): one batch runs at a time, reads beside it. */
const POOL_SIZE = 4;

/** Each row once: a batch may hold the same Coil twice, and one INSERT must not name a key twice. */
function distinctById<T extends { id: string }>(rows: T[]): T[] {
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}

export function insertStatement(pairs: CoilWithReceiptRows[]): { text: string; values: unknown[] } {
  const coils = distinctById(pairs.map((p) => p.coil));
  const receipts = distinctById(pairs.map((p) => p.receipt));
  const coilRowValues = coils.flatMap((c) => coilValues(c, postgresTimestamp));
  const numbered = (position: number) => `$${position + 1}`;
  const text =
    `WITH "storedCoils" AS (${insertInto('Coil', coils.length, numbered)}) ` +
    insertInto('Receipt', receipts.length, numbered, coilRowValues.length);
  const values = [...coilRowValues, ...receipts.flatMap((r) => receiptValues(r, postgresTimestamp))];
  return { text, values };
}

/**
 * The receipt log's advisory lock: instances that append at once take it in turn, so the next
 * index each reads is the one after the other's last (a statement's snapshot is taken after
 * the lock is held, under READ COMMITTED).
 */
const RECEIPT_LOG_LOCK = 0x5ec_1096;

/** Appends a batch's new entries after the log's last index; a row already logged is skipped. */
export function logAppendStatement(pairs: CoilWithReceiptRows[]): { text: string; values: unknown[] } | undefined {
  const entries = tlogEntriesOf(pairs);
  if (entries.length === 0) return undefined;
  const n = 6;
  const rows = entries.map(
    (_, i) =>
      `($${i * n + 1}::int, $${i * n + 2}::text, $${i * n + 3}::text, $${i * n + 4}::text, $${i * n + 5}::text, $${i * n + 6}::timestamp(3))`,
  );
  return {
    text:
      'INSERT INTO "TlogEntry" ("index", "receiptRowId", "receiptId", "salt", "entry", "appendedAt") ' +
      'SELECT (SELECT COALESCE(MAX("index"), -1) FROM "TlogEntry") + ROW_NUMBER() OVER (ORDER BY v.ord), v.rowid, v.rid, v.salt, v.entry, v.at ' +
      `FROM (VALUES ${rows.join(', ')}) AS v(ord, rowid, rid, salt, entry, at) ` +
      'WHERE NOT EXISTS (SELECT 1 FROM "TlogEntry" e WHERE e."receiptRowId" = v.rowid)',
    values: entries.flatMap((e, i) => [i, e.receiptRowId, e.receiptId, e.salt, e.entry, postgresTimestamp(e.appendedAt)]),
  };
}

export function openPostgresCoilRows(url: string, timeouts: DatabaseTimeouts): CoilRowStore {
  const pool = new pg.Pool({ ...postgresPoolConfig(url, timeouts), max: POOL_SIZE });
  // An idle connection the server drops is replaced on the next query; the error itself
  // would otherwise end the process.
  pool.on('error', () => undefined);
  return {
    async insert(pairs) {
      // One transaction: the rows and their log leaves commit together, or neither does.
      const client = await pool.connect();
      let failure: unknown;
      try {
        await client.query('BEGIN');
        await client.query(insertStatement(pairs));
        const append = logAppendStatement(pairs);
        if (append) {
          await client.query('SELECT pg_advisory_xact_lock($1)', [RECEIPT_LOG_LOCK]);
          await client.query(append);
        }
        await client.query('COMMIT');
      } catch (error) {
        failure = error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        // A connection whose transaction failed midway is not handed out again.
        client.release(failure instanceof Error ? failure : undefined);
      }
    },
    async lineage(manifestHash) {
      const [receipts, coils] = await Promise.all([
        pool.query<LineageRows['receipts'][number]>(LINEAGE.receipts, [manifestHash]),
        pool.query<LineageRows['coils'][number]>(LINEAGE.coils, [manifestHash]),
      ]);
      return { receipts: receipts.rows, coils: coils.rows };
    },
    async close() {
      await pool.end();
    },
  };
}
