/**
 * Stored Coils and receipts. Both are kept as canonical JSON text. The writes of every tool
 * call and the lineage reads go through db/coil-row-store.ts (the hot path, on a connection of
 * their own); the other reads through Prisma. Writes are idempotent:
 * a Coil is one row per (manifest hash, owner, coiling agent) and a receipt one row per
 * (receiptId, owner), so repeating a request (same `nowIso`) never duplicates anything.
 * Lineage, provenance and passports are read back from these rows, so they survive restarts
 * and work across instances that share a database.
 *
 * Every read is made as one viewer (`storedCoilsVisibleTo`): it sees the rows saved under no
 * wallet and its own wallet's, by the one rule of receipts/visibility.ts, and nothing else.
 */
import type { Coil } from '../coil/manifest';
import { canonicalJson, hashCanonical } from '../canonical';
import type { ServerTime } from '../clock';
import type { ForkParentStore } from '../receipts/lineage';
import type { LineageNode } from '../receipts/provenance';
import { MAX_LINEAGE_DEPTH } from '../receipts/provenance';
import type { PassportStats } from '../receipts/passport';
import type { Receipt } from '../receipts/receipt';
import { LEGACY_SIGNATURE, type LegacySignature, type ReceiptSignatureBlock } from '../receipts/signature';
import { mayRead, readableOwners, type StoredRowViewer } from '../receipts/visibility';
import { getDb } from './client';
import { readLineageRows, writeCoilWithReceipt } from './coil-row-store';

export interface SaveCoilInput {
  coil: Coil;
  manifestHash: string;
  ownerAddress: string | null;
  /** The strategist that coiled it (`mock`, `partner`), or null for a caller-supplied Coil. */
  agentId: string | null;
  score: number | null;
  /** When the row is stored: the server's clock, never a caller's `nowIso`. */
  storedAt: ServerTime;
  /** Someone asked to keep the receipt: its row is appended to the checkpointed log (docs/trust-model.md#what-is-logged). */
  logged: boolean;
}

export function coilRowId(manifestHash: string, ownerAddress: string | null, agentId: string | null): string {
  return hashCanonical(['coil', manifestHash, ownerAddress, agentId]);
}

export function receiptRowId(receiptId: string, ownerAddress: string | null): string {
  return hashCanonical(['receipt', receiptId, ownerAddress]);
}

/** A stored receipt as reads serve it: with the signature stored with its row, or the legacy mark (docs/trust-model.md#legacy-receipts). */
export type StoredReceipt = Receipt & { signature: ReceiptSignatureBlock | LegacySignature };

/** A stored row's receipt with its stored signature (rows from before signing at issuance: `{ status: "legacy" }`). */
export function storedReceiptOf(row: { receiptJson: string; signatureJson: string | null }): StoredReceipt {
  const receipt = JSON.parse(row.receiptJson) as Receipt;
  return { ...receipt, signature: row.signatureJson ? (JSON.parse(row.signatureJson) as ReceiptSignatureBlock) : LEGACY_SIGNATURE };
}

/** Saves a Coil and its receipt together (the common case of every tool): resolves once both are committed. */
export async function saveCoilWithReceipt(
  input: SaveCoilInput & { receipt: Receipt & { signature: ReceiptSignatureBlock } },
): Promise<void> {
  const { coil, ownerAddress, storedAt } = input;
  const { signature, ...receipt } = input.receipt;
  await writeCoilWithReceipt({
    logged: input.logged,
    coil: {
      id: coilRowId(input.manifestHash, ownerAddress, input.agentId),
      slug: coil.slug,
      manifestHash: input.manifestHash,
      parentManifestHash: coil.parentManifestHash ?? null,
      forkOf: coil.forkOf ?? null,
      ownerAddress,
      agentId: input.agentId,
      manifestJson: canonicalJson(coil),
      score: input.score,
      createdAt: storedAt,
    },
    receipt: {
      id: receiptRowId(receipt.receiptId, ownerAddress),
      receiptId: receipt.receiptId,
      kind: receipt.kind,
      manifestHash: receipt.manifestHash,
      parentManifestHash: receipt.parentManifestHash ?? null,
      weightsChecksum: receipt.weightsChecksum,
      validationStatus: receipt.validationStatus,
      coilSlug: receipt.coilSlug,
      ownerAddress,
      receiptJson: canonicalJson(receipt),
      // The same instant in both columns (every row's, since the migration that added storedAt
      // copied createdAt): storedAt is redundant, but dropping it, or moving its (coilSlug,
      // storedAt) index to createdAt, needs a schema migration, so both stay.
      createdAt: storedAt,
      storedAt,
      signatureJson: canonicalJson(signature),
      signedAt: new Date(signature.signedAt),
    },
  });
}

/** The rule of receipts/visibility.ts as a Prisma filter on a Coil or receipt row. */
function visibleTo(viewer: StoredRowViewer) {
  return { OR: readableOwners(viewer).map((ownerAddress) => ({ ownerAddress })) };
}

/** The stored Coils and receipts as one viewer may read them; a row it may not read does not exist for it. */
/** A stored receipt row as the log routes read it: its id (the checkpointed log's key) and its own bytes. */
export interface StoredReceiptRow {
  id: string;
  ownerAddress: string | null;
  /** The receipt's canonical JSON without its signature: the bytes a log entry commits to. */
  receiptJson: string;
}

export interface StoredCoils {
  receipt(receiptId: string): Promise<StoredReceipt | undefined>;
  /** The rows of a receipt id the viewer may read: its own wallet's first, then the public one. */
  receiptRows(receiptId: string): Promise<StoredReceiptRow[]>;
  /** The Coil as first stored under this manifest hash, of the rows the viewer may read. */
  coil(manifestHash: string): Promise<Coil | undefined>;
  /** The strategists (`mock`, `partner`) that coiled a stored manifest, oldest first; empty for caller-supplied Coils. */
  coilingStrategists(manifestHash: string): Promise<string[]>;
  /** The stored ancestors of a manifest, ready for `renderProvenance`. */
  lineage(manifestHash: string): Promise<Map<string, LineageNode>>;
  /** The stored receipts a fork's parent is resolved from. */
  forkParents: ForkParentStore;
  /** Counts for a passport. `agent` is a strategist id (`mock`, `partner`) or a wallet address. */
  passportStats(agent: { kind: 'strategist' | 'wallet'; id: string }): Promise<PassportStats>;
}

export function storedCoilsVisibleTo(viewer: StoredRowViewer): StoredCoils {
  const visible = visibleTo(viewer);
  return {
    async receipt(receiptId) {
      const row = await getDb().receipt.findFirst({ where: { receiptId, ...visible }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return row ? storedReceiptOf(row) : undefined;
    },
    async receiptRows(receiptId) {
      const rows = await getDb().receipt.findMany({
        where: { receiptId, ...visible },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { id: true, ownerAddress: true, receiptJson: true },
      });
      return [...rows.filter((r) => r.ownerAddress !== null), ...rows.filter((r) => r.ownerAddress === null)];
    },
    async coil(manifestHash) {
      const row = await getDb().coil.findFirst({ where: { manifestHash, ...visible }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return row ? (JSON.parse(row.manifestJson) as Coil) : undefined;
    },
    async coilingStrategists(manifestHash) {
      const rows = await getDb().coil.findMany({
        where: { manifestHash, agentId: { not: null }, ...visible },
        select: { agentId: true },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return [...new Set(rows.map((r) => r.agentId!))];
    },
    lineage: (manifestHash) => loadLineage(manifestHash, viewer),
    forkParents: {
      async latestManifestHash(slug) {
        const row = await getDb().receipt.findFirst({
          where: { coilSlug: slug, ...visible },
          orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
          select: { manifestHash: true },
        });
        return row?.manifestHash;
      },
      async hasManifest(slug, manifestHash) {
        const row = await getDb().receipt.findFirst({ where: { coilSlug: slug, manifestHash, ...visible }, select: { id: true } });
        return row !== null;
      },
    },
    passportStats: (agent) => passportStats(agent, visible),
  };
}

/** The stored lineage node of one manifest, from its receipts (and Coil rows as a second source) the viewer may read. */
async function lineageNode(manifestHash: string, viewer: StoredRowViewer): Promise<LineageNode | undefined> {
  const rows = await readLineageRows(manifestHash);
  const receipts = rows.receipts.filter((r) => mayRead(r.ownerAddress, viewer));
  const coil = rows.coils.find((c) => mayRead(c.ownerAddress, viewer));
  if (receipts.length === 0 && !coil) return undefined;
  const parent = receipts.find((r) => r.parentManifestHash)?.parentManifestHash ?? coil?.parentManifestHash ?? null;
  return {
    manifestHash,
    parentManifestHash: parent,
    slug: receipts[0]?.coilSlug ?? coil?.slug ?? null,
    receiptIds: [...new Set(receipts.map((r) => r.receiptId))],
  };
}

async function loadLineage(manifestHash: string, viewer: StoredRowViewer): Promise<Map<string, LineageNode>> {
  const nodes = new Map<string, LineageNode>();
  let current: string | null = manifestHash;
  for (let depth = 0; current && depth < MAX_LINEAGE_DEPTH && !nodes.has(current); depth++) {
    const node = await lineageNode(current, viewer);
    if (!node) break;
    nodes.set(current, node);
    current = node.parentManifestHash;
  }
  return nodes;
}

async function passportStats(
  agent: { kind: 'strategist' | 'wallet'; id: string },
  visible: ReturnType<typeof visibleTo>,
): Promise<PassportStats> {
  const db = getDb();
  const coils = await db.coil.findMany({
    where: { ...(agent.kind === 'strategist' ? { agentId: agent.id } : { ownerAddress: agent.id }), ...visible },
    select: { manifestHash: true, score: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const scoreByManifest = new Map<string, number | null>();
  for (const c of coils)
    if (!scoreByManifest.has(c.manifestHash) || scoreByManifest.get(c.manifestHash) === null) scoreByManifest.set(c.manifestHash, c.score);
  const manifests = [...scoreByManifest.keys()];
  if (manifests.length === 0) return { manifestsCoiled: 0, forksReceived: 0, averageScore: null, receipts: 0 };

  const [forkCoils, forkReceipts, receipts] = await Promise.all([
    db.coil.findMany({
      where: { parentManifestHash: { in: manifests }, ...visible },
      select: { manifestHash: true, parentManifestHash: true },
    }),
    db.receipt.findMany({
      where: { parentManifestHash: { in: manifests }, ...visible },
      select: { manifestHash: true, parentManifestHash: true },
    }),
    db.receipt.findMany({
      where: { ...(agent.kind === 'strategist' ? { manifestHash: { in: manifests } } : { ownerAddress: agent.id }), ...visible },
      select: { receiptId: true },
    }),
  ]);
  const forks = new Set([...forkCoils, ...forkReceipts].filter((f) => f.manifestHash !== f.parentManifestHash).map((f) => f.manifestHash));
  const scores = [...scoreByManifest.values()].filter((s): s is number => typeof s === 'number');
  return {
    manifestsCoiled: manifests.length,
    forksReceived: forks.size,
    averageScore: scores.length ? Math.round((scores.reduce((s, x) => s + x, 0) / scores.length) * 100) / 100 : null,
    receipts: new Set(receipts.map((r) => r.receiptId)).size,
  };
}
