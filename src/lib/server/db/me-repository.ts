/**
 * The caller's own Coils and receipts: rows of the `Coil` and `Receipt` tables whose
 * `ownerAddress` is the signed-in wallet. Every query filters by owner; there is no path
 * here that reads a row without that filter.
 */
import { afterCursor, toPage, type Page, type PageCursor } from './page-cursor';
import type { Coil as CoilRow, Receipt as ReceiptRow } from '$generated/prisma-sqlite/client';
import { getDb } from './client';

export interface OwnedCoil {
  id: string;
  slug: string;
  name: string | null;
  manifestHash: string;
  parentManifestHash: string | null;
  forkOf: string | null;
  score: number | null;
  createdAt: string;
  manifest: Record<string, unknown>;
}

export interface OwnedReceipt {
  id: string;
  receiptId: string;
  kind: string;
  manifestHash: string;
  parentManifestHash: string | null;
  weightsChecksum: string;
  validationStatus: string;
  coilSlug: string;
  createdAt: string;
  receipt: Record<string, unknown>;
}

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
    receipt: parseDocument(row.receiptJson),
  };
}

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

export async function listOwnedCoils(owner: string, page: { cursor?: PageCursor; limit: number }): Promise<Page<OwnedCoil>> {
  const rows = await getDb().coil.findMany({
    where: { ownerAddress: owner, ...afterCursor(page.cursor) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
  return toPage(rows, page.limit, toOwnedCoil);
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
