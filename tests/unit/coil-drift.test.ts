/** Drift check (interface 2.7), with the threshold edges and a property test. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ABORT_CONDITIONS, breaches, driftCheck } from '../../src/lib/server/coil/drift';
import type { Coil } from '../../src/lib/server/coil/manifest';
import { makeCoil } from '../support/coils';

const NOW = new Date('2026-01-01T00:00:00Z');
const coil = makeCoil({ rebalancePolicy: { method: 'drift', driftThresholdBps: 500 } }); // NVDA 4000, AMD 3000, MSFT 3000

function check(current: Record<string, number> | undefined, c: Coil = coil) {
  return driftCheck({ coil: c, coilId: 'coil_x', manifestHash: 'f'.repeat(64), currentWeightsBps: current, now: NOW });
}

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  return out;
}

describe('threshold edges', () => {
  it('breaches exactly at the threshold, in both directions', () => {
    const report = check({ NVDA: 4500, AMD: 2500, MSFT: 3000 });
    expect(report.entries.map((e) => [e.symbol, e.driftBps, e.breachesThreshold])).toEqual([
      ['NVDA', 500, true],
      ['AMD', -500, true],
      ['MSFT', 0, false],
    ]);
    expect(report.breachCount).toBe(2);
  });

  it('does not breach one bps under the threshold', () => {
    const report = check({ NVDA: 4499, AMD: 2501, MSFT: 3000 });
    expect(report.entries.map((e) => e.breachesThreshold)).toEqual([false, false, false]);
    expect(report.breachCount).toBe(0);
    expect(report.proposal).toBeUndefined();
  });

  it('breaches one bps over the threshold', () => {
    expect(check({ NVDA: 4501, AMD: 2499, MSFT: 3000 }).breachCount).toBe(2);
  });

  it("uses the Coil policy's threshold", () => {
    const tight = makeCoil({ rebalancePolicy: { method: 'drift', driftThresholdBps: 100 } });
    const report = check({ NVDA: 4100, AMD: 2900, MSFT: 3000 }, tight);
    expect(report.thresholdBps).toBe(100);
    expect(report.breachCount).toBe(2);
  });
});

describe('the report', () => {
  it('carries the spec fields and the fixed disclaimer', () => {
    const report = check({ NVDA: 4000, AMD: 3000, MSFT: 3000 });
    expect(report).toMatchObject({
      coilId: 'coil_x',
      manifestHash: 'f'.repeat(64),
      generatedAt: '2026-01-01T00:00:00.000Z',
      thresholdBps: 500,
      breachCount: 0,
      readingStatus: 'complete',
    });
    expect(report.disclaimer).toContain('no order is placed');
  });

  it('proposes previews only when something breaches, with human confirmation and three abort conditions', () => {
    const report = check({ NVDA: 5000, AMD: 2000, MSFT: 3000 });
    const proposal = report.proposal!;
    expect(proposal).toMatchObject({ status: 'proposal', requiresHumanConfirmation: true, executable: false, requiresUserApproval: true });
    expect(proposal.intents.map((i) => [i.symbol, i.side, i.status])).toEqual([
      ['NVDA', 'sell', 'preview'],
      ['AMD', 'buy', 'preview'],
    ]);
    for (const intent of proposal.intents) {
      expect(intent.abortConditions).toEqual([...ABORT_CONDITIONS]);
      expect(intent.abortConditions).toHaveLength(3);
      expect(intent.abortConditions[0]).toMatch(/not confirmed this specific order/);
      expect(intent.abortConditions[1]).toMatch(/fuse/);
      expect(intent.abortConditions[2]).toMatch(/stale or missing account data|account data is stale or missing/);
      expect(intent.fuseChecks.length).toBeGreaterThan(0);
      expect(intent).toMatchObject({ orderType: 'limit', timeInForce: 'day', maxDailyTurnoverBps: 2000 });
      expect(intent.reason).toContain(intent.symbol);
    }
    const keys = keysDeep(report);
    for (const k of ['notional', 'notionalUsd', 'quantity', 'qty', 'amount']) expect(keys.has(k)).toBe(false);
  });

  it('says there is no reading when current weights are missing, and invents none', () => {
    const report = check(undefined);
    expect(report.readingStatus).toBe('missing');
    expect(report.entries.every((e) => e.currentWeightBps === null && e.driftBps === null && !e.breachesThreshold)).toBe(true);
    expect(report.breachCount).toBe(0);
    expect(report.proposal).toBeUndefined();
    expect(report.note).toMatch(/no weights are invented/);
  });

  it('marks a partial reading and treats missing symbols as unknown', () => {
    const report = check({ NVDA: 5000 });
    expect(report.readingStatus).toBe('partial');
    expect(report.entries.find((e) => e.symbol === 'AMD')).toMatchObject({
      currentWeightBps: null,
      reading: 'missing',
      breachesThreshold: false,
    });
    expect(report.breachCount).toBe(1);
  });

  it('counts a holding outside the basket against a target of zero', () => {
    const report = check({ NVDA: 4000, AMD: 3000, MSFT: 2400, tsla: 600 });
    expect(report.entries.at(-1)).toMatchObject({
      symbol: 'TSLA',
      targetWeightBps: 0,
      currentWeightBps: 600,
      driftBps: 600,
      breachesThreshold: true,
    });
    expect(report.proposal!.intents.map((i) => [i.symbol, i.side])).toEqual([
      ['MSFT', 'buy'],
      ['TSLA', 'sell'],
    ]);
  });
});

describe('property: drift = current - target, breach iff |drift| >= threshold', () => {
  it('holds for any weights and threshold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 3, maxLength: 3 }),
        (current, threshold, presentMask) => {
          const c = makeCoil({ rebalancePolicy: { method: 'drift', driftThresholdBps: threshold } });
          const readings: Record<string, number> = {};
          ['NVDA', 'AMD', 'MSFT'].forEach((s, i) => {
            if (presentMask[i]! % 4 !== 0) readings[s] = current[i]!;
          });
          const report = check(readings, c);
          let breached = 0;
          for (const entry of report.entries) {
            if (entry.currentWeightBps === null) {
              expect(entry.breachesThreshold).toBe(false);
              continue;
            }
            expect(entry.driftBps).toBe(entry.currentWeightBps - entry.targetWeightBps);
            expect(entry.breachesThreshold).toBe(Math.abs(entry.driftBps!) >= threshold);
            expect(entry.breachesThreshold).toBe(breaches(entry.driftBps!, threshold));
            if (entry.breachesThreshold) breached++;
          }
          expect(report.breachCount).toBe(breached);
          expect(report.proposal === undefined).toBe(breached === 0);
          if (report.proposal) expect(report.proposal.intents).toHaveLength(breached);
        },
      ),
      { numRuns: 300 },
    );
  });
});
