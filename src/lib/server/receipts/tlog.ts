/**
 * The checkpointed receipt log in the C2SP formats (issue 36, docs/trust-model.md#the-checkpointed-log),
 * so that tools nobody here wrote can read and check it:
 *
 *   entry       = SHA-256(salt || JCS(receipt without "signature"))   32 bytes; salt: 32 random bytes of the row
 *   leaf hash   = SHA-256(0x00 || entry)                               RFC 6962 2.1, as receipts/merkle.ts
 *   checkpoint  = c2sp.org/tlog-checkpoint: "<origin>\n<tree size>\n<base64 root>\n", a c2sp.org/signed-note
 *                 signed with the service's Ed25519 key (type 0x01), and cosigned by the same key with a
 *                 c2sp.org/tlog-cosignature timestamped signature (type 0x04): the log's own signed clock
 *   tiles       = c2sp.org/tlog-tiles: tile/<L>/<N>[.p/<W>] and tile/entries/<N>[.p/<W>]
 *   proof file  = c2sp.org/tlog-proof@v1, the salt in its `extra` line
 *
 * An entry is a commitment, not the receipt: the public tiles show 32 bytes per logged row that
 * say nothing of the receipt without the salt, which only a viewer who may read the row gets.
 *
 * Written here rather than taken from a package: the formats are a few lines of text each and
 * node:crypto does the Ed25519 and SHA-256; the CLI bundles this file and must stay dependency
 * free (docs/cli.md). Go's golang.org/x/mod/sumdb/note and sumdb/tlog check what it writes
 * (tools/tlog-verify, tests/api/tlog-reference.test.ts). Pure: keys, salts and times are passed in.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { leafHashOf, verifyInclusion } from './merkle';
import { publicKeyX, signedPayload, type Signer } from './signature';

export const TLOG_ENTRY_BYTES = 32;
export const TLOG_SALT_BYTES = 32;
export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** c2sp.org/signed-note signature types. */
const NOTE_ED25519 = 0x01;
const NOTE_COSIGNATURE_V1 = 0x04;
const EM_DASH = '\u2014';

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** The entry of a receipt row: SHA-256(salt || the bytes its signature covers). */
export function tlogEntryOf(receipt: object | string, salt: Uint8Array): Buffer {
  if (salt.length !== TLOG_SALT_BYTES) throw new RangeError(`a salt is ${TLOG_SALT_BYTES} bytes`);
  const payload = typeof receipt === 'string' ? receipt : signedPayload(receipt);
  return sha256(salt, Buffer.from(payload, 'utf8'));
}

/** The RFC 6962 leaf hash of an entry (hex). */
export function tlogLeafHash(entry: Uint8Array): string {
  return leafHashOf(entry);
}

// ---------------------------------------------------------------------------------------------
// Signed notes and checkpoints

function rawPublicKey(publicKey: KeyObject): Buffer {
  return Buffer.from(publicKeyX(publicKey), 'base64url');
}

/** SHA-256(name || 0x0A || type || public key)[:4], c2sp.org/signed-note. */
function noteKeyId(name: string, type: number, raw: Uint8Array): Buffer {
  return sha256(Buffer.from(`${name}\n`, 'utf8'), Buffer.from([type]), raw).subarray(0, 4);
}

/** A key name: non-empty, no Unicode space, no plus. */
export function isNoteKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name);
}

/** The note verifier key `<name>+<hex key id>+<base64(0x01 || public key)>` of an Ed25519 key (Go's note.NewVerifier reads it). */
export function noteVerifierKey(name: string, publicKey: KeyObject): string {
  const raw = rawPublicKey(publicKey);
  return `${name}+${noteKeyId(name, NOTE_ED25519, raw).toString('hex')}+${Buffer.concat([Buffer.from([NOTE_ED25519]), raw]).toString('base64')}`;
}

export interface NoteVerifier {
  name: string;
  keyId: Buffer;
  publicKey: KeyObject;
  raw: Buffer;
}

/** Parses a note verifier key; null when it is not an Ed25519 one of the right form. */
export function parseNoteVerifierKey(vkey: string): NoteVerifier | null {
  // name+id+key, split at the first two plus signs: base64 has plus signs of its own.
  const m = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(vkey);
  if (!m) return null;
  const [, name, hexId, b64] = m as unknown as [string, string, string, string];
  if (!isNoteKeyName(name) || !/^[0-9a-f]{8}$/.test(hexId)) return null;
  const key = Buffer.from(b64, 'base64');
  if (key.toString('base64') !== b64 || key.length !== 33 || key[0] !== NOTE_ED25519) return null;
  const raw = key.subarray(1);
  if (!noteKeyId(name, NOTE_ED25519, raw).equals(Buffer.from(hexId, 'hex'))) return null;
  try {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
    return { name, keyId: Buffer.from(hexId, 'hex'), publicKey, raw };
  } catch {
    return null;
  }
}

/** The note text of a checkpoint (c2sp.org/tlog-checkpoint), its final newline included. */
export function checkpointBody(origin: string, treeSize: number, rootHashHex: string): string {
  return `${origin}\n${treeSize}\n${Buffer.from(rootHashHex, 'hex').toString('base64')}\n`;
}

/** The message a c2sp.org/tlog-cosignature v1 Ed25519 signature covers. */
function cosignedMessage(timestamp: bigint, body: string): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, 'utf8');
}

/**
 * The signed checkpoint of the tree of `treeSize` leaves with root `rootHashHex`: the note
 * signature by the log's key, then the same key's timestamped cosignature, which states (signed)
 * the server's clock when the checkpoint was made. Ed25519 is deterministic: the same size, root
 * and second give the same bytes on every instance.
 */
export function signCheckpoint(origin: string, treeSize: number, rootHashHex: string, signer: Signer, at: Date): string {
  if (!isNoteKeyName(origin)) throw new RangeError('a log origin has no space and no plus');
  const body = checkpointBody(origin, treeSize, rootHashHex);
  const raw = rawPublicKey(signer.publicKey);
  const signature = sign(null, Buffer.from(body, 'utf8'), signer.privateKey);
  const timestamp = BigInt(Math.floor(at.getTime() / 1000));
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(timestamp);
  const cosignature = sign(null, cosignedMessage(timestamp, body), signer.privateKey);
  const line = (type: number, bytes: Buffer[]) =>
    `${EM_DASH} ${origin} ${Buffer.concat([noteKeyId(origin, type, raw), ...bytes]).toString('base64')}\n`;
  return `${body}\n${line(NOTE_ED25519, [signature])}${line(NOTE_COSIGNATURE_V1, [time, cosignature])}`;
}

export interface CheckpointCheck {
  ok: boolean;
  failures: string[];
  origin: string | null;
  treeSize: number | null;
  /** hex */
  rootHash: string | null;
  /**
   * The log's own signed clock when it made the checkpoint (its timestamped cosignature), ISO;
   * null when unknown. `timeStatus` says why: `absent`, or `invalid` (a cosignature by the log's
   * key that does not verify: the time is unknown, never trusted; the checkpoint itself stands on
   * its note signature, as Go's note.Open, which ignores the cosignature type, would have it).
   */
  time: string | null;
  timeStatus: 'valid' | 'absent' | 'invalid';
  /** The note verifier key whose signature verified. */
  verifierKey: string | null;
}

const NOTE_SIGNATURE_LINE = new RegExp(`^${EM_DASH} (\\S+) ([A-Za-z0-9+/]+={0,2})$`);

/**
 * Opens a signed checkpoint as Go's note.Open and C2SP's rules do: the note is valid UTF-8
 * without control characters but newline; the text ends at the last blank line; a signature
 * line by a known (name, key id) must verify, unknown ones are ignored, and at least one
 * must be known. Then the body: origin, tree size without leading zeroes, a 32-byte base64 root.
 * `origin`, when given, is the origin the caller expects.
 */
export function openCheckpoint(note: string, verifierKeys: readonly string[], origin?: string): CheckpointCheck {
  const result: CheckpointCheck = {
    ok: false,
    failures: [],
    origin: null,
    treeSize: null,
    rootHash: null,
    time: null,
    timeStatus: 'absent',
    verifierKey: null,
  };
  const failed = (code: string) => ({ ...result, failures: [...result.failures, code] });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note) || note.includes('\ufffd')) return failed('CHECKPOINT_MALFORMED');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return failed('CHECKPOINT_MALFORMED');
  const body = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const verifiers = verifierKeys
    .map((k) => [k, parseNoteVerifierKey(k)] as const)
    .filter((v): v is [string, NoteVerifier] => v[1] !== null);
  let verified: [string, NoteVerifier] | undefined;
  const cosignatures: { name: string; bytes: Buffer }[] = [];
  for (const line of lines) {
    const m = NOTE_SIGNATURE_LINE.exec(line);
    if (!m) return failed('CHECKPOINT_MALFORMED');
    const [, name, b64] = m as unknown as [string, string, string];
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length < 5) return failed('CHECKPOINT_MALFORMED');
    cosignatures.push({ name, bytes });
    const known = verifiers.find(([, v]) => v.name === name && v.keyId.equals(bytes.subarray(0, 4)));
    if (!known) continue;
    if (!verify(null, Buffer.from(body, 'utf8'), known[1].publicKey, bytes.subarray(4))) return failed('CHECKPOINT_SIGNATURE_INVALID');
    verified ??= known;
  }
  if (!verified) return failed('CHECKPOINT_SIGNATURE_UNKNOWN_KEY');
  result.verifierKey = verified[0];
  const text = body.slice(0, -1).split('\n');
  const [originLine, sizeLine, rootLine] = text;
  const root = rootLine === undefined ? Buffer.alloc(0) : Buffer.from(rootLine, 'base64');
  if (
    text.length < 3 ||
    !originLine ||
    !/^(0|[1-9][0-9]{0,15})$/.test(sizeLine ?? '') ||
    root.length !== 32 ||
    root.toString('base64') !== rootLine ||
    text.slice(3).some((l) => l === '')
  )
    return failed('CHECKPOINT_MALFORMED');
  if (originLine !== verified[1].name || (origin !== undefined && originLine !== origin)) return failed('CHECKPOINT_ORIGIN_MISMATCH');
  result.origin = originLine;
  result.treeSize = Number(sizeLine);
  result.rootHash = root.toString('hex');
  // The log's timestamped cosignature by the key that signed: its time is the log's clock.
  const cosignId = noteKeyId(verified[1].name, NOTE_COSIGNATURE_V1, verified[1].raw);
  for (const { name, bytes } of cosignatures) {
    if (name !== verified[1].name || !bytes.subarray(0, 4).equals(cosignId)) continue;
    const timestamp = bytes.length === 4 + 8 + 64 ? bytes.readBigUInt64BE(4) : -1n;
    const ms = Number(timestamp) * 1000;
    const valid =
      timestamp >= 0n &&
      Number.isSafeInteger(ms) &&
      ms <= 253402300799000 &&
      verify(null, cosignedMessage(timestamp, body), verified[1].publicKey, bytes.subarray(12));
    result.timeStatus = valid ? 'valid' : 'invalid';
    result.time = valid ? new Date(ms).toISOString() : null;
    if (!valid) break;
  }
  result.ok = true;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Tiles

/** Hashes of a full tile (c2sp.org/tlog-tiles): tile height 8. */
export const TILE_WIDTH = 256;

/** The <N> of a tile path: zero-padded 3-digit elements, all but the last prefixed with x. */
export function tileIndexPath(index: number): string {
  let digits = String(index);
  digits = digits.padStart(Math.ceil(digits.length / 3) * 3, '0');
  const groups = digits.match(/.{3}/g)!;
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** The path of a tile under the log's prefix; `level` 'entries' for an entry bundle, `width` 256 for a full one. */
export function tilePath(level: number | 'entries', index: number, width = TILE_WIDTH): string {
  return `tile/${level}/${tileIndexPath(index)}${width === TILE_WIDTH ? '' : `.p/${width}`}`;
}

export interface TileRequest {
  /** null for an entry bundle. */
  level: number | null;
  index: number;
  /** 1 to 256; 256 is a full tile. */
  width: number;
}

/** Reads `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]` (the path after `tile/`); null when it is not one, exactly. */
export function parseTilePath(path: string): TileRequest | null {
  const m = /^(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!m) return null;
  const [, levelText, indexText, widthText] = m as unknown as [string, string, string, string | undefined];
  const level = levelText === 'entries' ? null : Number(levelText);
  if (level !== null && level > 63) return null;
  const groups = indexText.split('/').map((g) => g.replace('x', ''));
  // No leading zero groups beyond the first element: one index, one path.
  if (groups.length > 1 && groups[0] === '000') return null;
  const index = Number(groups.join(''));
  if (!Number.isSafeInteger(index)) return null;
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if (width < 1 || width > 255 + (widthText === undefined ? 1 : 0)) return null;
  return { level, index, width };
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    entries.flatMap((e) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(e.length);
      return [length, Buffer.from(e)];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Proof files

export interface TlogProof {
  /** The `extra` line's bytes: here, the row's salt. */
  extra: Buffer | null;
  index: number;
  /** The audit path, hex, from the leaf's sibling up. */
  auditPath: string[];
  /** The signed checkpoint, verbatim. */
  checkpoint: string;
}

/** A c2sp.org/tlog-proof@v1 file. */
export function formatTlogProof(proof: TlogProof): string {
  const extra = proof.extra ? `extra ${proof.extra.toString('base64')}\n` : '';
  const path = proof.auditPath.map((h) => `${Buffer.from(h, 'hex').toString('base64')}\n`).join('');
  return `${TLOG_PROOF_HEADER}\n${extra}index ${proof.index}\n${path}\n${proof.checkpoint}`;
}

const BASE64_HASH = /^[A-Za-z0-9+/]{43}=$/;

/** Parses a c2sp.org/tlog-proof@v1 file; null when it is not one. */
export function parseTlogProof(text: string): TlogProof | null {
  const lines = text.split('\n');
  let at = 0;
  if (lines[at++] !== TLOG_PROOF_HEADER) return null;
  let extra: Buffer | null = null;
  if (lines[at]?.startsWith('extra ')) {
    const b64 = lines[at++]!.slice('extra '.length);
    extra = Buffer.from(b64, 'base64');
    if (extra.toString('base64') !== b64) return null;
  }
  const indexLine = /^index (0|[1-9][0-9]{0,15})$/.exec(lines[at++] ?? '');
  if (!indexLine) return null;
  const auditPath: string[] = [];
  while (at < lines.length && lines[at] !== '') {
    if (!BASE64_HASH.test(lines[at]!)) return null;
    auditPath.push(Buffer.from(lines[at++]!, 'base64').toString('hex'));
  }
  if (lines[at] !== '') return null;
  return { extra, index: Number(indexLine[1]), auditPath, checkpoint: lines.slice(at + 1).join('\n') };
}

export interface TlogProofCheck {
  ok: boolean;
  failures: string[];
  index: number | null;
  /** The checkpoint the proof was made against, as verified (its `time`: the log's signed clock). */
  checkpoint: CheckpointCheck;
}

/**
 * Whether `receipt` is an entry of the log under the proof file's signed checkpoint: the entry
 * is recomputed from the receipt's own bytes (its canonical JSON without the signature block)
 * and the salt of the `extra` line, hashed as an RFC 6962 leaf, and climbed up the audit path
 * to the checkpoint's root. `verifierKeys` are the log's note verifier keys (GET
 * /api/receipts/keys `checkpointLog.noteVerifierKeys`). The one function the CLI and the
 * service check inclusion with; `checkpoint.time` says when, by the log's clock, the
 * checkpoint was signed.
 */
export function checkTlogProof(receipt: object, proofText: string, verifierKeys: readonly string[], origin?: string): TlogProofCheck {
  const proof = parseTlogProof(proofText);
  const empty = openCheckpoint('', []);
  if (!proof) return { ok: false, failures: ['PROOF_MALFORMED'], index: null, checkpoint: { ...empty, failures: [] } };
  const checkpoint = openCheckpoint(proof.checkpoint, verifierKeys, origin);
  const failures = [...checkpoint.failures];
  if (!proof.extra || proof.extra.length !== TLOG_SALT_BYTES) failures.push('PROOF_SALT_MISSING');
  else if (checkpoint.ok) {
    let leafHash: string | null = null;
    try {
      leafHash = tlogLeafHash(tlogEntryOf(receipt, proof.extra));
    } catch {
      failures.push('RECEIPT_NOT_JSON');
    }
    if (leafHash !== null && !verifyInclusion(leafHash, proof.index, checkpoint.treeSize!, proof.auditPath, checkpoint.rootHash!))
      failures.push('INCLUSION_PROOF_INVALID');
  }
  return { ok: failures.length === 0, failures, index: proof.index, checkpoint };
}
