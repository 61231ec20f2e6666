/**
 * The receipt log's Merkle tree (RFC 9162) and the service's signatures, as pure functions:
 * roots against Certificate Transparency's published test vectors, every inclusion and
 * consistency proof of the trees up to 20 leaves verified, and each kind of tampering refused.
 */
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  inclusionProof,
  leafHashOf,
  MerkleTree,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../../src/lib/server/receipts/merkle';
import {
  checkConsistency,
  checkInclusion,
  consistencyAnswer,
  inclusionAnswer,
  receiptLeafHash,
  signedTreeHead,
} from '../../src/lib/server/receipts/log';
import {
  checkSignature,
  keyIdOf,
  publishedKey,
  signDocument,
  signIssued,
  signIssuedIn,
  type Issued,
  type Signer,
} from '../../src/lib/server/receipts/signature';
import { buildReceipt } from '../../src/lib/server/receipts/receipt';
import { makeCoil } from '../support/coils';

function newSigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}
const keysOf = (...signers: Signer[]) => signers.map((s) => publishedKey(createPublicKey(s.privateKey), '2026-01-01T00:00:00.000Z', null));

// certificate-transparency-go's merkle test data: leaf inputs (hex) and the root of each prefix.
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

const leafOfHex = (hex: string) => leafHashOf(Buffer.from(hex, 'hex').toString('latin1'));

describe('RFC 9162 Merkle tree', () => {
  it('gives the roots of Certificate Transparency’s test vectors', () => {
    // Every input is ASCII-range bytes here only by accident; hash them as raw bytes.
    const hashes = CT_LEAVES.map((hex) => {
      const bytes = Buffer.from(hex, 'hex');
      return bytes.every((b) => b < 0x80) ? leafOfHex(hex) : null;
    });
    for (let n = 1; n <= CT_LEAVES.length; n++) {
      if (hashes.slice(0, n).some((h) => h === null)) continue;
      expect(rootOf(hashes.slice(0, n) as string[])).toBe(CT_ROOTS[n - 1]);
    }
    expect(rootOf([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  const leaves = Array.from({ length: 20 }, (_, i) => leafHashOf(`entry ${i}`));

  it('verifies every inclusion proof of every tree up to 20 leaves, and refuses a wrong index, leaf or root', () => {
    for (let n = 1; n <= leaves.length; n++) {
      const tree = leaves.slice(0, n);
      const root = rootOf(tree);
      for (let i = 0; i < n; i++) {
        const proof = inclusionProof(tree, i);
        expect(verifyInclusion(tree[i]!, i, n, proof, root)).toBe(true);
        if (n > 1) expect(verifyInclusion(tree[i]!, (i + 1) % n, n, proof, root)).toBe(false);
        expect(verifyInclusion(leafHashOf('other'), i, n, proof, root)).toBe(false);
      }
    }
  });

  it('verifies every consistency proof between trees up to 20 leaves, and refuses a rewritten or reordered prefix', () => {
    for (let n = 1; n <= leaves.length; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(leaves.slice(0, n), m);
        expect(verifyConsistency(m, n, rootOf(leaves.slice(0, m)), rootOf(leaves.slice(0, n)), proof)).toBe(true);
        if (m < n) {
          // The service dropped entry 0 after the client pinned the head of size m.
          const dropped = leaves.slice(1, n + 1);
          expect(verifyConsistency(m, n, rootOf(leaves.slice(0, m)), rootOf(dropped), consistencyProof(dropped, m))).toBe(false);
        }
        if (m >= 2) {
          const reordered = [leaves[1]!, leaves[0]!, ...leaves.slice(2, n)];
          expect(verifyConsistency(m, n, rootOf(leaves.slice(0, m)), rootOf(reordered), consistencyProof(reordered, m))).toBe(false);
        }
      }
    }
  });
});

describe('signatures', () => {
  const signer = newSigner();
  const receipt = buildReceipt(makeCoil(), 'coil_manifest', new Date('2026-11-27T00:00:00.000Z'));

  it('are deterministic and cover every field', () => {
    const a = signDocument(receipt, signer);
    const b = signDocument({ ...receipt }, signer);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(checkSignature(a, keysOf(signer)).status).toBe('valid');
    for (const field of Object.keys(receipt)) {
      const tampered = { ...a, [field]: field === 'liveOrderSent' ? true : `${String((a as unknown as Record<string, unknown>)[field])}x` };
      expect(checkSignature(tampered, keysOf(signer)).status, field).toBe('invalid');
    }
  });

  it('refuse another key, and report an absent or malformed block', () => {
    const signed = signDocument(receipt, signer);
    expect(checkSignature(signed, keysOf(newSigner())).status).toBe('unknown_key');
    const other = newSigner();
    const forged = { ...signDocument(receipt, other), signature: { ...signDocument(receipt, other).signature, keyId: signer.keyId } };
    expect(checkSignature(forged, keysOf(signer)).status).toBe('invalid');
    expect(checkSignature(receipt as unknown as Record<string, unknown>, keysOf(signer)).status).toBe('absent');
    expect(checkSignature({ ...receipt, signature: 'x' }, keysOf(signer)).status).toBe('malformed');
  });

  it('signs every receipt the service issued in an answer, and never an object of the same shape it did not (issue 34 item 5)', () => {
    const echoed = JSON.parse(JSON.stringify(receipt)) as typeof receipt;
    const answer = { tool: 'x', receipt, nested: [{ receipt }], echoed, other: { receiptVersion: 'vault-1', receiptId: 'v' } };
    const at = new Date('2026-11-27T00:00:05.000Z');
    const signed = signIssuedIn(answer, signer, at);
    expect(checkSignature(signed.receipt as unknown as Record<string, unknown>, keysOf(signer))).toMatchObject({
      status: 'valid',
      signedAt: at.toISOString(),
      logged: false,
    });
    expect((signed.nested[0]!.receipt as unknown as { signature?: unknown }).signature).toBeDefined();
    // A caller's copy has every field of an issued receipt, and is still not signed.
    expect(signed.echoed).toBe(echoed);
    expect((signed.echoed as unknown as { signature?: unknown }).signature).toBeUndefined();
    expect(signed.other).toBe(answer.other);
    expect(signIssuedIn({ a: 1 }, signer, at)).toEqual({ a: 1 });
    // A cast does not get past the brand either: only the builders' own objects are signed.
    expect(() => signIssued(echoed as Issued<typeof echoed>, signer, at, false)).toThrow(/only a receipt the service issued/);
  });
});

describe('signed log checks', () => {
  const signer = newSigner();
  const receipts = Array.from({ length: 6 }, (_, i) => buildReceipt(makeCoil(), 'coil_manifest', new Date(Date.UTC(2026, 10, 27, 0, i))));
  const leaves = receipts.map((r) => receiptLeafHash(r as unknown as Record<string, unknown>));
  const at = new Date('2026-11-27T01:00:00.000Z');

  it('prove inclusion of a signed receipt, and refuse another receipt or a head of another key', () => {
    const answer = inclusionAnswer(MerkleTree.of(leaves), 3, 6, receipts[3]!.receiptId, at, signer);
    const signedReceipt = signDocument(receipts[3]!, signer);
    expect(checkInclusion(signedReceipt, answer, keysOf(signer)).ok).toBe(true);
    expect(
      checkInclusion(receipts[2] as unknown as Record<string, unknown>, { ...answer, leafHash: undefined }, keysOf(signer)).failures,
    ).toContain('INCLUSION_PROOF_INVALID');
    expect(checkInclusion(signedReceipt, answer, keysOf(newSigner())).failures).toContain('HEAD_SIGNATURE_UNKNOWN_KEY');
  });

  it('prove the log only grew, and catch a dropped or reordered entry', () => {
    const pinned = signedTreeHead(MerkleTree.of(leaves), 4, at, signer);
    expect(checkConsistency(pinned, consistencyAnswer(MerkleTree.of(leaves), 4, 6, at, signer), keysOf(signer)).ok).toBe(true);
    const dropped = [leaves[0]!, leaves[2]!, leaves[3]!, leaves[4]!, leaves[5]!];
    expect(checkConsistency(pinned, consistencyAnswer(MerkleTree.of(dropped), 4, 5, at, signer), keysOf(signer)).failures).toEqual([
      'CONSISTENCY_PROOF_INVALID',
    ]);
    const reordered = [leaves[0]!, leaves[2]!, leaves[1]!, ...leaves.slice(3)];
    expect(checkConsistency(pinned, consistencyAnswer(MerkleTree.of(reordered), 4, 6, at, signer), keysOf(signer)).failures).toEqual([
      'CONSISTENCY_PROOF_INVALID',
    ]);
  });
});
