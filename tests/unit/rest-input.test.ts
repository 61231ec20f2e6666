/**
 * REST inputs (http/dispatch.ts `restInput`): merged the way trpc-to-openapi merged them, and never
 * coerced, so a string is never reinterpreted as a number or a boolean (validation rejects).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryInt } from '../../src/lib/server/trpc/init';

describe('restInput', () => {
  it('a POST takes its body with the path parameters on top; a GET its query, repeated keys as arrays', async () => {
    const { restInput } = await import('../../src/lib/server/http/dispatch');
    const url = new URL('http://x/api/vaults/v2/deposit-intent?ignored=1');
    expect(restInput('POST', url, { slug: 'v2' }, { amount: '1', slug: 'from-body' })).toEqual({ amount: '1', slug: 'v2' });
    expect(restInput('POST', url, {}, undefined)).toEqual({});
    const get = new URL('http://x/api/me/coils?limit=5&tag=a&tag=b&empty=');
    expect(restInput('GET', get, { slug: 's' }, undefined)).toEqual({ limit: '5', tag: ['a', 'b'], empty: '', slug: 's' });
    // The first import loads the whole application router: seconds on a loaded machine.
  }, 30_000);

  it('hands the procedure strings as sent: "false" and "12abc" stay strings and a schema refuses them', async () => {
    const { restInput } = await import('../../src/lib/server/http/dispatch');
    const input = restInput('GET', new URL('http://x/api/r?acknowledged=false&bps=12abc'), {}, undefined);
    expect(input).toEqual({ acknowledged: 'false', bps: '12abc' });
    const schema = z.object({ acknowledged: z.boolean(), bps: z.number() });
    expect(schema.safeParse(input).success).toBe(false);
    expect(schema.safeParse({ acknowledged: 'false', bps: 12 }).success).toBe(false);
  });

  it('queryInt parses digit strings explicitly and refuses anything else', () => {
    const schema = queryInt({ min: 1, max: 100 });
    expect(schema.parse('25')).toBe(25);
    expect(schema.parse(7)).toBe(7);
    expect(schema.safeParse('2.5').success).toBe(false);
    expect(schema.safeParse('12abc').success).toBe(false);
    expect(schema.safeParse('0').success).toBe(false);
  });
});

describe('field names in input errors', () => {
  it('repeats a caller-chosen key only when it reads as a name, never a sentence', async () => {
    const { toSvcError } = await import('../../src/lib/server/trpc/error-map');
    const { TRPCError } = await import('@trpc/server');
    const schema = z.object({ a: z.object({ ok: z.number() }).strict(), b: z.record(z.string(), z.number()) });
    const parsed = schema.safeParse({ a: { ok: 1, 'I sold it all': 1, extraName: 2 }, b: { 'we bought NVDA': 'x', fine_key: 'y' } });
    const svc = toSvcError(new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error }), undefined);
    const text = JSON.stringify(svc.issues);
    expect(text).not.toMatch(/sold|bought/);
    // One issue per unknown key, named by its path; a key that reads as a sentence is never shown.
    expect(svc.issues.map((i) => i.path)).toEqual(['a.(unnamed)', 'a.extraName', 'b.(unnamed)', 'b.fine_key']);
    expect(svc.issues.slice(0, 2).map((i) => [i.code, i.message])).toEqual([
      ['UNRECOGNIZED_KEYS', 'unknown field'],
      ['UNRECOGNIZED_KEYS', 'unknown field'],
    ]);
  });
});
