/**
 * The Coil and receipt rows as the tables hold them (prisma/schema.prisma), for the two
 * driver stores of db/coil-row-store.ts.
 */
import { randomBytes } from 'node:crypto';
import { TLOG_SALT_BYTES, tlogEntryOf } from '../receipts/tlog';

export interface CoilRow {
  id: string;
  slug: string;
  manifestHash: string;
  parentManifestHash: string | null;
  forkOf: string | null;
  ownerAddress: string | null;
  agentId: string | null;
  manifestJson: string;
  score: number | null;
  createdAt: Date;
}

export interface ReceiptRow {
  id: string;
  receiptId: string;
  kind: string;
  manifestHash: string;
  parentManifestHash: string | null;
  weightsChecksum: string;
  validationStatus: string;
  coilSlug: string;
  ownerAddress: string | null;
  receiptJson: string;
  createdAt: Date;
  storedAt: Date;
  /** The signature block the receipt was signed with at issuance, JSON (issue 36 item 3). */
  signatureJson: string;
  signedAt: Date;
}

/** A stored Coil and its receipt: written together, each once (INSERT ... ON CONFLICT DO NOTHING). */
export interface CoilWithReceiptRows {
  coil: CoilRow;
  receipt: ReceiptRow;
  /** Someone asked to keep this receipt: its row gets an entry of the checkpointed log (receipts/tlog.ts). */
  logged: boolean;
}

/**
 * What the lineage of one manifest is read from, oldest rows first, each with its owner: the
 * reader keeps the rows its viewer may read (receipts/visibility.ts).
 */
export interface LineageRows {
  receipts: { receiptId: string; parentManifestHash: string | null; coilSlug: string; ownerAddress: string | null }[];
  coils: { parentManifestHash: string | null; slug: string; ownerAddress: string | null }[];
}

export interface CoilRowStore {
  /** Stores every pair in one transaction; a pair already stored is left as it is. */
  insert(pairs: CoilWithReceiptRows[]): Promise<void>;
  lineage(manifestHash: string): Promise<LineageRows>;
  close(): Promise<void>;
}

/** The columns of each table, in the order of the rows' values below. */
export const COIL_COLUMNS = [
  'id',
  'slug',
  'manifestHash',
  'parentManifestHash',
  'forkOf',
  'ownerAddress',
  'agentId',
  'manifestJson',
  'score',
  'createdAt',
] as const;
export const RECEIPT_COLUMNS = [
  'id',
  'receiptId',
  'kind',
  'manifestHash',
  'parentManifestHash',
  'weightsChecksum',
  'validationStatus',
  'coilSlug',
  'ownerAddress',
  'receiptJson',
  'createdAt',
  'storedAt',
  'signatureJson',
  'signedAt',
] as const;

/** A row's values in column order, with its timestamps written the way the database's Prisma adapter writes them. */
export function coilValues(row: CoilRow, timestamp: (date: Date) => string): unknown[] {
  return [
    row.id,
    row.slug,
    row.manifestHash,
    row.parentManifestHash,
    row.forkOf,
    row.ownerAddress,
    row.agentId,
    row.manifestJson,
    row.score,
    timestamp(row.createdAt),
  ];
}

export function receiptValues(row: ReceiptRow, timestamp: (date: Date) => string): unknown[] {
  return [
    row.id,
    row.receiptId,
    row.kind,
    row.manifestHash,
    row.parentManifestHash,
    row.weightsChecksum,
    row.validationStatus,
    row.coilSlug,
    row.ownerAddress,
    row.receiptJson,
    timestamp(row.createdAt),
    timestamp(row.storedAt),
    row.signatureJson,
    timestamp(row.signedAt),
  ];
}

/** A new entry of the checkpointed log: a commitment to one receipt row, with that row's salt. */
export interface TlogEntryRow {
  receiptRowId: string;
  receiptId: string;
  /** hex, 32 bytes */
  salt: string;
  /** hex, 32 bytes: SHA-256(salt || receiptJson) */
  entry: string;
  appendedAt: Date;
}

/**
 * The checkpointed log's candidate entries of a batch (receipts/tlog.ts): one per logged receipt
 * row, in the batch's order, each with a fresh random salt. A row that already has an entry
 * keeps it (the statements append only when none exists), so a repeated request logs once.
 * `receiptJson` is the receipt's canonical JSON without its signature: the bytes an entry commits to.
 */
export function tlogEntriesOf(pairs: readonly CoilWithReceiptRows[]): TlogEntryRow[] {
  const entries = new Map<string, TlogEntryRow>();
  for (const { receipt, logged } of pairs) {
    if (!logged || entries.has(receipt.id)) continue;
    const salt = randomBytes(TLOG_SALT_BYTES);
    entries.set(receipt.id, {
      receiptRowId: receipt.id,
      receiptId: receipt.receiptId,
      salt: salt.toString('hex'),
      entry: tlogEntryOf(receipt.receiptJson, salt).toString('hex'),
      appendedAt: receipt.storedAt,
    });
  }
  return [...entries.values()];
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

const COLUMNS_OF = { Coil: COIL_COLUMNS, Receipt: RECEIPT_COLUMNS } as const;

/**
 * The INSERT of `rows` rows of `table`: `(p, p, ...), (...)` in column order, where the value at
 * 0-based position `i` of the statement's values is `placeholder(i)` (the driver's `$n` or `?`)
 * and this table's values start at position `first`. A row already stored is left as it is.
 */
export function insertInto(table: keyof typeof COLUMNS_OF, rows: number, placeholder: (position: number) => string, first = 0): string {
  const columns = COLUMNS_OF[table];
  const values = Array.from(
    { length: rows },
    (_, r) => `(${columns.map((_, c) => placeholder(first + r * columns.length + c)).join(', ')})`,
  ).join(', ');
  return `INSERT INTO "${table}" (${quoted(columns)}) VALUES ${values} ON CONFLICT ("id") DO NOTHING`;
}

/** The two reads of a lineage (`LineageRows`), oldest first, with the driver's placeholder for the manifest hash. */
export function lineageQueries(placeholder: string): { receipts: string; coils: string } {
  return {
    receipts: `SELECT "receiptId", "parentManifestHash", "coilSlug", "ownerAddress" FROM "Receipt" WHERE "manifestHash" = ${placeholder} ORDER BY "createdAt" ASC, "id" ASC`,
    coils: `SELECT "parentManifestHash", "slug", "ownerAddress" FROM "Coil" WHERE "manifestHash" = ${placeholder} ORDER BY "createdAt" ASC, "id" ASC`,
  };
}
