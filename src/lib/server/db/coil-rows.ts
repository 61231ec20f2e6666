/**
 * The Coil and receipt rows as the tables hold them (prisma/schema.prisma), for the two
 * driver stores of db/coil-row-store.ts.
 */
import { leafHashOf } from '../receipts/merkle';

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
}

/** A stored Coil and its receipt: written together, each once (INSERT ... ON CONFLICT DO NOTHING). */
export interface CoilWithReceiptRows {
  coil: CoilRow;
  receipt: ReceiptRow;
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
  ];
}

/**
 * The receipt log's new leaves of a batch (receipts/log.ts): one per distinct receipt content,
 * in the batch's order. A receipt stored under two owners is one row each but one leaf: the
 * leaf is the receipt's canonical JSON, which is what `receiptJson` holds.
 */
export function logLeavesOf(pairs: readonly CoilWithReceiptRows[]): { leafHash: string; receiptId: string; appendedAt: Date }[] {
  const leaves = new Map<string, { leafHash: string; receiptId: string; appendedAt: Date }>();
  for (const { receipt } of pairs) {
    const leafHash = leafHashOf(receipt.receiptJson);
    if (!leaves.has(leafHash)) leaves.set(leafHash, { leafHash, receiptId: receipt.receiptId, appendedAt: receipt.storedAt });
  }
  return [...leaves.values()];
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
