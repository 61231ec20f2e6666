/**
 * The receipt log's Merkle tree, as RFC 9162 (Certificate Transparency 2.0) section 2.1 defines
 * it, and the client-side checks of its proofs:
 *
 *   leaf hash = SHA-256(0x00 || entry)        entry: the receipt's canonical JSON, unsigned
 *   node hash = SHA-256(0x01 || left || right)
 *   MTH of n leaves splits at k, the largest power of two smaller than n
 *
 * Written here rather than taken from a package: the two algorithms are a page of the RFC, the
 * CLI must bundle them without pulling a dependency tree, and the Merkle packages on npm
 * (merkletreejs and its kin) duplicate odd leaves or sort pairs, which is not the RFC's tree and
 * would not verify against another RFC 9162 client. tests/unit/receipt-log.test.ts checks the
 * roots against Certificate Transparency's published vectors and every proof of small trees.
 * Pure: leaf hashes in, hex out.
 */
import { createHash } from 'node:crypto';

const HEX_64 = /^[0-9a-f]{64}$/;

function sha256(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

export function leafHashOf(entry: string): string {
  return sha256(LEAF, Buffer.from(entry, 'utf8')).toString('hex');
}

function nodeHash(left: Buffer, right: Buffer): Buffer {
  return sha256(NODE, left, right);
}

/** The largest power of two smaller than n (n >= 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function mth(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const buffers = (leafHashes: readonly string[]) => leafHashes.map((h) => Buffer.from(h, 'hex'));

/** The Merkle tree hash of the leaves (the empty tree's is SHA-256 of nothing). */
export function rootOf(leafHashes: readonly string[]): string {
  return mth(buffers(leafHashes)).toString('hex');
}

function path(m: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}

/** The inclusion proof (audit path) of leaf `index` in the tree of these leaves. */
export function inclusionProof(leafHashes: readonly string[], index: number): string[] {
  if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) throw new RangeError('leaf index outside the tree');
  return path(index, buffers(leafHashes)).map((b) => b.toString('hex'));
}

function subproof(m: number, leaves: readonly Buffer[], complete: boolean): Buffer[] {
  const n = leaves.length;
  if (m === n) return complete ? [] : [mth(leaves)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

/** The consistency proof between the tree of the first `first` leaves and the tree of all of them. */
export function consistencyProof(leafHashes: readonly string[], first: number): string[] {
  if (!Number.isInteger(first) || first < 0 || first > leafHashes.length) throw new RangeError('first tree size outside the tree');
  if (first === 0 || first === leafHashes.length) return [];
  return subproof(first, buffers(leafHashes), true).map((b) => b.toString('hex'));
}

const isHashList = (proof: unknown): proof is string[] =>
  Array.isArray(proof) && proof.every((h) => typeof h === 'string' && HEX_64.test(h));

/** RFC 9162 2.1.3.2: whether the audit path proves leaf `leafHash` at `index` in the tree of `treeSize` with root `root`. */
export function verifyInclusion(leafHash: string, index: number, treeSize: number, proof: unknown, root: string): boolean {
  if (!HEX_64.test(leafHash) || !HEX_64.test(root) || !isHashList(proof)) return false;
  if (!Number.isInteger(index) || !Number.isInteger(treeSize) || index < 0 || index >= treeSize) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r: Buffer = Buffer.from(leafHash, 'hex');
  for (const p of proof) {
    const node = Buffer.from(p, 'hex');
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(node, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else {
      r = nodeHash(r, node);
    }
    [fn, sn] = [fn >> 1, sn >> 1];
  }
  return sn === 0 && r.toString('hex') === root;
}

/** RFC 9162 2.1.4.2: whether the proof shows the tree of `second` leaves (root `secondRoot`) extends the tree of `first` (root `firstRoot`). */
export function verifyConsistency(first: number, second: number, firstRoot: string, secondRoot: string, proof: unknown): boolean {
  if (!HEX_64.test(firstRoot) || !HEX_64.test(secondRoot) || !isHashList(proof)) return false;
  if (!Number.isInteger(first) || !Number.isInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (first === 0) return proof.length === 0;
  const path = first & (first - 1) ? [...proof] : [firstRoot, ...proof];
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) [fn, sn] = [fn >> 1, sn >> 1];
  let fr: Buffer = Buffer.from(path[0]!, 'hex');
  let sr: Buffer = Buffer.from(path[0]!, 'hex');
  for (const c of path.slice(1)) {
    const node = Buffer.from(c, 'hex');
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(node, fr);
      sr = nodeHash(node, sr);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else {
      sr = nodeHash(sr, node);
    }
    [fn, sn] = [fn >> 1, sn >> 1];
  }
  return sn === 0 && fr.toString('hex') === firstRoot && sr.toString('hex') === secondRoot;
}
