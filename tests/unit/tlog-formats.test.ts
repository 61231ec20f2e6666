/**
 * The checkpointed log's C2SP framings as pure functions (receipts/tlog.ts): the spec's own tile
 * path example, note verifier keys whose base64 holds plus signs, a checkpoint that verifies and
 * each kind of tampering refused, the log's signed time, and a proof file of every leaf of small
 * trees. Go's reference code checks the same bytes through the real server
 * (tests/api/tlog-reference.test.ts).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MerkleTree } from '../../src/lib/server/receipts/merkle';
import { keyIdOf, type Signer } from '../../src/lib/server/receipts/signature';
import {
  checkTlogProof,
  entryBundle,
  formatTlogProof,
  noteVerifierKey,
  openCheckpoint,
  parseNoteVerifierKey,
  parseTilePath,
  parseTlogProof,
  signCheckpoint,
  tileIndexPath,
  tilePath,
  tlogEntryOf,
  tlogLeafHash,
} from '../../src/lib/server/receipts/tlog';

function newSigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

const ORIGIN = 'svc.example/api/receipts/log';
const AT = new Date('2026-12-01T10:00:00.000Z');

describe('tile paths (c2sp.org/tlog-tiles)', () => {
  it('encodes and reads back the spec example and the edges, and refuses every other spelling', () => {
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(1000)).toBe('x001/000');
    expect(tilePath(0, 5, 17)).toBe('tile/0/005.p/17');
    expect(tilePath('entries', 1234067)).toBe('tile/entries/x001/x234/067');
    expect(parseTilePath('2/x001/x234/067.p/8')).toEqual({ level: 2, index: 1234067, width: 8 });
    expect(parseTilePath('entries/000')).toEqual({ level: null, index: 0, width: 256 });
    for (const bad of ['0/5', '0/0005', '0/x000/005', '00/000', '64/000', '0/000.p/0', '0/000.p/256', '0/000.p/07', 'data/000', '0/000/'])
      expect(parseTilePath(bad), bad).toBeNull();
  });

  it('bundles entries as big-endian uint16 lengths', () => {
    expect(entryBundle([Buffer.alloc(32, 1), Buffer.alloc(3, 2)]).toString('hex')).toBe(`0020${'01'.repeat(32)}0003020202`);
  });
});

describe('checkpoints (c2sp.org/tlog-checkpoint, signed-note, tlog-cosignature)', () => {
  const signer = newSigner();
  const vkey = noteVerifierKey(ORIGIN, signer.publicKey);
  const root = createHash('sha256').update('root').digest('hex');
  const note = signCheckpoint(ORIGIN, 42, root, signer, AT);

  it('verifies with its note verifier key and says the log’s signed time', () => {
    expect(note.split('\n').slice(0, 4)).toEqual([ORIGIN, '42', Buffer.from(root, 'hex').toString('base64'), '']);
    const opened = openCheckpoint(note, [vkey], ORIGIN);
    expect(opened).toMatchObject({
      ok: true,
      treeSize: 42,
      rootHash: root,
      time: AT.toISOString(),
      timeStatus: 'valid',
      verifierKey: vkey,
    });
  });

  it('reads verifier keys whose base64 holds plus signs, and refuses a wrong key id', () => {
    for (let i = 0; i < 20; i++) {
      const key = noteVerifierKey(ORIGIN, newSigner().publicKey);
      expect(parseNoteVerifierKey(key), key).not.toBeNull();
    }
    const [name, id, b64] = [vkey.slice(0, vkey.indexOf('+')), vkey.split('+')[1]!, vkey.split('+').slice(2).join('+')];
    expect(parseNoteVerifierKey(`${name}+${id.replace(/^./, (c) => (c === '0' ? '1' : '0'))}+${b64}`)).toBeNull();
  });

  it('refuses a changed size, root, origin or signature, another key, and a note without a known signature', () => {
    const body = note.slice(0, note.indexOf('\n\n') + 1);
    const sigs = note.slice(note.indexOf('\n\n') + 1);
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const cases: [string, string, string][] = [
      ['size', note.replace('\n42\n', '\n43\n'), 'CHECKPOINT_SIGNATURE_INVALID'],
      ['root', flip(body, body.length - 10) + sigs, 'CHECKPOINT_SIGNATURE_INVALID'],
      ['signature', flip(note, note.indexOf('\u2014') + ORIGIN.length + 10), 'CHECKPOINT_SIGNATURE_INVALID'],
      ['another key', signCheckpoint(ORIGIN, 42, root, newSigner(), AT), 'CHECKPOINT_SIGNATURE_UNKNOWN_KEY'],
      ['no signature', body, 'CHECKPOINT_MALFORMED'],
    ];
    for (const [what, text, failure] of cases) expect(openCheckpoint(text, [vkey], ORIGIN).failures, what).toEqual([failure]);
    expect(openCheckpoint(note, [vkey], 'other.example/log').failures).toEqual(['CHECKPOINT_ORIGIN_MISMATCH']);
  });

  it('a time cosignature that does not verify makes the time unknown, never trusted', () => {
    const lines = note.split('\n');
    const cosig = lines[5]!;
    const bytes = Buffer.from(cosig.split(' ')[2]!, 'base64');
    bytes.writeBigUInt64BE(bytes.readBigUInt64BE(4) - 3600n, 4);
    lines[5] = `${cosig.split(' ').slice(0, 2).join(' ')} ${bytes.toString('base64')}`;
    expect(openCheckpoint(lines.join('\n'), [vkey], ORIGIN)).toMatchObject({ ok: true, time: null, timeStatus: 'invalid' });
  });
});

describe('proof files (c2sp.org/tlog-proof@v1)', () => {
  it('proves every receipt of small trees by its salt, and refuses another salt, index, receipt or path', () => {
    const signer = newSigner();
    const vkey = noteVerifierKey(ORIGIN, signer.publicKey);
    for (let size = 1; size <= 9; size++) {
      const receipts = Array.from({ length: size }, (_, i) => ({ receiptId: `hrcpt_${i}`, n: i, signature: { value: 'x' } }));
      const salts = receipts.map((_, i) => createHash('sha256').update(`salt${i}`).digest());
      const tree = MerkleTree.of(receipts.map((r, i) => tlogLeafHash(tlogEntryOf(r, salts[i]!))));
      const checkpoint = signCheckpoint(ORIGIN, size, tree.root(), signer, AT);
      for (let i = 0; i < size; i++) {
        const text = formatTlogProof({ extra: salts[i]!, index: i, auditPath: tree.inclusionProof(i), checkpoint });
        expect(parseTlogProof(text)).toMatchObject({ index: i, checkpoint });
        // The signature block is not part of an entry: a signed and an unsigned copy prove alike.
        const { signature: _s, ...unsigned } = receipts[i]!;
        for (const r of [receipts[i]!, unsigned]) expect(checkTlogProof(r, text, [vkey], ORIGIN)).toMatchObject({ ok: true, index: i });
        expect(checkTlogProof({ ...receipts[i]!, n: -1 }, text, [vkey]).failures).toEqual(['INCLUSION_PROOF_INVALID']);
        const otherSalt = formatTlogProof({
          extra: salts[(i + 1) % size]!.subarray(),
          index: i,
          auditPath: tree.inclusionProof(i),
          checkpoint,
        });
        if (size > 1) expect(checkTlogProof(receipts[i]!, otherSalt, [vkey]).ok).toBe(false);
        if (size > 1) {
          const otherIndex = formatTlogProof({ extra: salts[i]!, index: (i + 1) % size, auditPath: tree.inclusionProof(i), checkpoint });
          expect(checkTlogProof(receipts[i]!, otherIndex, [vkey]).ok).toBe(false);
        }
      }
    }
    expect(checkTlogProof({}, 'not a proof', [vkey]).failures).toEqual(['PROOF_MALFORMED']);
  });
});
