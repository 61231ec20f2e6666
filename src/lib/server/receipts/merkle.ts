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

export function leafHashOf(entry: string | Uint8Array): string {
  return sha256(LEAF, typeof entry === 'string' ? Buffer.from(entry, 'utf8') : Buffer.from(entry)).toString('hex');
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

/** A tree that holds only part of its leaves, and says which of the others an answer needs. */
export interface TiledMerkleTree extends ReadonlyMerkleTree {
  /** The number of leaves of a tile. */
  readonly tileSize: number;
  tilesNeededForRoot(treeSize: number): number[];
  tilesNeededForInclusion(index: number, treeSize: number): number[];
  tilesNeededForConsistency(first: number, second: number): number[];
  withTiles(tiles: ReadonlyMap<number, readonly string[]>): ReadonlyMerkleTree;
}

/** The default tile height: tiles of 256 leaves, as Go's transparency logs (golang.org/x/mod/sumdb/tlog) cut them. */
export const TILE_HEIGHT = 8;

/**
 * Where the hashes of subtrees inside a complete tile come from, the tree not holding them:
 * `subtreeHash(start, end)` is the hash of the complete aligned subtree of leaves [start, end),
 * all inside one tile.
 */
interface TileReader {
  subtreeHash(start: number, end: number): Buffer;
}

/**
 * An append-only RFC 9162 tree cut into tiles of 2^H leaves (H = `tileHeight`), as Go's
 * transparency logs keep theirs: the tree holds the hash of every complete aligned subtree of
 * height H or more (level h holds, for each i, the hash of leaves [i * 2^h, (i + 1) * 2^h)
 * once all of them are appended), and below H only the nodes of the last, incomplete tile.
 * Any range the RFC's recursion asks for is a complete aligned subtree on its left and one
 * shorter range on its right, so a root costs O(log n) hashes and a proof O(log² n), where
 * hashing the leaves again cost O(n) per call (issue 27: the log grows with every stored call).
 *
 * A subtree below H inside an older, complete tile needs that tile's leaves, which the log's
 * store has: `tilesNeededFor…` name the tiles an answer needs, and `withTiles` answers with
 * their leaves. Most answers need none (a head of the current size needs only the last tile,
 * which is held); a proof of an old leaf needs its tile. Keeping every leaf and every node
 * cost about 64 bytes a leaf, held for as long as the process runs, and the log only grows;
 * the tiles cost about 2 * 32 / 2^H bytes a leaf (0.25 at H = 8) plus the last tile.
 *
 * Each level is one contiguous buffer (32 bytes a node, capacity doubled when full) rather than
 * a Buffer object per node: a Buffer costs about 100 bytes besides its content.
 */
export class MerkleTree implements TiledMerkleTree {
  /** Level h >= H: node i at slot i. Level h < H: the last tile's nodes, node i at slot i mod 2^(H-h). */
  private readonly levels: Buffer[] = [];
  private leaves = 0;
  private readonly tileLeaves: number;

  /** `tileHeight`: H, the height of a tile (2^H leaves); a tree that must hold every leaf passes 32. */
  constructor(readonly tileHeight: number = TILE_HEIGHT) {
    if (!Number.isInteger(tileHeight) || tileHeight < 1 || tileHeight > 32) throw new RangeError('a tile height is 1 to 32');
    this.tileLeaves = 2 ** tileHeight;
  }

  static of(leafHashes: readonly string[], tileHeight = TILE_HEIGHT): MerkleTree {
    const tree = new MerkleTree(tileHeight);
    for (const h of leafHashes) tree.append(h);
    return tree;
  }

  get size(): number {
    return this.leaves;
  }

  /** The number of leaves of a tile: 2^H. */
  get tileSize(): number {
    return this.tileLeaves;
  }

  /** The bytes the tree's buffers hold, spare capacity included. */
  get heldBytes(): number {
    return this.levels.reduce((sum, level) => sum + (level?.length ?? 0), 0);
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
    return this.answerLeafHash(index, HELD_ONLY);
  }

  /**
   * The hash of the complete aligned subtree of height `height` (>= the tile height) at
   * `index`: leaves [index * 2^height, (index + 1) * 2^height). The tree holds every one of
   * them once its leaves are appended: the hashes a tlog-tiles tile of level 1 and above serves.
   */
  fullSubtreeHash(height: number, index: number): string {
    this.check(height, this.tileHeight, 62, 'a held subtree is at least a tile high');
    this.check(index, 0, Math.floor(this.leaves / 2 ** height) - 1, 'that subtree is not complete');
    return this.node(height, index).toString('hex');
  }

  root(treeSize = this.leaves): string {
    return this.answerRoot(treeSize, HELD_ONLY);
  }

  inclusionProof(index: number, treeSize = this.leaves): string[] {
    return this.answerInclusionProof(index, treeSize, HELD_ONLY);
  }

  consistencyProof(first: number, second = this.leaves): string[] {
    return this.answerConsistencyProof(first, second, HELD_ONLY);
  }

  /** The complete tiles whose leaves the root of the first `treeSize` leaves needs, besides what the tree holds. */
  tilesNeededForRoot(treeSize: number): number[] {
    return this.tilesRead((reader) => this.answerRoot(treeSize, reader));
  }

  /** The complete tiles an inclusion answer of leaf `index` at `treeSize` needs: the leaf's hash and its audit path. */
  tilesNeededForInclusion(index: number, treeSize: number): number[] {
    return this.tilesRead((reader) => {
      this.answerLeafHash(index, reader);
      this.answerInclusionProof(index, treeSize, reader);
    });
  }

  /** The complete tiles the consistency proof between `first` and `second` needs. */
  tilesNeededForConsistency(first: number, second: number): number[] {
    return this.tilesRead((reader) => this.answerConsistencyProof(first, second, reader));
  }

  /**
   * The tree, answering also from the leaves of these complete tiles (tile t: the 2^H leaf
   * hashes from t * 2^H on, in order). The answer holds a copy of the last tile's leaves as
   * they are now, so it stays right while the tree grows past them.
   */
  withTiles(tiles: ReadonlyMap<number, readonly string[]>): ReadonlyMerkleTree {
    const read = new Map<number, Buffer>();
    for (const [tile, leaves] of tiles) {
      if (leaves.length !== this.tileLeaves || !leaves.every((h) => HEX_64.test(h)))
        throw new TypeError(`tile ${tile} is not ${this.tileLeaves} leaf hashes`);
      read.set(tile, Buffer.from(leaves.join(''), 'hex'));
    }
    const lastTile = Math.floor(this.leaves / this.tileLeaves);
    const held = this.leaves - lastTile * this.tileLeaves;
    if (held > 0 && !read.has(lastTile)) read.set(lastTile, Buffer.from(this.levels[0]!.subarray(0, held * HASH_BYTES)));
    const reader = new TileLeaves(read, this.tileLeaves);
    return {
      size: this.leaves,
      leafHash: (index) => this.answerLeafHash(index, reader),
      root: (treeSize = this.leaves) => this.answerRoot(treeSize, reader),
      inclusionProof: (index, treeSize = this.leaves) => this.answerInclusionProof(index, treeSize, reader),
      consistencyProof: (first, second = this.leaves) => this.answerConsistencyProof(first, second, reader),
    };
  }

  private answerLeafHash(index: number, tiles: TileReader): string {
    this.check(index, 0, this.leaves - 1, 'leaf index outside the tree');
    return this.hashOf(index, index + 1, tiles).toString('hex');
  }

  private answerRoot(treeSize: number, tiles: TileReader): string {
    this.check(treeSize, 0, this.leaves, 'tree size outside the tree');
    return (treeSize === 0 ? EMPTY_ROOT : this.hashOf(0, treeSize, tiles)).toString('hex');
  }

  private answerInclusionProof(index: number, treeSize: number, tiles: TileReader): string[] {
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
        siblings.push(this.hashOf(start + k, end, tiles));
        end = start + k;
      } else {
        siblings.push(this.hashOf(start, start + k, tiles));
        start += k;
      }
    }
    return hexes(siblings.reverse());
  }

  private answerConsistencyProof(first: number, second: number, tiles: TileReader): string[] {
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
        if (!complete) nodes.push(this.hashOf(start, end, tiles));
        break;
      }
      const k = split(end - start);
      if (m <= k) {
        nodes.push(this.hashOf(start + k, end, tiles));
        end = start + k;
      } else {
        nodes.push(this.hashOf(start, start + k, tiles));
        start += k;
        m -= k;
        complete = false;
      }
    }
    return hexes(nodes.reverse());
  }

  /** The tiles `answer` asks `tiles` for: the same walk, with a placeholder for each such subtree. */
  private tilesRead(answer: (tiles: TileReader) => void): number[] {
    const read = new Set<number>();
    answer({
      subtreeHash: (start) => {
        read.add(Math.floor(start / this.tileLeaves));
        return EMPTY_ROOT;
      },
    });
    return [...read].sort((a, b) => a - b);
  }

  /** MTH of leaves [start, end) (start < end <= size). */
  private hashOf(start: number, end: number, tiles: TileReader): Buffer {
    const n = end - start;
    // A power of two aligned on its size: a complete subtree, stored when its last leaf came
    // if it is a tile or more, or inside the last tile.
    if ((n & (n - 1)) === 0 && start % n === 0) {
      const h = 31 - Math.clz32(n);
      if (h >= this.tileHeight || start >= this.leaves - (this.leaves % this.tileLeaves)) return this.node(h, start / n);
      return tiles.subtreeHash(start, end);
    }
    const k = split(n);
    return nodeHash(this.hashOf(start, start + k, tiles), this.hashOf(start + k, end, tiles));
  }

  /** The slot of node `index` of level h: below the tile height, levels hold only the last tile. */
  private slot(h: number, index: number): number {
    return h < this.tileHeight ? index % 2 ** (this.tileHeight - h) : index;
  }

  /** A view of node `index` of level h: valid until the next append grows that level. */
  private node(h: number, index: number): Buffer {
    const slot = this.slot(h, index);
    return this.levels[h]!.subarray(slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
  }

  /** The slot of node `index` of level h, growing the level's buffer when it is full. */
  private store(h: number, index: number): Buffer {
    const slot = this.slot(h, index);
    const level = this.levels[h] ?? Buffer.alloc(0);
    const needed = (slot + 1) * HASH_BYTES;
    if (level.length < needed) {
      let capacity = Math.max(needed, 2 * level.length, 64 * HASH_BYTES);
      // A level below the tile height never holds more than a tile's nodes.
      if (h < this.tileHeight) capacity = Math.min(capacity, 2 ** (this.tileHeight - h) * HASH_BYTES);
      const grown = Buffer.allocUnsafeSlow(capacity);
      level.copy(grown);
      this.levels[h] = grown;
    }
    return this.levels[h]!.subarray(slot * HASH_BYTES, needed);
  }

  private check(value: number, min: number, max: number, message: string): void {
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(message);
  }
}

/** A tree answering from what it holds: asking for a subtree inside an older tile is a caller's mistake. */
const HELD_ONLY: TileReader = {
  subtreeHash(start) {
    throw new RangeError(`leaf ${start} is in a complete tile the tree does not hold: answer withTiles(tilesNeeded…)`);
  },
};

/** Subtree hashes from the leaves of tiles read from the log's store. */
class TileLeaves implements TileReader {
  constructor(
    private readonly tiles: ReadonlyMap<number, Buffer>,
    private readonly tileLeaves: number,
  ) {}

  subtreeHash(start: number, end: number): Buffer {
    const tile = Math.floor(start / this.tileLeaves);
    const leaves = this.tiles.get(tile);
    const from = start - tile * this.tileLeaves;
    const to = end - tile * this.tileLeaves;
    if (!leaves || leaves.length < to * HASH_BYTES) throw new RangeError(`the leaves of tile ${tile} were not given`);
    return mth(leaves, from, to);
  }
}

/** MTH of leaves [from, to) of a run of 32-byte leaf hashes, by the RFC's recursion (a subtree of a tile: a few hundred hashes at most). */
function mth(leaves: Buffer, from: number, to: number): Buffer {
  if (to - from === 1) return leaves.subarray(from * HASH_BYTES, to * HASH_BYTES);
  const k = split(to - from);
  return nodeHash(mth(leaves, from, from + k), mth(leaves, from + k, to));
}

const hexes = (nodes: readonly Buffer[]) => nodes.map((b) => b.toString('hex'));

/** A tree that holds every leaf, for the array functions below (they answer for any index). */
const ALL_LEAVES = 32;

/** The Merkle tree hash of the leaves (the empty tree's is SHA-256 of nothing). */
export function rootOf(leafHashes: readonly string[]): string {
  return MerkleTree.of(leafHashes, ALL_LEAVES).root();
}

/** The inclusion proof (audit path) of leaf `index` in the tree of these leaves. */
export function inclusionProof(leafHashes: readonly string[], index: number): string[] {
  return MerkleTree.of(leafHashes, ALL_LEAVES).inclusionProof(index);
}

/** The consistency proof between the tree of the first `first` leaves and the tree of all of them. */
export function consistencyProof(leafHashes: readonly string[], first: number): string[] {
  return MerkleTree.of(leafHashes, ALL_LEAVES).consistencyProof(first);
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
