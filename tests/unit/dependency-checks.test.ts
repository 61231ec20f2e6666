/**
 * The live checks behind readiness (system/dependency-checks.ts): an outcome is reused for its
 * time to live and then asked again, concurrent readers share one check, a check is bounded by
 * its timeout (down: no answer in time), a check that fails decides nothing (unknown), and the
 * overall state never reads configuration as health.
 */
import { describe, expect, it } from 'vitest';
import {
  CachedCheck,
  notConfigured,
  overallReadiness,
  readingOf,
  type DependencyName,
  type DependencyReading,
} from '../../src/lib/server/system/dependency-checks';
import { serverTimeAt } from '../support/clocks';

function clock(startMs = 1_000_000) {
  let ms = startMs;
  return { now: () => serverTimeAt(ms), advance: (by: number) => (ms += by) };
}

describe('CachedCheck', () => {
  it('reuses an outcome within its time to live, asks again after it, and shares one check between concurrent readers', async () => {
    const c = clock();
    let probes = 0;
    const check = new CachedCheck(async () => ++probes, { ttlMs: 10_000, timeoutMs: 1000, now: c.now });
    const [a, b] = await Promise.all([check.read(), check.read()]);
    expect(probes).toBe(1);
    expect(a).toBe(b);
    c.advance(9_999);
    expect(await check.read()).toBe(a);
    c.advance(1);
    const later = await check.read();
    expect(probes).toBe(2);
    expect(later).toMatchObject({ kind: 'answered', value: 2 });
    expect(later.checkedAt.getTime()).toBe(a.checkedAt.getTime() + 10_000);
  });

  it('a check that does not finish within its timeout is down (no answer in time); one that throws is unknown', async () => {
    const c = clock();
    const hung = new CachedCheck(() => new Promise<number>(() => undefined), { ttlMs: 0, timeoutMs: 20, now: c.now });
    const outcome = await hung.read();
    expect(outcome).toMatchObject({ kind: 'timed_out', timeoutMs: 20 });
    expect(readingOf(outcome, () => ({ state: 'ok', reason: 'never' }))).toMatchObject({ state: 'down', reason: 'no answer within 20 ms' });

    const broken = new CachedCheck<number>(
      async () => {
        throw new Error('probe bug');
      },
      { ttlMs: 0, timeoutMs: 1000, now: c.now },
    );
    expect(readingOf(await broken.read(), () => ({ state: 'ok', reason: 'never' }))).toMatchObject({ state: 'unknown' });
  });
});

describe('overallReadiness', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const ok: DependencyReading = { state: 'ok', checkedAt: at, reason: 'answers' };
  const all = (over: Partial<Record<DependencyName, DependencyReading>>): Record<DependencyName, DependencyReading> => ({
    database: ok,
    chain: notConfigured('chain'),
    rateLimitStore: notConfigured('rateLimitStore'),
    facilitator: notConfigured('facilitator'),
    partner: notConfigured('partner'),
    ...over,
  });

  it('is ready when every configured dependency is ok, degraded when one is not, not_ready unless the database is ok', () => {
    expect(overallReadiness(all({}))).toBe('ready');
    expect(overallReadiness(all({ chain: ok, rateLimitStore: ok, facilitator: ok, partner: ok }))).toBe('ready');
    for (const state of ['down', 'degraded', 'unknown'] as const) {
      expect(overallReadiness(all({ rateLimitStore: { state, checkedAt: at, reason: 'x' } }))).toBe('degraded');
      expect(overallReadiness(all({ database: { state, checkedAt: at, reason: 'x' } }))).toBe('not_ready');
    }
  });
});
