/** Provenance (fork depth) and the agent passport (interface 2.6) as pure functions. */
import { describe, expect, it } from 'vitest';
import { computePassport, PASSPORT_COMPONENTS, PASSPORT_POLICY_VERSION } from '../../src/lib/server/receipts/passport';
import { renderProvenance, type LineageNode } from '../../src/lib/server/receipts/provenance';

const h = (n: number) => n.toString(16).padStart(64, '0');

function chainOf(length: number): Map<string, LineageNode> {
  const nodes = new Map<string, LineageNode>();
  for (let i = 0; i < length; i++) {
    nodes.set(h(i + 1), {
      manifestHash: h(i + 1),
      parentManifestHash: i === 0 ? null : h(i),
      slug: `coil-${i}`,
      receiptIds: [`hrcpt_${i}`],
    });
  }
  return nodes;
}

describe('provenance', () => {
  it.each([
    [0, 1],
    [1, 2],
    [3, 4],
  ])('fork depth %i for a chain of %i manifests, rendered root first', (depth, length) => {
    const nodes = chainOf(length);
    const provenance = renderProvenance(h(length), (x) => nodes.get(x));
    expect(provenance.forkDepth).toBe(depth);
    expect(provenance.rootManifestHash).toBe(h(1));
    expect(provenance.chain.map((l) => l.slug)).toEqual(Array.from({ length }, (_, i) => `coil-${i}`));
    expect(provenance.chain.map((l) => l.depth)).toEqual(Array.from({ length }, (_, i) => i));
    expect(provenance.chain.at(-1)!.manifestHash).toBe(h(length));
    expect(provenance.rootUnresolved).toBe(false);
  });

  it('names an ancestor that is not stored and counts it', () => {
    const nodes = new Map<string, LineageNode>([[h(9), { manifestHash: h(9), parentManifestHash: h(8), slug: 'child', receiptIds: [] }]]);
    const provenance = renderProvenance(h(9), (x) => nodes.get(x));
    expect(provenance.forkDepth).toBe(1);
    expect(provenance.rootUnresolved).toBe(true);
    expect(provenance.chain[0]).toMatchObject({ manifestHash: h(8), stored: false, slug: null });
  });

  it('stops on a cycle', () => {
    const nodes = new Map<string, LineageNode>([
      [h(1), { manifestHash: h(1), parentManifestHash: h(2), slug: 'a', receiptIds: [] }],
      [h(2), { manifestHash: h(2), parentManifestHash: h(1), slug: 'b', receiptIds: [] }],
    ]);
    const provenance = renderProvenance(h(1), (x) => nodes.get(x));
    expect(provenance.cycleDetected).toBe(true);
    expect(provenance.chain).toHaveLength(2);
  });
});

describe('agent passport', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('documents caps that sum to 1000 with the spec multipliers', () => {
    expect(Object.values(PASSPORT_COMPONENTS).reduce((s, c) => s + c.cap, 0)).toBe(1000);
    expect(PASSPORT_COMPONENTS.manifestsCoiled.multiplier).toBe(6);
    expect(PASSPORT_COMPONENTS.forksReceived.multiplier).toBe(5);
    expect(PASSPORT_COMPONENTS.averageScore.multiplier).toBe(2);
    expect(PASSPORT_COMPONENTS.receipts.multiplier).toBe(2);
  });

  it('adds capped points', () => {
    const passport = computePassport('mock', 'strategist', { manifestsCoiled: 10, forksReceived: 3, averageScore: 80, receipts: 25 }, now);
    expect(passport.components.map((c) => [c.name, c.points, c.capped])).toEqual([
      ['manifestsCoiled', 60, false],
      ['forksReceived', 15, false],
      ['averageScore', 160, false],
      ['receipts', 50, false],
    ]);
    expect(passport.reputation).toBe(285);
    expect(passport).toMatchObject({ policyVersion: PASSPORT_POLICY_VERSION, maxReputation: 1000, asOf: '2026-01-01T00:00:00.000Z' });
  });

  it('caps every component and the total at 1000', () => {
    const passport = computePassport(
      'mock',
      'strategist',
      { manifestsCoiled: 51, forksReceived: 999, averageScore: 100, receipts: 126 },
      now,
    );
    expect(passport.components.map((c) => [c.points, c.capped])).toEqual([
      [300, true],
      [250, true],
      [200, false],
      [250, true],
    ]);
    expect(passport.reputation).toBe(1000);
    const atCap = computePassport('mock', 'strategist', { manifestsCoiled: 50, forksReceived: 50, averageScore: 100, receipts: 125 }, now);
    expect(atCap.components.every((c) => !c.capped)).toBe(true);
    expect(atCap.reputation).toBe(1000);
  });

  it('treats an agent without Coils as unknown score, not zero score, and scores 0', () => {
    const passport = computePassport(
      '0x' + '12'.repeat(20),
      'wallet',
      { manifestsCoiled: 0, forksReceived: 0, averageScore: null, receipts: 0 },
      now,
    );
    expect(passport.components.find((c) => c.name === 'averageScore')).toMatchObject({ value: null, points: 0 });
    expect(passport.reputation).toBe(0);
  });
});
