/**
 * The Coil and receipt rows on PostgreSQL (db/coil-row-store.ts says why beside Prisma): a
 * small pg pool of this module's own. A batch is one statement, so one round trip and one
 * commit: the receipts' INSERT with the Coils' INSERT as a data-modifying WITH, which
 * PostgreSQL runs in the same transaction.
 */
import pg from 'pg';
import { postgresPoolConfig, type DatabaseTimeouts } from './postgres-pool';
import {
  COIL_COLUMNS,
  coilValues,
  quoted,
  RECEIPT_COLUMNS,
  receiptValues,
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

/** Connections of this pool (Prisma keeps its own): one batch runs at a time, reads beside it. */
const POOL_SIZE = 4;

/** `($1, $2, ...), ($n+1, ...)` for `rows` rows of `width` values, numbered from `first`. */
function valueRows(rows: number, width: number, first: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    const start = first + r * width;
    out.push(`(${Array.from({ length: width }, (_, i) => `$${start + i}`).join(', ')})`);
  }
  return out.join(', ');
}

/** Each row once: a batch may hold the same Coil twice, and one INSERT must not name a key twice. */
function distinctById<T extends { id: string }>(rows: T[]): T[] {
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}

export function insertStatement(pairs: CoilWithReceiptRows[]): { text: string; values: unknown[] } {
  const coils = distinctById(pairs.map((p) => p.coil));
  const receipts = distinctById(pairs.map((p) => p.receipt));
  const coilParams = coils.length * COIL_COLUMNS.length;
  const text =
    `WITH "storedCoils" AS (INSERT INTO "Coil" (${quoted(COIL_COLUMNS)}) VALUES ${valueRows(coils.length, COIL_COLUMNS.length, 1)} ` +
    `ON CONFLICT ("id") DO NOTHING) ` +
    `INSERT INTO "Receipt" (${quoted(RECEIPT_COLUMNS)}) VALUES ${valueRows(receipts.length, RECEIPT_COLUMNS.length, coilParams + 1)} ` +
    `ON CONFLICT ("id") DO NOTHING`;
  const values = [
    ...coils.flatMap((c) => coilValues(c, postgresTimestamp)),
    ...receipts.flatMap((r) => receiptValues(r, postgresTimestamp)),
  ];
  return { text, values };
}

export function openPostgresCoilRows(url: string, timeouts: DatabaseTimeouts): CoilRowStore {
  const pool = new pg.Pool({ ...postgresPoolConfig(url, timeouts), max: POOL_SIZE });
  // An idle connection the server drops is replaced on the next query; the error itself
  // would otherwise end the process.
  pool.on('error', () => undefined);
  return {
    async insert(pairs) {
      await pool.query(insertStatement(pairs));
    },
    async lineage(manifestHash) {
      const [receipts, coils] = await Promise.all([
        pool.query<LineageRows['receipts'][number]>(
          'SELECT "receiptId", "parentManifestHash", "coilSlug", "ownerAddress" FROM "Receipt" WHERE "manifestHash" = $1 ORDER BY "createdAt" ASC, "id" ASC',
          [manifestHash],
        ),
        pool.query<LineageRows['coils'][number]>(
          'SELECT "parentManifestHash", "slug", "ownerAddress" FROM "Coil" WHERE "manifestHash" = $1 ORDER BY "createdAt" ASC, "id" ASC',
          [manifestHash],
        ),
      ]);
      return { receipts: receipts.rows, coils: coils.rows };
    },
    async close() {
      await pool.end();
    },
  };
}
