import { describe, expect, it } from 'vitest';
import { parseIsoInstant, resolveClock } from '../../src/lib/server/clock';
import { SvcError } from '../../src/lib/server/errors';
import { serverTimeAt } from '../support/clocks';

describe('clock', () => {
  it.each(['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.123Z', '2026-06-30T23:59:59+02:00', '2026-01-01T10:00Z'])('accepts %s', (iso) => {
    expect(parseIsoInstant(iso)).toBeInstanceOf(Date);
  });

  it.each(['2026-01-01', '2026-01-01T00:00:00', 'yesterday', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', ''])(
    'rejects %s',
    (iso) => {
      expect(parseIsoInstant(iso)).toBeUndefined();
    },
  );

  it('pins the clock to nowIso, or uses the wall clock', () => {
    expect(resolveClock('2026-01-01T00:00:00Z').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const arrival = serverTimeAt('2030-01-01T00:00:00Z');
    expect(resolveClock(undefined, arrival)).toBe(arrival);
  });

  it('throws NOW_ISO_INVALID for a bad value', () => {
    expect(() => resolveClock('nope')).toThrow(SvcError);
    expect(() => resolveClock(42)).toThrowError(/ISO 8601/);
  });
});
