/**
 * MerkleTree (receipts/merkle.ts) against the RFC 9162 recursion it replaced: the same roots,
 * audit paths and consistency proofs, byte for byte, for every tree size up to 70 and every
 * index in it, and for sampled indices of larger trees. The reference below is the recursive
 * implementation the service used before issue 27, kept here as the oracle (its subtree hashes
 * memoized, so the larger trees stay quick; the recursion is the same).
 *
 * The tree holds only whole tiles and the last tile's leaves: each answer below is given only
 * the tiles its `tilesNeeded…` names, so a tile it needs but does not name fails the test. Small
 * tile heights (2 and 3: tiles of 4 and 8 leaves) put many tile boundaries in small trees.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  inclusionProof,
  leafHashOf,
  MerkleTree,
  rootOf,
  type ReadonlyMerkleTree,
  verifyConsistency,
  verifyInclusion,
} from '../../src/lib/server/receipts/merkle';

const reference = (() => {
  const sha256 = (...parts: Buffer[]) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest();
  };
  const nodeHash = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);
  const split = (n: number) => {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  };
  // Keyed by the first leaf and the length: the test's leaf hashes are all different.
  const memo = new Map<string, Buffer>();
  const mth = (leaves: readonly Buffer[]): Buffer => {
    if (leaves.length === 0) return sha256();
    if (leaves.length === 1) return leaves[0]!;
    const key = `${leaves[0]!.toString('hex')}:${leaves.length}`;
    const known = memo.get(key);
    if (known) return known;
    const k = split(leaves.length);
    const hash = nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
    memo.set(key, hash);
    return hash;
  };
  const path = (m: number, leaves: readonly Buffer[]): Buffer[] => {
    if (leaves.length <= 1) return [];
    const k = split(leaves.length);
    return m < k ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
  };
  const subproof = (m: number, leaves: readonly Buffer[], complete: boolean): Buffer[] => {
    const n = leaves.length;
    if (m === n) return complete ? [] : [mth(leaves)];
    const k = split(n);
    return m <= k
      ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
      : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
  };
  const bytes = new Map<string, Buffer>();
  const buffers = (hashes: readonly string[]) => hashes.map((h) => bytes.get(h) ?? (bytes.set(h, Buffer.from(h, 'hex')), bytes.get(h)!));
  const hex = (nodes: Buffer[]) => nodes.map((b) => b.toString('hex'));
  return {
    root: (hashes: readonly string[]) => mth(buffers(hashes)).toString('hex'),
    inclusion: (hashes: readonly string[], index: number) => hex(path(index, buffers(hashes))),
    consistency: (hashes: readonly string[], first: number) =>
      first === 0 || first === hashes.length ? [] : hex(subproof(first, buffers(hashes), true)),
  };
})();

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => leafHashOf(`entry ${i}`));
/** 0..n: every leaf index of a tree of size n, and every size a consistency proof to n may start from. */
const indicesThrough = (n: number) => Array.from({ length: n + 1 }, (_, i) => i);

/** A small deterministic generator, so a failure names the same sizes on the next run. */
function sampler(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

function expectSameAsReference(tree: ReadonlyMerkleTree, all: readonly string[], n: number, indices: Iterable<number>) {
  const leaves = all.slice(0, n);
  const root = reference.root(leaves);
  expect(tree.root(n), `root ${n}`).toBe(root);
  for (const i of indices) {
    if (i < n) {
      const proof = tree.inclusionProof(i, n);
      expect(proof, `inclusion ${i} of ${n}`).toEqual(reference.inclusion(leaves, i));
      expect(verifyInclusion(leaves[i]!, i, n, proof, root)).toBe(true);
    }
    if (i <= n) {
      const proof = tree.consistencyProof(i, n);
      expect(proof, `consistency ${i} to ${n}`).toEqual(reference.consistency(leaves, i));
      expect(verifyConsistency(i, n, reference.root(all.slice(0, i)), root, proof)).toBe(true);
    }
  }
}

/** The tiles of `all` a tree of height-`tileHeight` tiles is given: tile t is leaves [t * 2^H, (t + 1) * 2^H). */
function tilesOf(all: readonly string[], tiles: readonly number[], tileSize: number): Map<number, string[]> {
  return new Map(tiles.map((t) => [t, all.slice(t * tileSize, (t + 1) * tileSize)]));
}

/** The tree, given every complete tile of its leaves. */
function withEveryTile(tree: MerkleTree, all: readonly string[]): ReadonlyMerkleTree {
  const complete = Math.floor(tree.size / tree.tileSize);
  return tree.withTiles(
    tilesOf(
      all,
      Array.from({ length: complete }, (_, t) => t),
      tree.tileSize,
    ),
  );
}

/**
 * The tiled trees' answers, each given only the tiles it names, against the reference; and the
 * tiles named are at most those the design allows: the last tile of each size asked for, and
 * the leaf's own tile.
 */
function expectTiledSameAsReference(trees: readonly MerkleTree[], all: readonly string[], n: number, indices: Iterable<number>) {
  const leaves = all.slice(0, n);
  const root = reference.root(leaves);
  const expected = [...new Set(indices)].map((i) => ({
    i,
    inclusion: i < n ? reference.inclusion(leaves, i) : undefined,
    consistency: i <= n ? reference.consistency(leaves, i) : undefined,
  }));
  for (const tree of trees) {
    const t = tree.tileSize;
    const given = (tiles: number[]) => tree.withTiles(tilesOf(all, tiles, t));
    /** The tile that holds the last leaves of a tree of `size`, if they do not fill it. */
    const partial = (size: number) => (size % t === 0 ? [] : [Math.floor(size / t)]);
    const within = (tiles: number[], allowed: number[]) => tiles.every((tile) => allowed.includes(tile));
    const rootTiles = tree.tilesNeededForRoot(n);
    expect(within(rootTiles, partial(n)), `root tiles ${n}, tile ${t}`).toBe(true);
    expect(given(rootTiles).root(n), `root ${n}, tile ${t}`).toBe(root);
    for (const { i, inclusion, consistency } of expected) {
      if (inclusion) {
        const tiles = tree.tilesNeededForInclusion(i, n);
        expect(within(tiles, [...partial(n), Math.floor(i / t)]), `inclusion tiles ${i} of ${n}, tile ${t}`).toBe(true);
        const answering = given(tiles);
        expect(answering.leafHash(i)).toBe(all[i]);
        expect(answering.inclusionProof(i, n), `inclusion ${i} of ${n}, tile ${t}`).toEqual(inclusion);
      }
      if (consistency) {
        const tiles = tree.tilesNeededForConsistency(i, n);
        expect(within(tiles, [...partial(i), ...partial(n)]), `consistency tiles ${i} to ${n}, tile ${t}`).toBe(true);
        expect(given(tiles).consistencyProof(i, n), `consistency ${i} to ${n}, tile ${t}`).toEqual(consistency);
      }
    }
  }
}

// Thousands of answers against the reference: more than the default 5 s on a busy machine.
describe('MerkleTree in tiles', { timeout: 60_000 }, () => {
  const all = leavesOf(5000);
  const heights = [2, 3, 8];
  const grown = heights.map((h) => MerkleTree.of(all.slice(0, 600), h));
  const around = (t: number) => [t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1];

  it('gives the reference root of every size up to 600, and sampled proofs of each, from the tiles it names', () => {
    const next = sampler(9162);
    const exact = heights.map((h) => new MerkleTree(h));
    for (let n = 0; n <= 600; n++) {
      const indices = [0, n - 1, n, n >> 1, ...Array.from({ length: 3 }, () => next(n + 1))].filter((i) => i >= 0);
      expectTiledSameAsReference(grown, all, n, indices);
      // A tree of exactly n leaves holds its last tile: its root needs no tile read.
      for (const tree of exact) {
        expect(tree.tilesNeededForRoot(n)).toEqual([]);
        expect(tree.root()).toBe(reference.root(all.slice(0, n)));
        tree.append(all[n]!);
      }
    }
  });

  it('gives every proof of the reference at sizes around tile boundaries', () => {
    const sizes = [...new Set([...heights.flatMap((h) => around(2 ** h)), 600])].sort((a, b) => a - b);
    for (const n of sizes) expectTiledSameAsReference(grown, all, n, indicesThrough(n));
  });

  it('gives the reference root and sampled proofs of larger trees', () => {
    const next = sampler(27);
    const sizes = [1023, 1024, 1025, 4095, 4096, 4097, 5000, ...Array.from({ length: 6 }, () => 600 + next(4400))];
    const trees = heights.map((h) => MerkleTree.of(all, h));
    for (const n of sizes) {
      const indices = [0, 1, n - 1, n, n >> 1, ...around(256), ...Array.from({ length: 12 }, () => next(n + 1))];
      expectTiledSameAsReference(trees, all, n, indices);
    }
  });

  it('refuses an answer that needs a tile it was not given, and a tile that is not a whole tile', () => {
    const tree = MerkleTree.of(all.slice(0, 20), 2);
    expect(tree.root()).toBe(reference.root(all.slice(0, 20)));
    expect(() => tree.root(10)).toThrow(RangeError);
    expect(() => tree.leafHash(0)).toThrow(RangeError);
    expect(() => tree.withTiles(new Map()).inclusionProof(0, 20)).toThrow(RangeError);
    expect(() => tree.withTiles(new Map([[0, all.slice(0, 3)]]))).toThrow(TypeError);
    expect(() => new MerkleTree(0)).toThrow(RangeError);
  });

  it('keeps answering from a view taken before the tree grew past its last tile', () => {
    const tree = MerkleTree.of(all.slice(0, 6), 2);
    const view = tree.withTiles(new Map());
    for (const leaf of all.slice(6, 13)) tree.append(leaf);
    expect(view.root(6)).toBe(reference.root(all.slice(0, 6)));
    expect(view.inclusionProof(5, 6)).toEqual(reference.inclusion(all.slice(0, 6), 5));
  });

  it('holds about a quarter of a byte a leaf, where every leaf and node took 64', () => {
    const leaves = leavesOf(100_000);
    const tree = MerkleTree.of(leaves);
    expect(tree.root()).toBe(rootOf(leaves));
    // The tree that kept every node held about 6.4 MB here.
    expect(tree.heldBytes).toBeLessThan(1_000_000);
    expect(tree.heldBytes).toBeLessThan(0.5 * leaves.length + 64 * 1024);
  });
});

describe('MerkleTree', () => {
  it('gives the reference root and proofs for every size up to 70, every index and every first size', () => {
    const all = leavesOf(70);
    const grown = new MerkleTree();
    for (let n = 0; n <= all.length; n++) {
      const every = indicesThrough(n);
      // The tree of exactly n leaves, as rootOf and its kin build it.
      expectSameAsReference(MerkleTree.of(all.slice(0, n)), all, n, every);
      // A tree that has grown past n, asked for its earlier sizes.
      if (n > 0) grown.append(all[n - 1]!);
      expect(grown.size).toBe(n);
    }
    for (let n = 0; n <= all.length; n++) expectSameAsReference(grown, all, n, indicesThrough(n));
  });

  it('gives the reference root and sampled proofs for larger trees', () => {
    const next = sampler(27);
    const sizes = [1024, 1025, 4095, 4096, 4097, ...Array.from({ length: 4 }, () => 100 + next(4900))];
    const all = leavesOf(Math.max(...sizes));
    const tree = withEveryTile(MerkleTree.of(all), all);
    for (const n of sizes) {
      const indices = [0, 1, n - 1, n, n >> 1, ...Array.from({ length: 12 }, () => next(n + 1))];
      expectSameAsReference(tree, all, n, indices);
      expect(MerkleTree.of(all.slice(0, n)).root()).toBe(tree.root(n));
    }
  });

  it('keeps the array functions the callers had', () => {
    const leaves = leavesOf(13);
    expect(rootOf(leaves)).toBe(reference.root(leaves));
    expect(rootOf([])).toBe(reference.root([]));
    expect(inclusionProof(leaves, 5)).toEqual(reference.inclusion(leaves, 5));
    expect(consistencyProof(leaves, 6)).toEqual(reference.consistency(leaves, 6));
    expect(() => inclusionProof(leaves, 13)).toThrow(RangeError);
    expect(() => consistencyProof(leaves, 14)).toThrow(RangeError);
  });

  it('answers the leaves it was given, and refuses sizes it does not have and leaves that are not hashes', () => {
    const leaves = leavesOf(5);
    const tree = MerkleTree.of(leaves);
    expect(leaves.map((_, i) => tree.leafHash(i))).toEqual(leaves);
    expect(() => tree.root(6)).toThrow(RangeError);
    expect(() => tree.leafHash(5)).toThrow(RangeError);
    expect(() => tree.inclusionProof(3, 3)).toThrow(RangeError);
    expect(() => tree.inclusionProof(0, 6)).toThrow(RangeError);
    expect(() => tree.consistencyProof(4, 3)).toThrow(RangeError);
    expect(() => tree.consistencyProof(1, 6)).toThrow(RangeError);
    expect(() => tree.append('swap')).toThrow(TypeError);
    expect(() => tree.append(leaves[0]!.toUpperCase())).toThrow(TypeError);
    expect(tree.size).toBe(5);
  });
});
