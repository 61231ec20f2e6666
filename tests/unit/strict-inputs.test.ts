/**
 * trpc-to-openapi switches zod coercion on for body fields; the service pins it off so
 * that a string is never reinterpreted as a number or a boolean (validation rejects).
 */
import { initTRPC, type AnyProcedure } from '@trpc/server';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pinInputCoercion, queryInt } from '../../src/lib/server/trpc/strict-inputs';

function makeRouter() {
  const t = initTRPC.meta<OpenApiMeta>().create();
  return t.router({
    ack: t.procedure
      .meta({ openapi: { method: 'POST', path: '/ack' } })
      .input(z.object({ acknowledged: z.boolean(), bps: z.number().int(), nested: z.object({ flag: z.boolean() }).optional() }))
      .output(z.object({ acknowledged: z.boolean(), bps: z.number() }))
      .mutation(({ input }) => ({ acknowledged: input.acknowledged, bps: input.bps })),
  });
}

async function call(router: ReturnType<typeof makeRouter>, body: unknown) {
  const res = await createOpenApiFetchHandler({
    endpoint: '/api',
    router,
    req: new Request('http://x/api/ack', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    createContext: () => ({}),
  });
  return res.status;
}

describe('pinInputCoercion', () => {
  it('without the pin the adapter would accept "false" as a boolean (the hazard)', async () => {
    expect(await call(makeRouter(), { acknowledged: 'false', bps: '12' })).toBe(200);
  });

  it('with the pin, string booleans and numbers are rejected at any depth', async () => {
    const router = makeRouter();
    pinInputCoercion(router._def.procedures as unknown as Record<string, AnyProcedure>);
    expect(await call(router, { acknowledged: 'false', bps: 12 })).toBe(400);
    expect(await call(router, { acknowledged: true, bps: '12' })).toBe(400);
    expect(await call(router, { acknowledged: true, bps: 12, nested: { flag: 'true' } })).toBe(400);
    expect(await call(router, { acknowledged: true, bps: 12, nested: { flag: true } })).toBe(200);
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
