/**
 * The per-tool rate limit counts procedure calls, not HTTP requests: each call of a /trpc
 * batch is one point of its own procedure's counter (the REST route's), a limited call is
 * its own 429 entry, a batch has a size limit answered in the batch's own shape, and a path
 * tRPC reads as a procedure (a trailing slash) is counted as that procedure. Through the real
 * server with the real typed client (@trpc/client).
 */
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/lib/server/trpc/router';
import { rawCoil } from '../support/coils';
import { openTestDb, type TestDb } from '../support/db';
import { startServer, type TestServer } from '../support/server';

/** The most calls one /trpc batch may carry (docs/api.md#batches). */
const MAX_BATCH_CALLS = 50;

let limited: TestServer;
let open: TestServer;
let limitedDb: TestDb;
let openDb: TestDb;

beforeAll(async () => {
  [limited, open] = await Promise.all([
    startServer({
      allowPostgres: false,
      env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '300', ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '1' },
    }),
    startServer({ allowPostgres: false }),
  ]);
  limitedDb = openTestDb(limited.databaseUrl);
  openDb = openTestDb(open.databaseUrl);
});
afterAll(async () => {
  await Promise.all([limitedDb?.$disconnect(), openDb?.$disconnect()]);
  await Promise.all([limited?.stop(), open?.stop()]);
});

/** A typed client that batches every call made in one tick, as a client address of its own. */
function batchingClient(server: TestServer, clientAddress: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${server.url}/trpc`, headers: { 'x-forwarded-for': clientAddress } })],
  });
}

/** A distinct answer time per call, so each validation stores a receipt of its own. */
const nowIsoOf = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

const svcCodeOf = (reason: unknown) => (reason instanceof TRPCClientError ? (reason.data as { svcCode?: string })?.svcCode : undefined);

describe('the per-tool limit counts each procedure call', () => {
  it('runs at most RATE_LIMIT_MAX calls of a batch of 50 validateCoil calls; each other call is its own 429 entry', async () => {
    const client = batchingClient(limited, '198.51.100.10');
    const receiptsBefore = await limitedDb.receipt.count();
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => client.tools.validateCoil.mutate({ coil: rawCoil() as never, nowIso: nowIsoOf(i) })),
    );
    const ran = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(ran).toHaveLength(3);
    expect(refused).toHaveLength(47);
    for (const r of refused) {
      expect(svcCodeOf(r.reason)).toBe('RATE_LIMITED');
      expect((r.reason as TRPCClientError<AppRouter>).data?.httpStatus).toBe(429);
    }
    // Nothing but the three calls that ran stored anything.
    expect((await limitedDb.receipt.count()) - receiptsBefore).toBe(3);

    // The REST route of the same procedure shares the spent counter.
    const rest = await limited.post('/api/tools/validate-coil', { coil: rawCoil() }, { 'x-forwarded-for': '198.51.100.10' });
    expect(rest.status).toBe(429);
    expect(rest.json.error.code).toBe('RATE_LIMITED');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('stores at most RATE_LIMIT_MAX sign-in nonces for a batch of 50 auth.nonce calls', async () => {
    const client = batchingClient(limited, '198.51.100.11');
    const noncesBefore = await limitedDb.authNonce.count();
    const settled = await Promise.allSettled(Array.from({ length: 50 }, () => client.auth.nonce.query()));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
    expect((await limitedDb.authNonce.count()) - noncesBefore).toBe(3);
  });

  it('answers a limited call of a raw batch in its own entry, with the code, the status and the seconds to wait', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.12' };
    for (let i = 0; i < 3; i++) expect((await limited.get('/api/vaults', headers)).status).toBe(200);
    const res = await limited.get('/trpc/vaults.list,system.health?batch=1&input=%7B%7D', headers);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json).toHaveLength(2);
    const [list, health] = res.json;
    expect(list.error.data).toMatchObject({ svcCode: 'RATE_LIMITED', httpStatus: 429 });
    expect(list.error.data.retryAfterSeconds).toBeGreaterThan(0);
    expect(health.result.data).toBeDefined();
  });

  it('counts a /trpc path with a trailing slash as the procedure tRPC runs: refused once REST has spent the limit, and nothing runs', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.13' };
    for (let i = 0; i < 3; i++) expect((await limited.post('/api/tools/validate-coil', { coil: rawCoil() }, headers)).status).toBe(200);
    expect((await limited.post('/api/tools/validate-coil', { coil: rawCoil() }, headers)).status).toBe(429);
    const receiptsBefore = await limitedDb.receipt.count();
    const slashed = await limited.post('/trpc/tools.validateCoil/', { coil: rawCoil(), nowIso: nowIsoOf(59) }, headers);
    expect(slashed.status).toBe(429);
    expect(slashed.json.error.data.svcCode).toBe('RATE_LIMITED');
    expect(await limitedDb.receipt.count()).toBe(receiptsBefore);
  });
});

describe('the batch size limit', () => {
  it(`refuses a batch of more than ${MAX_BATCH_CALLS} calls with one BATCH_TOO_LARGE entry per call, running none`, async () => {
    const client = batchingClient(open, '198.51.100.20');
    const receiptsBefore = await openDb.receipt.count();
    const settled = await Promise.allSettled(
      Array.from({ length: MAX_BATCH_CALLS + 1 }, (_, i) =>
        client.tools.validateCoil.mutate({ coil: rawCoil() as never, nowIso: nowIsoOf(i) }),
      ),
    );
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    for (const s of settled) {
      const reason = (s as PromiseRejectedResult).reason as TRPCClientError<AppRouter>;
      expect(svcCodeOf(reason)).toBe('BATCH_TOO_LARGE');
      expect(reason.data?.httpStatus).toBe(400);
    }
    expect(await openDb.receipt.count()).toBe(receiptsBefore);

    // The raw answer is the batch's shape: an array with one error per call.
    const names = Array.from({ length: MAX_BATCH_CALLS + 1 }, () => 'system.health').join(',');
    const raw = await open.get(`/trpc/${names}?batch=1&input=%7B%7D`);
    expect(raw.status).toBe(400);
    expect(Array.isArray(raw.json)).toBe(true);
    expect(raw.json).toHaveLength(MAX_BATCH_CALLS + 1);
    for (const entry of raw.json) expect(entry.error.data.svcCode).toBe('BATCH_TOO_LARGE');
  });

  it('answers a batch the front refuses (a credential field, a body that is not JSON) with one error per call', async () => {
    const receiptsBefore = await openDb.receipt.count();
    const names = 'tools.validateCoil,tools.scoreCoil,tools.validateCoil';
    const withCredential = await open.post(`/trpc/${names}?batch=1`, {
      0: { coil: rawCoil() },
      1: { coil: rawCoil() },
      2: { coil: rawCoil(), wallet: { privateKey: 'svc-batch-credential-1' } },
    });
    expect(withCredential.status).toBe(400);
    expect(withCredential.json).toHaveLength(3);
    for (const entry of withCredential.json) expect(entry.error.data.svcCode).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(withCredential.text).not.toContain('svc-batch-credential-1');

    const notJson = await open.request('POST', `/trpc/${names}?batch=1`, {
      rawBody: '{"0":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toHaveLength(3);
    for (const entry of notJson.json) expect(entry.error.data.svcCode).toBe('BODY_MALFORMED_JSON');
    expect(await openDb.receipt.count()).toBe(receiptsBefore);

    // A single call keeps tRPC's single shape.
    const single = await open.post('/trpc/tools.validateCoil', { coil: rawCoil(), apiKey: 'svc-batch-credential-2' });
    expect(single.status).toBe(400);
    expect(single.json.error.data.svcCode).toBe('CREDENTIAL_FIELD_REJECTED');
  });

  it(`runs a batch of exactly ${MAX_BATCH_CALLS} calls`, async () => {
    const client = batchingClient(open, '198.51.100.21');
    const settled = await Promise.allSettled(Array.from({ length: MAX_BATCH_CALLS }, () => client.system.health.query()));
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
  });
});
