/**
 * MerkleTree (receipts/merkle.ts) against the RFC 9162 recursion it replaced: the same roots,
 * audit paths and consistency proofs, byte for byte, for every tree size up to 70 and every
 * index in it, and for sampled indices of larger trees. The reference below is the recursive
 * implementation the service used before issue 27, kept here as the oracle.
 */
import { createHash } from 'node:crypto';
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
  const mth = (leaves: readonly Buffer[]): Buffer => {
    if (leaves.length === 0) return sha256();
    if (leaves.length === 1) return leaves[0]!;
    const k = split(leaves.length);
    return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
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
  const buffers = (hashes: readonly string[]) => hashes.map((h) => Buffer.from(h, 'hex'));
  const hex = (nodes: Buffer[]) => nodes.map((b) => b.toString('hex'));
  return {
    root: (hashes: readonly string[]) => mth(buffers(hashes)).toString('hex'),
    inclusion: (hashes: readonly string[], index: number) => hex(path(index, buffers(hashes))),
    consistency: (hashes: readonly string[], first: number) =>
      first === 0 || first === hashes.length ? [] : hex(subproof(first, buffers(hashes), true)),
  };
})();

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => leafHashOf(`entry ${i}`));

/** A small deterministic generator, so a failure names the same sizes on the next run. */
function sampler(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

function expectSameAsReference(tree: MerkleTree, all: readonly string[], n: number, indices: Iterable<number>) {
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

describe('MerkleTree', () => {
  it('gives the reference root and proofs for every size up to 70, every index and every first size', () => {
    const all = leavesOf(70);
    const grown = new MerkleTree();
    for (let n = 0; n <= all.length; n++) {
      const every = Array.from({ length: n + 1 }, (_, i) => i);
      // The tree of exactly n leaves, as rootOf and its kin build it.
      expectSameAsReference(MerkleTree.of(all.slice(0, n)), all, n, every);
      // A tree that has grown past n, asked for its earlier sizes.
      if (n > 0) grown.append(all[n - 1]!);
      expect(grown.size).toBe(n);
    }
    for (let n = 0; n <= all.length; n++)
      expectSameAsReference(
        grown,
        all,
        n,
        Array.from({ length: n + 1 }, (_, i) => i),
      );
  });

  it('gives the reference root and sampled proofs for larger trees', () => {
    const next = sampler(27);
    const sizes = [1024, 1025, 4095, 4096, 4097, ...Array.from({ length: 4 }, () => 100 + next(4900))];
    const all = leavesOf(Math.max(...sizes));
    const tree = MerkleTree.of(all);
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
