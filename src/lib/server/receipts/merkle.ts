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
 * roots against Certificate Transparency's published vectors and every proof of small trees;
 * tests/unit/merkle-tree.test.ts holds MerkleTree to the RFC's recursion, byte for byte.
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

const HASH_BYTES = 32;
const EMPTY_ROOT = sha256();

/** The Merkle tree of a log, as far as a reader of its proofs needs it. */
export interface ReadonlyMerkleTree {
  /** The number of leaves appended so far; every tree size up to it can be asked for. */
  readonly size: number;
  /** The leaf hash at `index`, as appended. */
  leafHash(index: number): string;
  /** The Merkle tree hash of the first `treeSize` leaves (the empty tree's is SHA-256 of nothing). */
  root(treeSize?: number): string;
  /** The inclusion proof (audit path) of leaf `index` in the tree of the first `treeSize` leaves. */
  inclusionProof(index: number, treeSize?: number): string[];
  /** The consistency proof between the trees of the first `first` and the first `second` leaves. */
  consistencyProof(first: number, second?: number): string[];
}

/**
 * An append-only RFC 9162 tree that keeps the hash of every complete subtree aligned on its own
 * size: level h holds, for each i, the hash of leaves [i * 2^h, (i + 1) * 2^h) once all of them
 * are appended. Any range the RFC's recursion asks for is then such a subtree on its left and
 * one shorter range on its right, so a root costs O(log n) hashes and a proof O(log² n), where
 * hashing the leaves again cost O(n) per call (issue 27: the log grows with every stored call).
 *
 * Each level is one contiguous buffer (32 bytes a node, capacity doubled when full) rather than
 * a Buffer object per node: a Buffer costs about 100 bytes besides its content, and a log of a
 * million leaves holds two million nodes. A tree of n leaves keeps about 64 n bytes.
 */
export class MerkleTree implements ReadonlyMerkleTree {
  private readonly levels: Buffer[] = [];
  private leaves = 0;

  static of(leafHashes: readonly string[]): MerkleTree {
    const tree = new MerkleTree();
    for (const h of leafHashes) tree.append(h);
    return tree;
  }

  get size(): number {
    return this.leaves;
  }

  /** Appends a leaf hash (64 lowercase hex digits, as leafHashOf gives). */
  append(leafHash: string): void {
    if (!HEX_64.test(leafHash)) throw new TypeError('a leaf hash is 64 lowercase hex digits');
    let index = this.leaves;
    this.store(0, index).write(leafHash, 'hex');
    this.leaves += 1;
    // The new leaf completes the subtree of 2^(h+1) leaves ending at it for every h while its
    // index at level h is odd: hash each such pair into the level above.
    for (let h = 0; index % 2 === 1; h++, index = (index - 1) / 2) {
      const parent = nodeHash(this.node(h, index - 1), this.node(h, index));
      parent.copy(this.store(h + 1, (index - 1) / 2));
    }
  }

  leafHash(index: number): string {
    this.check(index, 0, this.leaves - 1, 'leaf index outside the tree');
    return this.node(0, index).toString('hex');
  }

  root(treeSize = this.leaves): string {
    this.check(treeSize, 0, this.leaves, 'tree size outside the tree');
    return (treeSize === 0 ? EMPTY_ROOT : this.hashOf(0, treeSize)).toString('hex');
  }

  inclusionProof(index: number, treeSize = this.leaves): string[] {
    this.check(treeSize, 0, this.leaves, 'tree size outside the tree');
    this.check(index, 0, treeSize - 1, 'leaf index outside the tree');
    // RFC 9162 2.1.3.1 PATH(m, D[n]), walked from the root down; the proof lists the siblings
    // from the leaf up.
    const siblings: Buffer[] = [];
    let start = 0;
    let end = treeSize;
    while (end - start > 1) {
      const k = split(end - start);
      if (index < start + k) {
        siblings.push(this.hashOf(start + k, end));
        end = start + k;
      } else {
        siblings.push(this.hashOf(start, start + k));
        start += k;
      }
    }
    return hexes(siblings.reverse());
  }

  consistencyProof(first: number, second = this.leaves): string[] {
    this.check(second, 0, this.leaves, 'tree size outside the tree');
    this.check(first, 0, second, 'first tree size outside the tree');
    if (first === 0 || first === second) return [];
    // RFC 9162 2.1.4.1 SUBPROOF(m, D[n], b), walked from the root down; the proof lists the
    // nodes from the deepest up.
    const nodes: Buffer[] = [];
    let start = 0;
    let end = second;
    let m = first;
    let complete = true;
    for (;;) {
      if (m === end - start) {
        if (!complete) nodes.push(this.hashOf(start, end));
        break;
      }
      const k = split(end - start);
      if (m <= k) {
        nodes.push(this.hashOf(start + k, end));
        end = start + k;
      } else {
        nodes.push(this.hashOf(start, start + k));
        start += k;
        m -= k;
        complete = false;
      }
    }
    return hexes(nodes.reverse());
  }

  /** MTH of leaves [start, end) (start < end <= size). */
  private hashOf(start: number, end: number): Buffer {
    const n = end - start;
    // A power of two aligned on its size: a complete subtree, stored when its last leaf came.
    if ((n & (n - 1)) === 0 && start % n === 0) return this.node(31 - Math.clz32(n), start / n);
    const k = split(n);
    return nodeHash(this.hashOf(start, start + k), this.hashOf(start + k, end));
  }

  /** A view of node `index` of level h: valid until the next append grows that level. */
  private node(h: number, index: number): Buffer {
    return this.levels[h]!.subarray(index * HASH_BYTES, (index + 1) * HASH_BYTES);
  }

  /** The slot of node `index` of level h, growing the level's buffer when it is full. */
  private store(h: number, index: number): Buffer {
    const level = this.levels[h] ?? Buffer.alloc(0);
    const needed = (index + 1) * HASH_BYTES;
    if (level.length < needed) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, 2 * level.length, 64 * HASH_BYTES));
      level.copy(grown);
      this.levels[h] = grown;
    }
    return this.levels[h]!.subarray(index * HASH_BYTES, needed);
  }

  private check(value: number, min: number, max: number, message: string): void {
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(message);
  }
}

const hexes = (nodes: readonly Buffer[]) => nodes.map((b) => b.toString('hex'));

/** The Merkle tree hash of the leaves (the empty tree's is SHA-256 of nothing). */
export function rootOf(leafHashes: readonly string[]): string {
  return MerkleTree.of(leafHashes).root();
}

/** The inclusion proof (audit path) of leaf `index` in the tree of these leaves. */
export function inclusionProof(leafHashes: readonly string[], index: number): string[] {
  return MerkleTree.of(leafHashes).inclusionProof(index);
}

/** The consistency proof between the tree of the first `first` leaves and the tree of all of them. */
export function consistencyProof(leafHashes: readonly string[], first: number): string[] {
  return MerkleTree.of(leafHashes).consistencyProof(first);
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
