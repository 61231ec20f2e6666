/**
 * The receipt log and the published signing keys over the database (models `ReceiptLogEntry`
 * and `SigningKey`, receipts/log.ts, receipts/signature.ts). Leaves are appended by the tool
 * calls' own row store in the receipt's transaction (db/coil-rows-sqlite.ts,
 * db/coil-rows-postgres.ts); this module only reads them, into a Merkle tree kept in memory
 * (below). Keys are registered once and never deleted, so a receipt signed with a retired key
 * still verifies.
 */
import type { ServerTime } from '../clock';
import { leafHashOf, MerkleTree, type ReadonlyMerkleTree, type TiledMerkleTree } from '../receipts/merkle';
import { publishedKey, type PublishedKey, type Signer } from '../receipts/signature';
import { getDb, type Db } from './client';
import { isUniqueViolation } from './unique-violation';

/**
 * The log's Merkle tree is kept in memory, one per database client, and brought up to date on
 * each use by reading only the entries appended since (issue 27): reading every leaf hash and
 * hashing them again on each head or proof stopped the event loop for longer as the log grew.
 *
 * This trusts the log to be append-only: an entry, once read, is never changed or removed (the
 * entries are only ever inserted, at the next index, in the receipt's own transaction), so the
 * cached tree is not checked against the rows again. A row rewritten under a running instance
 * is not seen by it until it restarts.
 *
 * The tree holds only the hashes of complete tiles of 256 leaves and above, and the leaves of
 * the last tile (receipts/merkle.ts): a few hundred kilobytes for ten million entries, where
 * every leaf and node cost about 64 bytes an entry for the life of the process. An answer that
 * needs a subtree inside an older tile (the proof of an old receipt, the head of an older size)
 * reads that tile's leaves by primary-key range, 256 rows (receiptLogWithTiles).
 */
interface CachedLog {
  readonly tree: MerkleTree;
  /** The catch-up reading now. */
  running?: Promise<void>;
  /** The catch-up that starts after it, shared by every caller that came while it ran. */
  next?: Promise<void>;
}

/** Keyed by the client, so a database opened after closeDb() (tests) starts from an empty tree. */
const cachedLogs = new WeakMap<Db, CachedLog>();

/**
 * Rows per query of a catch-up: a first catch-up of a large log (after a start) lets other
 * requests run between its queries instead of holding the event loop for the whole log.
 */
export const CATCH_UP_ROWS = 2000;

/** The log's tree, with every entry committed before this call; read its `size` before the next await. */
export async function receiptLogTree(): Promise<TiledMerkleTree> {
  const db = getDb();
  let log = cachedLogs.get(db);
  if (!log) cachedLogs.set(db, (log = { tree: new MerkleTree() }));
  await caughtUp(db, log);
  return log.tree;
}

/**
 * The tree, answering also from the complete tiles `tilesNeeded` names, read from the database;
 * use it before the next await. `tilesNeeded` is asked again after the reads: a catch-up that
 * ran meanwhile may have completed the tile the tree held, which the answer then needs read.
 */
export async function receiptLogWithTiles(
  tree: TiledMerkleTree,
  tilesNeeded: (tree: TiledMerkleTree) => readonly number[],
): Promise<ReadonlyMerkleTree> {
  const db = getDb();
  const tiles = new Map<number, string[]>();
  for (;;) {
    const missing = tilesNeeded(tree).filter((tile) => !tiles.has(tile));
    if (missing.length === 0) return tree.withTiles(tiles);
    for (const tile of missing) tiles.set(tile, await tileLeaves(db, tile, tree.tileSize));
  }
}

/** The leaf hashes of a complete tile, in order: one query over the primary key's range. */
async function tileLeaves(db: Db, tile: number, tileSize: number): Promise<string[]> {
  const from = tile * tileSize;
  const rows = await db.receiptLogEntry.findMany({
    where: { index: { gte: from, lt: from + tileSize } },
    orderBy: { index: 'asc' },
    select: { index: true, leafHash: true },
  });
  // The tree asks only for tiles it has seen complete: a tile that is not means the log's rows
  // changed under it.
  if (rows.length !== tileSize || rows.some((row, i) => row.index !== from + i))
    throw new Error(`receipt log tile ${tile} no longer holds ${tileSize} entries`);
  return rows.map((row) => row.leafHash);
}

function caughtUp(db: Db, log: CachedLog): Promise<void> {
  if (!log.running) return startCatchUp(db, log);
  // The catch-up running may have read before the caller's entry was committed (the inclusion
  // route looks its entry up first): the caller waits for the next one. One catch-up at a time,
  // so no entry is appended twice.
  const afterRunning = () => {
    log.next = undefined;
    return log.running ?? startCatchUp(db, log);
  };
  log.next ??= log.running.then(afterRunning, afterRunning);
  return log.next;
}

function startCatchUp(db: Db, log: CachedLog): Promise<void> {
  const running = catchUp(db, log.tree).finally(() => {
    log.running = undefined;
  });
  log.running = running;
  return running;
}

/**
 * Appends the entries from the tree's size on, while their indexes follow on from it: the log
 * is dense from 0, and an index not yet visible (a gap) ends the catch-up at it.
 */
async function catchUp(db: Db, tree: MerkleTree): Promise<void> {
  for (;;) {
    const rows = await db.receiptLogEntry.findMany({
      where: { index: { gte: tree.size } },
      orderBy: { index: 'asc' },
      take: CATCH_UP_ROWS,
      select: { index: true, leafHash: true },
    });
    for (const row of rows) {
      if (row.index !== tree.size) return;
      tree.append(row.leafHash);
    }
    if (rows.length < CATCH_UP_ROWS) return;
  }
}

/**
 * The first log entry of a receipt id, or null when the receipt was never logged. Found by leaf
 * hash, which the stored receipt gives: the log keeps no index by receipt id, one B-tree write
 * less per stored call (migration 20261127100000_fewer_index_writes_per_call).
 */
export async function receiptLogEntryOf(receiptId: string): Promise<{ index: number; leafHash: string } | null> {
  const db = getDb();
  const stored = await db.receipt.findMany({ where: { receiptId }, select: { receiptJson: true } });
  if (stored.length === 0) return null;
  const leafHashes = [...new Set(stored.map((r) => leafHashOf(r.receiptJson)))];
  return db.receiptLogEntry.findFirst({
    where: { leafHash: { in: leafHashes } },
    orderBy: { index: 'asc' },
    select: { index: true, leafHash: true },
  });
}

/**
 * How long a read key set serves the signature checks of later calls. Reading it costs a
 * Prisma query per verification (about a fifth of `POST /api/coil/verify`'s CPU in a profile of
 * issue 27's bench) for a table that only grows by a key at a rotation. A check never misses a
 * key because of it: a key id the kept set lacks is read again (another instance registered
 * it). Only a rotation by another instance, which closes the periods of the open keys, shows
 * in the `validUntil` a check echoes up to this much later.
 */
const KEY_SET_REUSE_MS = 1_000;

let keySetRead: { db: Db; at: number; keys: Promise<PublishedKey[]> } | undefined;

let registered: Promise<void> | undefined;
let registeredKeyId: string | undefined;

/**
 * Publishes the signer's public key, once per process: its `validFrom` is this server's clock
 * at the first registration anywhere. A key registered for the first time closes the period of
 * every key still open (rotation: docs/trust-model.md#rotation).
 */
export function registerSigningKey(signer: Signer, at: ServerTime): Promise<void> {
  if (registered && registeredKeyId === signer.keyId) return registered;
  registeredKeyId = signer.keyId;
  registered = (async () => {
    const db = getDb();
    if (await db.signingKey.findUnique({ where: { keyId: signer.keyId } })) return;
    const key = publishedKey(signer.publicKey, at.toISOString(), null);
    try {
      await db.$transaction([
        db.signingKey.updateMany({ where: { validUntil: null }, data: { validUntil: at } }),
        db.signingKey.create({ data: { keyId: key.kid, algorithm: 'Ed25519', publicKey: key.x, validFrom: at } }),
      ]);
    } catch (error) {
      // Another instance with the same key registered it first.
      if (!isUniqueViolation(error)) throw error;
    }
    keySetRead = undefined;
  })().catch((error: unknown) => {
    registered = undefined;
    throw error;
  });
  return registered;
}

/** Every key the service has signed with, oldest first, as the database holds them now. */
export async function publishedSigningKeys(): Promise<PublishedKey[]> {
  const db = getDb();
  const read = { db, at: performance.now(), keys: readSigningKeys(db) };
  keySetRead = read;
  read.keys.catch(() => {
    if (keySetRead === read) keySetRead = undefined;
  });
  return read.keys;
}

/**
 * The key set a signature by `keyId` is checked against: the set read within the last
 * `KEY_SET_REUSE_MS` from this database when it holds `keyId` (or no key id is named), else
 * the database's set now.
 */
export async function signingKeysToCheck(keyId: string | null): Promise<PublishedKey[]> {
  const kept = keySetRead;
  if (kept && kept.db === getDb() && performance.now() - kept.at < KEY_SET_REUSE_MS) {
    const keys = await kept.keys.catch(() => undefined);
    if (keys && (keyId === null || keys.some((k) => k.kid === keyId))) return keys;
  }
  return publishedSigningKeys();
}

async function readSigningKeys(db: Db): Promise<PublishedKey[]> {
  const rows = await db.signingKey.findMany({ orderBy: [{ validFrom: 'asc' }, { keyId: 'asc' }] });
  return rows.map((r) => ({
    kid: r.keyId,
    kty: 'OKP' as const,
    crv: 'Ed25519' as const,
    x: r.publicKey,
    alg: 'EdDSA' as const,
    use: 'sig' as const,
    validFrom: r.validFrom.toISOString(),
    validUntil: r.validUntil ? r.validUntil.toISOString() : null,
  }));
}
