/**
 * The caller's own Coils and receipts: rows of the `Coil` and `Receipt` tables whose
 * `ownerAddress` is the signed-in wallet. Every query filters by owner; there is no path
 * here that reads a row without that filter.
 */
import { afterCursor, toPage, type Page, type PageCursor } from './page-cursor';
import type { Coil as CoilRow, Receipt as ReceiptRow } from '$generated/prisma-sqlite/client';
import { getDb } from './client';
import { storedReceiptOf } from './coil-repository';
import type { CoilRow as StoredCoilRow, ReceiptRow as StoredReceiptRow } from './coil-rows';

/** A saved Coil as its owner reads it: its columns, its manifest parsed and its name read from it. */
export type OwnedCoil = Pick<StoredCoilRow, 'id' | 'slug' | 'manifestHash' | 'parentManifestHash' | 'forkOf' | 'score'> & {
  name: string | null;
  createdAt: string;
  manifest: Record<string, unknown>;
};

/** A saved receipt as its owner reads it: its columns and the receipt document parsed. */
export type OwnedReceipt = Omit<
  StoredReceiptRow,
  'ownerAddress' | 'receiptJson' | 'createdAt' | 'storedAt' | 'signatureJson' | 'signedAt'
> & {
  createdAt: string;
  receipt: Record<string, unknown>;
};

function parseDocument(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

function toOwnedCoil(row: CoilRow): OwnedCoil {
  const manifest = parseDocument(row.manifestJson);
  return {
    id: row.id,
    slug: row.slug,
    name: typeof manifest.name === 'string' ? manifest.name : null,
    manifestHash: row.manifestHash,
    parentManifestHash: row.parentManifestHash,
    forkOf: row.forkOf,
    score: row.score,
    createdAt: row.createdAt.toISOString(),
    manifest,
  };
}

function toOwnedReceipt(row: ReceiptRow): OwnedReceipt {
  return {
    id: row.id,
    receiptId: row.receiptId,
    kind: row.kind,
    manifestHash: row.manifestHash,
    parentManifestHash: row.parentManifestHash,
    weightsChecksum: row.weightsChecksum,
    validationStatus: row.validationStatus,
    coilSlug: row.coilSlug,
    createdAt: row.createdAt.toISOString(),
    receipt: storedReceiptOf(row) as unknown as Record<string, unknown>,
  };
}

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/**
 * One row per Coil (manifest hash): a Coil is stored once per (owner, coiling agent), so the
 * strategist's save and a later receipt of the same Coil (agent none) are two rows; the list
 * shows the newest. A row is kept when no newer row of this owner has its manifest hash, which
 * holds page after page, so a cursor never brings an older save of a Coil already listed.
 */
export async function listOwnedCoils(owner: string, page: { cursor?: PageCursor; limit: number }): Promise<Page<OwnedCoil>> {
  const kept: CoilRow[] = [];
  let cursor = page.cursor;
  for (;;) {
    const rows = await getDb().coil.findMany({
      where: { ownerAddress: owner, ...afterCursor(cursor) },
      orderBy: NEWEST_FIRST,
      take: page.limit + 1,
    });
    if (rows.length === 0) break;
    const newest = await newestRowIds(owner, [...new Set(rows.map((r) => r.manifestHash))]);
    for (const row of rows) if (newest.has(row.id) && kept.length <= page.limit) kept.push(row);
    if (kept.length > page.limit || rows.length <= page.limit) break;
    const last = rows.at(-1)!;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
  return toPage(kept, page.limit, toOwnedCoil);
}

/** The id of the newest row of each of these manifest hashes among the owner's rows. */
async function newestRowIds(owner: string, manifestHashes: string[]): Promise<Set<string>> {
  const rows = await getDb().coil.findMany({
    where: { ownerAddress: owner, manifestHash: { in: manifestHashes } },
    orderBy: NEWEST_FIRST,
    select: { id: true, manifestHash: true },
  });
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.manifestHash)) continue;
    seen.add(row.manifestHash);
    ids.add(row.id);
  }
  return ids;
}

/** The newest save of `slug` by `owner`, or null (also when another wallet owns that slug). */
export async function findOwnedCoil(owner: string, slug: string): Promise<OwnedCoil | null> {
  const row = await getDb().coil.findFirst({ where: { ownerAddress: owner, slug }, orderBy: NEWEST_FIRST });
  return row ? toOwnedCoil(row) : null;
}

export async function listOwnedReceipts(
  owner: string,
  page: { cursor?: PageCursor; limit: number; coilSlug?: string },
): Promise<Page<OwnedReceipt>> {
  const rows = await getDb().receipt.findMany({
    where: { ownerAddress: owner, ...(page.coilSlug !== undefined ? { coilSlug: page.coilSlug } : {}), ...afterCursor(page.cursor) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
  return toPage(rows, page.limit, toOwnedReceipt);
}
