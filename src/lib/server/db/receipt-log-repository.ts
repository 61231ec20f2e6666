/**
 * The receipt logs and the published signing keys over the database (models `ReceiptLogEntry`,
 * the first log, closed; `TlogEntry`, the checkpointed log; `SigningKey`; receipts/log.ts,
 * receipts/tlog.ts, receipts/signature.ts). Entries are appended by the tool calls' own row
 * store in the receipt's transaction (db/coil-rows-sqlite.ts, db/coil-rows-postgres.ts); this
 * module only reads them, into a Merkle tree per log kept in memory (below). Keys are
 * registered (db/signing-key-repository.ts) and never deleted, so a receipt signed with a
 * retired key still verifies.
 */
import { leafHashOf, MerkleTree, type ReadonlyMerkleTree, type TiledMerkleTree } from '../receipts/merkle';
import { tlogLeafHash } from '../receipts/tlog';
import { keyStatusOf, type PublishedKey } from '../receipts/signature';
import { getDb, type Db } from './client';

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

/**
 * A log's entries as its table holds them: `rows(db, from, to, take)` reads the leaf hashes of
 * indexes [from, to) in order (to: no bound when undefined), by primary-key range. The first log
 * (`ReceiptLogEntry`, closed) stores leaf hashes; the checkpointed log (`TlogEntry`) its entries,
 * hashed as leaves here.
 */
export interface LogTable {
  readonly name: string;
  rows(db: Db, from: number, to: number | undefined, take?: number): Promise<{ index: number; leafHash: string }[]>;
}

/** svc-receipt-log-1.0.0, closed to new entries: it answers for the receipts already in it. */
export const JSON_LOG: LogTable = {
  name: 'ReceiptLogEntry',
  rows: (db, from, to, take) =>
    db.receiptLogEntry.findMany({
      where: { index: to === undefined ? { gte: from } : { gte: from, lt: to } },
      orderBy: { index: 'asc' },
      take,
      select: { index: true, leafHash: true },
    }),
};

/** The checkpointed log (receipts/tlog.ts): its entries are commitments, its leaves their RFC 6962 hashes. */
export const TLOG: LogTable = {
  name: 'TlogEntry',
  async rows(db, from, to, take) {
    const rows = await db.tlogEntry.findMany({
      where: { index: to === undefined ? { gte: from } : { gte: from, lt: to } },
      orderBy: { index: 'asc' },
      take,
      select: { index: true, entry: true },
    });
    return rows.map((r) => ({ index: r.index, leafHash: tlogLeafHash(Buffer.from(r.entry, 'hex')) }));
  },
};

/** Keyed by the client, so a database opened after closeDb() (tests) starts from an empty tree. */
const cachedLogs = new WeakMap<Db, Map<string, CachedLog>>();

/**
 * Rows per query of a catch-up: a first catch-up of a large log (after a start) lets other
 * requests run between its queries instead of holding the event loop for the whole log.
 */
export const CATCH_UP_ROWS = 2000;

/** A log's tree, with every entry committed before this call; read its `size` before the next await. */
export async function logTree(table: LogTable): Promise<MerkleTree> {
  const db = getDb();
  let logs = cachedLogs.get(db);
  if (!logs) cachedLogs.set(db, (logs = new Map()));
  let log = logs.get(table.name);
  if (!log) logs.set(table.name, (log = { tree: new MerkleTree() }));
  await caughtUp(db, table, log);
  return log.tree;
}

/** The first log's tree (closed: it no longer grows). */
export function receiptLogTree(): Promise<TiledMerkleTree> {
  return logTree(JSON_LOG);
}

/**
 * The tree, answering also from the complete tiles `tilesNeeded` names, read from the database;
 * use it before the next await. `tilesNeeded` is asked again after the reads: a catch-up that
 * ran meanwhile may have completed the tile the tree held, which the answer then needs read.
 */
export async function receiptLogWithTiles(
  tree: TiledMerkleTree,
  tilesNeeded: (tree: TiledMerkleTree) => readonly number[],
  table: LogTable = JSON_LOG,
): Promise<ReadonlyMerkleTree> {
  const db = getDb();
  const tiles = new Map<number, string[]>();
  for (;;) {
    const missing = tilesNeeded(tree).filter((tile) => !tiles.has(tile));
    if (missing.length === 0) return tree.withTiles(tiles);
    for (const tile of missing) tiles.set(tile, await tileLeaves(db, table, tile, tree.tileSize));
  }
}

/** The leaf hashes of a complete tile, in order: one query over the primary key's range. */
async function tileLeaves(db: Db, table: LogTable, tile: number, tileSize: number): Promise<string[]> {
  const from = tile * tileSize;
  const rows = await table.rows(db, from, from + tileSize);
  // The tree asks only for tiles it has seen complete: a tile that is not means the log's rows
  // changed under it.
  if (rows.length !== tileSize || rows.some((row, i) => row.index !== from + i))
    throw new Error(`receipt log tile ${tile} no longer holds ${tileSize} entries`);
  return rows.map((row) => row.leafHash);
}

function caughtUp(db: Db, table: LogTable, log: CachedLog): Promise<void> {
  if (!log.running) return startCatchUp(db, table, log);
  // The catch-up running may have read before the caller's entry was committed (the inclusion
  // route looks its entry up first): the caller waits for the next one. One catch-up at a time,
  // so no entry is appended twice.
  const afterRunning = () => {
    log.next = undefined;
    return log.running ?? startCatchUp(db, table, log);
  };
  log.next ??= log.running.then(afterRunning, afterRunning);
  return log.next;
}

function startCatchUp(db: Db, table: LogTable, log: CachedLog): Promise<void> {
  const running = catchUp(db, table, log.tree).finally(() => {
    log.running = undefined;
  });
  log.running = running;
  return running;
}

/**
 * Appends the entries from the tree's size on, while their indexes follow on from it: the log
 * is dense from 0, and an index not yet visible (a gap) ends the catch-up at it.
 */
async function catchUp(db: Db, table: LogTable, tree: MerkleTree): Promise<void> {
  for (;;) {
    const rows = await table.rows(db, tree.size, undefined, CATCH_UP_ROWS);
    for (const row of rows) {
      if (row.index !== tree.size) return;
      tree.append(row.leafHash);
    }
    if (rows.length < CATCH_UP_ROWS) return;
  }
}

/**
 * The first log's entry of a stored receipt row, found by the leaf hash of that row's own
 * bytes (`receiptJson`): never by receipt id, which two rows of different content share across
 * a release (a new compiler or registry version, the same id), so a lookup by id could prove
 * another row's leaf (issue 34 item 5). Null when that content was never in the first log.
 */
export async function receiptLogEntryOf(receiptJson: string): Promise<{ index: number; leafHash: string } | null> {
  return getDb().receiptLogEntry.findUnique({ where: { leafHash: leafHashOf(receiptJson) }, select: { index: true, leafHash: true } });
}

/** The checkpointed log's entry of a receipt row (by the row's id), with its salt; null when the row is not logged. */
export async function tlogEntryOfRow(
  receiptRowId: string,
): Promise<{ index: number; salt: string; entry: string; appendedAt: Date } | null> {
  return getDb().tlogEntry.findUnique({ where: { receiptRowId }, select: { index: true, salt: true, entry: true, appendedAt: true } });
}

/** The entries [from, to) of the checkpointed log, in order (an entry bundle, a level-0 tile). */
export async function tlogEntries(from: number, to: number): Promise<Buffer[]> {
  const rows = await getDb().tlogEntry.findMany({
    where: { index: { gte: from, lt: to } },
    orderBy: { index: 'asc' },
    select: { index: true, entry: true },
  });
  if (rows.length !== to - from || rows.some((row, i) => row.index !== from + i))
    throw new Error(`the log no longer holds entries ${from} to ${to}`);
  return rows.map((r) => Buffer.from(r.entry, 'hex'));
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

let keySetRead: { db: Db; at: number; keys: Promise<StoredSigningKey[]> } | undefined;

/** Drops the kept key set: the next check reads the table (after this process changed it). */
export function forgetKeySet(): void {
  keySetRead = undefined;
}

/** Every key the service has signed with, oldest first, as the database holds them now. */
export async function publishedSigningKeys(): Promise<StoredSigningKey[]> {
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
export async function signingKeysToCheck(keyId: string | null): Promise<StoredSigningKey[]> {
  const kept = keySetRead;
  if (kept && kept.db === getDb() && performance.now() - kept.at < KEY_SET_REUSE_MS) {
    const keys = await kept.keys.catch(() => undefined);
    if (keys && (keyId === null || keys.some((k) => k.kid === keyId))) return keys;
  }
  return publishedSigningKeys();
}

/** A key as the table holds it, with its status and revocation always said. */
export type StoredSigningKey = Required<PublishedKey>;

async function readSigningKeys(db: Db): Promise<StoredSigningKey[]> {
  const rows = await db.signingKey.findMany({
    orderBy: [{ validFrom: 'asc' }, { keyId: 'asc' }],
    select: { keyId: true, publicKey: true, validFrom: true, validUntil: true, revokedAt: true, revocationReason: true },
  });
  return rows.map((r) => {
    const validUntil = r.validUntil ? r.validUntil.toISOString() : null;
    const revokedAt = r.revokedAt ? r.revokedAt.toISOString() : null;
    return {
      kid: r.keyId,
      kty: 'OKP' as const,
      crv: 'Ed25519' as const,
      x: r.publicKey,
      alg: 'EdDSA' as const,
      use: 'sig' as const,
      validFrom: r.validFrom.toISOString(),
      validUntil,
      status: keyStatusOf({ validUntil, revokedAt }),
      revokedAt,
      revocationReason: r.revocationReason,
    };
  });
}
