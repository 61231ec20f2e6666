/**
 * The checkpointed receipt log's answers (issue 36, docs/trust-model.md#the-checkpointed-log):
 * its signed checkpoint, its tiles and entry bundles, and the proof file of a receipt row the
 * caller may read. Not procedures: they answer text and bytes in the C2SP formats, so the REST
 * front serves them as routes of their own (http/extra-routes.ts); this module is their logic.
 *
 * Checkpoints: the newest one this process signed is kept and served until the log has grown
 * and it is `checkpointIntervalSeconds` old (or a proof needs a larger tree), so a monitor
 * sees a new checkpoint at least that often while the log grows; a timer started at boot
 * (`keepCheckpointing`) signs one on that schedule even when nobody asks. Ed25519 is
 * deterministic and the checkpoint's time is whole seconds, so two instances that sign the same
 * size in the same second write the same bytes.
 */
import type { ServiceConfig } from '../../config';
import { readServerClock } from '../../clock';
import { logTree, receiptLogEntryOf, receiptLogWithTiles, TLOG, tlogEntries, tlogEntryOfRow } from '../../db/receipt-log-repository';
import { SvcError } from '../../errors';
import { logger } from '../../logger';
import { tilesOfHead, tilesOfInclusionAnswer } from '../../receipts/log';
import { NOT_LOGGED_MESSAGE } from '../../receipts/log-policy';
import type { Signer } from '../../receipts/signature';
import {
  entryBundle,
  formatTlogProof,
  noteVerifierKey,
  parseTilePath,
  signCheckpoint,
  TILE_WIDTH,
  tlogLeafHash,
} from '../../receipts/tlog';
import { readySigner } from '../../signing-key';
import type { RequestContext } from '../context';
import { receiptNotFound, receiptNotLogged } from '../routers/receipt-log/meta';
import { storedCoilsOf } from './coil-store';

export interface Checkpoint {
  origin: string;
  keyId: string;
  treeSize: number;
  /** The signed note, verbatim. */
  note: string;
  signedAt: Date;
}

let latest: Checkpoint | undefined;

/** The note verifier key of the log with this key (GET /api/receipts/keys, docs). */
export function checkpointVerifierKey(cfg: ServiceConfig, signer: Signer): string {
  return noteVerifierKey(cfg.receiptLog.origin, signer.publicKey);
}

/**
 * The log's current checkpoint: the kept one while it is fresh (the log has not grown, or it is
 * younger than the interval and covers index `cover`), else a new one of the current size.
 */
export async function currentCheckpoint(cfg: ServiceConfig, signer: Signer, now: Date, cover = -1): Promise<Checkpoint> {
  const origin = cfg.receiptLog.origin;
  const tree = await logTree(TLOG);
  const size = tree.size;
  const kept = latest;
  if (kept && kept.origin === origin && kept.keyId === signer.keyId && kept.treeSize > cover) {
    const young = now.getTime() - kept.signedAt.getTime() < cfg.receiptLog.checkpointIntervalSeconds * 1000;
    if (kept.treeSize >= size || young) return kept;
  }
  const answering = await receiptLogWithTiles(tree, (t) => tilesOfHead(t, size), TLOG);
  const checkpoint = {
    origin,
    keyId: signer.keyId,
    treeSize: size,
    note: signCheckpoint(origin, size, answering.root(size), signer, now),
    signedAt: now,
  };
  // Concurrent calls may finish out of order: the kept checkpoint never goes back.
  if (!latest || latest.origin !== origin || latest.keyId !== signer.keyId || latest.treeSize <= size) latest = checkpoint;
  return checkpoint;
}

/** Signs a checkpoint every interval while the log grows, without a request asking (started once at boot). */
export function keepCheckpointing(cfg: ServiceConfig): void {
  const everyMs = Math.max(1, cfg.receiptLog.checkpointIntervalSeconds) * 1000;
  const timer = setInterval(() => {
    const now = readServerClock();
    readySigner(cfg, now)
      .then((signer) => currentCheckpoint(cfg, signer, now))
      .catch((error: unknown) =>
        logger.warn({ event: 'checkpoint_failed', name: (error as Error)?.name }, 'a checkpoint could not be signed'),
      );
  }, everyMs);
  timer.unref();
}

const tileNotFound = (why: string) =>
  new SvcError('TILE_NOT_FOUND', 'The log has no such tile', { issues: [{ code: 'TILE_NOT_FOUND', message: why, path: 'tile' }] });

/** A tile's bytes and whether it is full (immutable), for `tile/<path>` (c2sp.org/tlog-tiles). */
export async function tlogTile(path: string): Promise<{ bytes: Buffer; full: boolean }> {
  const request = parseTilePath(path);
  if (!request) throw tileNotFound('a tile path is <L>/<N>[.p/<W>] or entries/<N>[.p/<W>], N in x-prefixed groups of 3 digits');
  const tree = await logTree(TLOG);
  const size = tree.size;
  const full = request.width === TILE_WIDTH;
  if (request.level === null || request.level === 0) {
    const start = request.index * TILE_WIDTH;
    const end = start + request.width;
    if (end > size) throw tileNotFound(`the log holds ${size} entries`);
    const entries = await tlogEntries(start, end);
    const bytes = request.level === null ? entryBundle(entries) : Buffer.concat(entries.map((e) => Buffer.from(tlogLeafHash(e), 'hex')));
    return { bytes, full };
  }
  const height = 8 * request.level;
  if ((request.index * TILE_WIDTH + request.width) * 2 ** height > size) throw tileNotFound(`the log holds ${size} entries`);
  const hashes = Array.from({ length: request.width }, (_, i) =>
    Buffer.from(tree.fullSubtreeHash(height, request.index * TILE_WIDTH + i), 'hex'),
  );
  return { bytes: Buffer.concat(hashes), full };
}

/**
 * The c2sp.org/tlog-proof@v1 file of the receipt row the caller may read (docs/visibility.md),
 * found by that row (its id keys its entry), never by receipt id alone: with the row's salt in
 * its `extra` line and the checkpoint it was made against. A row the caller may not read is
 * 404 RECEIPT_NOT_FOUND, as a receipt nobody stored.
 */
export async function tlogProofFile(ctx: RequestContext, signer: Signer, receiptId: string): Promise<string> {
  const rows = await (await storedCoilsOf(ctx)).receiptRows(receiptId);
  if (rows.length === 0) throw receiptNotFound();
  let entry: { index: number; salt: string } | null = null;
  for (const row of rows) if ((entry = await tlogEntryOfRow(row.id))) break;
  if (!entry) {
    const inFirstLog = (await Promise.all(rows.map((row) => receiptLogEntryOf(row.receiptJson)))).some((e) => e !== null);
    throw inFirstLog
      ? receiptNotLogged(
          'This receipt is in the first receipt log, not in the checkpointed one',
          `it was logged before the checkpointed log existed: GET /api/receipts/log/inclusion/${receiptId}`,
        )
      : receiptNotLogged('This receipt is not in the receipt log', NOT_LOGGED_MESSAGE);
  }
  const index = entry.index;
  const checkpoint = await currentCheckpoint(ctx.config, signer, ctx.serverTime, index);
  if (checkpoint.treeSize <= index)
    throw new SvcError('DATABASE_UNAVAILABLE', 'The log entry is not readable yet; try again', {
      issues: [{ code: 'DATABASE_UNAVAILABLE', message: 'an earlier entry is still being committed' }],
      headers: { 'retry-after': '1' },
    });
  const tree = await logTree(TLOG);
  const answering = await receiptLogWithTiles(tree, (t) => tilesOfInclusionAnswer(t, index, checkpoint.treeSize), TLOG);
  return formatTlogProof({
    extra: Buffer.from(entry.salt, 'hex'),
    index,
    auditPath: answering.inclusionProof(index, checkpoint.treeSize),
    checkpoint: checkpoint.note,
  });
}
