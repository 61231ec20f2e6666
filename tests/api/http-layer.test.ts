/**
 * The shared HTTP layer, through the real built server: bodies, size cap, validation
 * envelopes, credential guard, output guard, invariants, clock, logs, 404/405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const SEED12 = 'abandon ability able about above absent absorb abstract absurd abuse access accident';

describe('JSON bodies', () => {
  it('rejects malformed JSON with 400 BODY_MALFORMED_JSON in the tools envelope', async () => {
    const res = await server.request('POST', '/api/stocks/registry/resolve', {
      rawBody: '{"ticker":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('BODY_MALFORMED_JSON');
    expect(res.json.error.message).toEqual(expect.any(String));
    expect(res.json.error.issues[0]).toMatchObject({ code: 'BODY_MALFORMED_JSON', message: expect.any(String) });
  });

  it.each([['[1,2]'], ['"NVDA"'], ['42'], ['null']])('rejects the non-object body %s with BODY_NOT_OBJECT', async (raw) => {
    const res = await server.request('POST', '/api/stocks/registry/resolve', {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('BODY_NOT_OBJECT');
  });

  it('rejects a non-JSON content type', async () => {
    const res = await server.request('POST', '/api/stocks/registry/resolve', {
      rawBody: 'ticker=NVDA',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('BODY_CONTENT_TYPE');
  });

  it('gives zod failures as 400 with field-level issues', async () => {
    const res = await server.post('/api/stocks/registry/resolve', { ticker: 42, address: ['x'] });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INPUT_INVALID');
    const paths = res.json.error.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['ticker', 'address']));
    for (const issue of res.json.error.issues) expect(issue).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('answers a valid body', async () => {
    const res = await server.post('/api/stocks/registry/resolve', { ticker: 'nvda' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'canonical', asset: { ticker: 'NVDA' } });
  });
});

describe('256 KB body cap', () => {
  const big = JSON.stringify({ ticker: 'NVDA', pad: 'x'.repeat(256 * 1024) });

  it('answers 413 BODY_TOO_LARGE for a declared oversize body', async () => {
    const res = await server.request('POST', '/api/stocks/registry/resolve', {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('BODY_TOO_LARGE');
  });

  it('cuts a chunked body with no content-length at the cap', async () => {
    const bytes = new TextEncoder().encode(big);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + 32 * 1024));
        offset += 32 * 1024;
      },
    });
    const res = await fetch(`${server.url}/api/stocks/registry/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('BODY_TOO_LARGE');
  });

  it('accepts a body just under the cap', async () => {
    const body = JSON.stringify({ ticker: 'NVDA', pad: 'x'.repeat(200 * 1024) });
    const res = await server.request('POST', '/api/stocks/registry/resolve', {
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });
});

describe('credential guard', () => {
  it.each([
    [{ privateKey: 'deadbeef-not-a-real-key' }, 'privateKey'],
    [{ deep: { nested: [{ seed_phrase: 'hidden-value-123' }] } }, 'deep.nested.0.seed_phrase'],
    [{ ticker: 'NVDA', 'api-key': 'hidden-value-123' }, 'api-key'],
    [{ ticker: 'NVDA', brokerageLogin: { user: 'a', pass: 'hidden-value-123' } }, 'brokerageLogin'],
    [{ ticker: 'NVDA', accessToken: 'hidden-value-123' }, 'accessToken'],
    [{ ticker: 'NVDA', note: SEED12 }, 'note'],
    [{ ticker: 'NVDA', note: '-----BEGIN EC PRIVATE KEY-----\nhidden-value-123\n-----END EC PRIVATE KEY-----' }, 'note'],
  ])('rejects %j before processing, without echoing the value', async (body, path) => {
    const res = await server.post('/api/stocks/registry/resolve', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(res.json.error.issues.map((i: { path: string }) => i.path)).toContain(path);
    expect(res.text).not.toContain('hidden-value-123');
    expect(res.text).not.toContain('abandon');
    expect(server.logs.join('\n')).not.toContain('hidden-value-123');
  });

  it('rejects credential-looking query parameters too', async () => {
    const res = await server.get('/api/health?password=hidden-value-123');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(res.text).not.toContain('hidden-value-123');
  });
});

describe('output guard', () => {
  it("never turns the caller's own words into a 500: the resolver names no caller text in its message", async () => {
    const res = await server.post('/api/stocks/registry/resolve', { ticker: 'Trade executed.' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'unknown_ticker', message: 'no canonical asset has this ticker' });
  });

  it('lets honest text through', async () => {
    const res = await server.post('/api/stocks/registry/resolve', { ticker: 'ZZZZ' });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('unknown_ticker');
  });
});

describe('invariants', () => {
  it('stamps notInvestmentAdvice and liveOrderSent on a stamped family (agents schema)', async () => {
    const res = await server.get('/api/agents/schema');
    expect(res.status).toBe(200);
    expect(res.json.notInvestmentAdvice).toBe(true);
    expect(res.json.liveOrderSent).toBe(false);
    expect(res.json.rails).toEqual(['rail_a_vault_deposit', 'rail_b_partner_stock_token', 'rail_c_broker_wallet_external']);
    expect(res.json.mcpToolCount).toBe(34);
  });

  it("stamps them on that family's error envelopes too", async () => {
    const res = await server.get('/api/agents/schema?nowIso=not-a-date');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'NOW_ISO_INVALID' }, notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('does not add them where the spec does not ask (health)', async () => {
    const res = await server.get('/api/health');
    expect(res.json.notInvestmentAdvice).toBeUndefined();
  });
});

describe('clock', () => {
  it('pins every timestamp: the same request with the same nowIso is byte-identical', async () => {
    const a = await server.get('/api/x402/providers?nowIso=2026-01-02T03:04:05Z');
    const b = await server.get('/api/x402/providers?nowIso=2026-01-02T03:04:05Z');
    expect(a.status).toBe(200);
    expect(a.json.generatedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(a.text).toBe(b.text);
    // Readiness reports live checks: nowIso pins when it answered, never when a check ran.
    const readiness = (await server.get('/api/readiness?nowIso=2026-01-02T03:04:05Z')).json;
    expect(readiness.answeredAt).toBe('2026-01-02T03:04:05.000Z');
    expect(readiness.dependencies.database.checkedAt).not.toBe('2026-01-02T03:04:05.000Z');
  });

  it('accepts nowIso in a POST body and rejects an invalid one with 400', async () => {
    expect((await server.post('/api/stocks/registry/resolve', { ticker: 'SPY', nowIso: '2026-01-01T00:00:00Z' })).status).toBe(200);
    const bad = await server.post('/api/stocks/registry/resolve', { ticker: 'SPY', nowIso: '2026-02-30T00:00:00Z' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('NOW_ISO_INVALID');
  });
});

/** The structured log line of a request, by its id. */
function logLineOf(requestId: string | null): Record<string, unknown> | undefined {
  for (const line of server.logs) {
    try {
      const parsed = JSON.parse(line);
      if (parsed?.requestId === requestId) return parsed;
    } catch {
      // Not a JSON line (the listening banner).
    }
  }
  return undefined;
}

describe('routing and logs', () => {
  it('answers unknown routes with 404 and wrong methods with 405, in the envelope', async () => {
    const missing = await server.get('/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    const wrong = await server.post('/api/health', {});
    expect(wrong.status).toBe(405);
    expect(wrong.json.error.code).toBe('METHOD_NOT_ALLOWED');
    const put = await server.request('PUT', '/api/health');
    expect(put.status).toBe(405);
    // A route that is not a procedure (the OpenAPI document) answers in the same envelope.
    const post = await server.post('/api/openapi.json', {});
    expect(post.status).toBe(405);
    expect(post.json.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers HEAD as its GET, without the body, counted against the same route', async () => {
    const head = await server.request('HEAD', '/api/stocks/registry');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('application/json');
    expect(head.text).toBe('');
    const get = await server.get('/api/stocks/registry');
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(get.text));
    await new Promise((r) => setTimeout(r, 100));
    expect(logLineOf(head.headers.get('x-request-id'))).toMatchObject({ method: 'HEAD', route: 'GET /api/stocks/registry', status: 200 });
  });

  it('answers a static document (health, the registry) the same to every request, each with its own request id', async () => {
    const [a, b] = [await server.get('/api/health'), await server.get('/api/health')];
    expect(b.text).toBe(a.text);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
    // With a query string (a pinned clock) it is computed as any answer is, and says the same.
    expect((await server.get('/api/health?nowIso=2030-01-01T00:00:00Z')).text).toBe(a.text);
    expect((await server.get('/trpc/system.health')).json.result.data).toEqual(a.json);
  });

  it('returns x-request-id and writes one structured JSON log line per request', async () => {
    const res = await server.get('/api/health');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 100));
    expect(logLineOf(id)).toMatchObject({ method: 'GET', route: 'GET /api/health', status: 200, durationMs: expect.any(Number) });
  });

  it('keeps a caller-supplied safe request id', async () => {
    const res = await server.get('/api/health', { 'x-request-id': 'trace-abc-12345' });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-12345');
  });
});

describe('typed client endpoint', () => {
  it('serves the same procedures at /trpc', async () => {
    const res = await server.get('/trpc/system.health');
    expect(res.status).toBe(200);
    expect(res.json.result.data.mode).toBe('planning_only');
  });

  it('guards /trpc bodies the same way', async () => {
    const res = await server.post('/trpc/system.resolveAsset', { ticker: 'NVDA', password: 'hidden-value-123' });
    expect(res.status).toBe(400);
    expect(res.json.error.data.svcCode).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(res.text).not.toContain('hidden-value-123');
  });

  it("guards the typed client's GET input (JSON in ?input=) like a body", async () => {
    const input = encodeURIComponent(JSON.stringify({ nowIso: '2026-01-01T00:00:00Z', privateKey: 'hidden-value-123' }));
    const res = await server.get(`/trpc/system.health?input=${input}`);
    expect(res.status).toBe(400);
    expect(res.json.error.data.svcCode).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(res.json.error.data.issues[0].path).toBe('input.privateKey');
    expect(res.text).not.toContain('hidden-value-123');
  });

  it('the server-side finishing applies to the typed client too: a lone surrogate is a 400 naming the field', async () => {
    const res = await server.post('/trpc/system.resolveAsset', { ticker: 'NV\ud800' });
    expect(res.status).toBe(400);
    expect(res.json.error.data.svcCode).toBe('INPUT_TEXT_INVALID');
    expect(res.json.error.data.issues[0].path).toBe('ticker');
  });

  it('answers the same status as REST for a domain error', async () => {
    const res = await server.post('/trpc/system.resolveAsset', { address: '0x123' });
    expect(res.status).toBe(400);
    expect(res.json.error.data.svcCode).toBe('INPUT_INVALID');
  });
});
