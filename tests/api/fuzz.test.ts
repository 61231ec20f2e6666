/**
 * Property-based test of the HTTP layer (issues 10 and 21): generated requests thrown at every
 * GET and POST route of the OpenAPI document (`GET /api/openapi.json`) through the real server,
 * over REST and, for the routes that are procedures, over the typed client's endpoint (/trpc),
 * and at every MCP tool over `POST /mcp`.
 * It fails on any 500 (other than OUTPUT_GUARD), any REST status the OpenAPI document does not
 * declare for the route (issue 24), any answer that is not JSON (errors in one of
 * the documented envelopes; the share card's image is the one non-JSON success), any
 * credential marker that comes back or reaches a log, and any error message that quotes a
 * string of the request. Generators: tests/support/fuzz.ts.
 *
 * Size: FUZZ_RUNS_PER_ROUTE (default 12) requests per route; FUZZ_REPORT=1 prints the answers
 * seen by status and code. A soak run for memory:
 * `FUZZ_RUNS=30000 FUZZ_MEMORY_REPORT=1` sends that many requests over all routes, 16 at a time
 * (FUZZ_CONCURRENCY), and prints the server's resident memory every 2000 (README, "Memory").
 * FUZZ_SEED replays a run (the seed of each run is printed when it fails, and always with FUZZ_REPORT=1).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_MARKER, STRING_MARKER, fuzzRequest, fuzzRoutes, mcpRoutes, type FuzzRequest, type FuzzRoute } from '../support/fuzz';
import { OpenApiContract, operationsOf, type Operation } from '../support/openapi-contract';
import { secretMarker, startServer, type TestServer } from '../support/server';

const PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 12);
const SOAK_RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** Requests in flight at once in a soak run. */
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);

let server: TestServer;
let doc: any;
let contract: OpenApiContract;
let operations: Operation[];
let routes: FuzzRoute[];

beforeAll(async () => {
  // Secrets configured (never reachable: no partner or facilitator answers here), so that
  // TestServer's check of every answer and log line for them means something.
  server = await startServer({
    allowPostgres: false,
    env: {
      PARTNER_API_KEY: secretMarker('partner'),
      PARTNER_API_URL: 'http://127.0.0.1:9',
      PARTNER_TIMEOUT_MS: '300',
      STRATEGIST_PROVIDER: 'mock',
      // e.g. --max-old-space-size=128 in a soak run, to tell a leak from V8's heap headroom.
      ...(process.env.FUZZ_NODE_OPTIONS ? { NODE_OPTIONS: process.env.FUZZ_NODE_OPTIONS } : {}),
    },
  });
  doc = (await server.get('/api/openapi.json')).json;
  contract = new OpenApiContract(doc);
  operations = operationsOf(doc);
  const listed = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  routes = [...fuzzRoutes(doc), ...mcpRoutes(((await listed.json()) as any).result.tools)];
});
afterAll(async () => {
  await server?.stop();
});

function isEnvelope(body: any, surface: FuzzRequest['surface']): boolean {
  const e = body?.error;
  // A request Node's parser refused (its head over 16 KB, say) is answered before any door is
  // known: in the REST envelope, whatever the path.
  if (['REQUEST_HEAD_TOO_LARGE', 'REQUEST_MALFORMED'].includes(e?.code)) return typeof e.message === 'string' && Array.isArray(e.issues);
  // MCP: a JSON-RPC error, whoever refused (the front's refusals too, their envelope as `data`).
  if (surface === 'mcp') return body?.jsonrpc === '2.0' && typeof e?.code === 'number' && typeof e?.message === 'string';
  if (surface === 'trpc') {
    // The typed client's shape: the stable code and the issues in `data`.
    return typeof e?.message === 'string' && typeof e?.data?.svcCode === 'string' && typeof e?.data?.httpStatus === 'number';
  }
  if (e && typeof e === 'object') return typeof e.code === 'string' && typeof e.message === 'string' && Array.isArray(e.issues);
  // Strategist failures (interface 4.2) and the x402 v1 challenge body.
  if (typeof e === 'string' && typeof body.code === 'string' && typeof body.prompt === 'string') return true;
  return typeof e === 'string' && typeof body.x402Version === 'number' && Array.isArray(body.accepts);
}

function errorTexts(body: any): string[] {
  const e = body?.error;
  if (typeof e === 'string') return [e];
  const issues = (e?.issues ?? e?.data?.issues ?? []) as Array<{ message?: string }>;
  return [e?.message, ...issues.map((i) => i.message)].filter((t): t is string => typeof t === 'string');
}

async function send(req: FuzzRequest) {
  const body = typeof req.body === 'string' ? new TextEncoder().encode(req.body) : req.body;
  // A Uint8Array body gets no content type from fetch: only the generated headers are sent.
  const attempt = () =>
    fetch(server.url + req.path, { method: req.method, headers: req.headers, body: body as BodyInit | undefined, redirect: 'manual' });
  let res: Response;
  try {
    res = await attempt();
  } catch (error) {
    // A kept-alive socket the server closed as idle while this process was busy generating
    // (the client found out on reuse): sent once more on a fresh one. A request the server
    // itself drops fails again.
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    res = await attempt();
  }
  const text = await res.text();
  server.assertNoSecrets(text + [...res.headers.values()].join('\n'), `${req.method} ${req.path}`);
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, headers: res.headers };
}

/** The operation a sent REST path reaches: static routes before routes with parameters, one trailing slash ignored. */
function operationAt(method: string, path: string): Operation | undefined {
  const bare = path.split('?')[0]!.replace(/^\/api/, '');
  const trimmed = bare.length > 1 && bare.endsWith('/') ? bare.slice(0, -1) : bare;
  const candidates = operations.filter((o) => o.method === method.toLowerCase());
  const matches = (o: Operation) =>
    new RegExp(`^${o.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(trimmed);
  return candidates.find((o) => !o.template.includes('{') && matches(o)) ?? candidates.find(matches);
}

/** Answers seen, by status and code: printed with FUZZ_REPORT=1 to see how deep the requests get. */
const seen = new Map<string, number>();

function check(req: FuzzRequest, res: { status: number; contentType: string; text: string; headers: Headers }): void {
  const where = `${req.method} ${req.path.slice(0, 200)} [${req.route}] (${res.status}): ${res.text.slice(0, 300)}`;
  const key = `${req.surface} ${res.status} ${/"(?:code|svcCode)":"(\w+)"/.exec(res.text)?.[1] ?? ''}`.trim();
  seen.set(key, (seen.get(key) ?? 0) + 1);
  const outputGuard = res.status === 500 && /"(?:code|svcCode)":"OUTPUT_GUARD"/.test(res.text);
  if (!outputGuard) expect(res.status, where).not.toBe(500);
  expect(res.status, where).toBeLessThan(504);
  // The share card's images (SVG and PNG) are the answers that are not JSON, and only when served.
  if (res.status === 200 && req.route === 'GET /share-card/{receiptId}.svg' && req.surface === 'rest') {
    expect(res.contentType, where).toContain('image/svg+xml');
    return;
  }
  if (res.status === 200 && req.route === 'GET /share-card/{receiptId}.png' && req.surface === 'rest') {
    expect(res.contentType, where).toBe('image/png');
    return;
  }
  // So are the checkpointed receipt log's C2SP answers: the checkpoint and proof files as text, tiles as bytes.
  const c2sp: Record<string, string> = {
    'GET /receipts/log/checkpoint': 'text/plain; charset=utf-8',
    'GET /receipts/log/proof/{receiptId}': 'text/plain; charset=utf-8',
    'GET /receipts/log/tile/{L}/{N}': 'application/octet-stream',
  };
  if (res.status === 200 && c2sp[req.route] && req.surface === 'rest') {
    expect(res.contentType, where).toBe(c2sp[req.route]);
    return;
  }
  // Every REST answer's status is one the OpenAPI document declares for the route (a path that
  // matches no route at all is the front's 404 NOT_FOUND, which belongs to no operation).
  // Its body and headers match that response's schema (tests/support/openapi-contract.ts).
  if (req.surface === 'rest') {
    // The route that answered is the one the sent path matches (a broken parameter can reach
    // another route: `/api/vaults/` is the vault list, not `/vaults/{slug}`).
    const operation = operationAt(req.method, req.path);
    const noRoute = res.status === 404 && /"code":"NOT_FOUND"/.test(res.text);
    if (operation && !noRoute) {
      let json: unknown;
      try {
        json = JSON.parse(res.text);
      } catch {
        json = undefined;
      }
      expect(contract.problems(operation, { ...res, json }), where).toEqual([]);
    }
  }
  expect(res.contentType, where).toContain('application/json');
  let body: any;
  expect(() => (body = JSON.parse(res.text)), where).not.toThrow();
  expect(res.text, where).not.toContain(CREDENTIAL_MARKER);
  if (res.status >= 400) {
    expect(isEnvelope(body, req.surface), where).toBe(true);
    for (const text of errorTexts(body)) expect(text, where).not.toContain(STRING_MARKER);
  }
  if (req.surface === 'mcp' && res.status === 200) {
    // A tool's refusal is its result, holding the REST error body as text; a protocol error is
    // JSON-RPC's. A batch (a body that is an array) is answered with an array of answers.
    for (const answer of [body].flat()) {
      if (answer.error) expect(isEnvelope(answer, 'mcp'), where).toBe(true);
      if (answer.result?.isError) {
        const refusal = JSON.parse(answer.result.content[0].text);
        expect(isEnvelope(refusal, 'rest'), where).toBe(true);
        expect(refusal, where).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
        for (const text of errorTexts(refusal)) expect(text, where).not.toContain(STRING_MARKER);
      }
      for (const text of errorTexts(answer)) expect(text, where).not.toContain(STRING_MARKER);
    }
  }
}

/** The server's resident memory in MB: total, anonymous (heaps) and file-backed (code, libraries). */
function rssMb(): { rss: number; anon: number; file: number } | undefined {
  if (!server.pid) return undefined;
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const kb = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
    return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
  } catch {
    return undefined;
  }
}

describe('generated requests at every GET and POST route of the OpenAPI document and every MCP tool', () => {
  it('covers every GET and POST route the document lists', () => {
    const posts = routes.filter((r) => r.method === 'POST');
    const gets = routes.filter((r) => r.method === 'GET');
    expect(posts.length).toBeGreaterThanOrEqual(31);
    expect(gets.length).toBeGreaterThanOrEqual(25);
    for (const r of posts) expect(r.body, r.template).toBeDefined();
    // Every GET takes a query string (nowIso at least), the share card's two images included.
    expect(gets.filter((r) => r.query.length > 0)).toHaveLength(gets.length);
    expect(gets.some((r) => r.params.length > 0)).toBe(true);
    expect(routes.filter((r) => r.mcpTool)).toHaveLength(34);
  });

  it.skipIf(SOAK_RUNS !== undefined)(
    'never a 500, never a non-JSON answer, never an echoed credential, never an error quoting the request',
    { timeout: 1_800_000 },
    async () => {
      const seed = SEED ?? Date.now() % 2 ** 31;
      for (const [i, route] of routes.entries()) {
        try {
          await fc.assert(
            fc.asyncProperty(fuzzRequest([route], doc), async (req) => check(req, await send(req))),
            { numRuns: PER_ROUTE, seed: seed + i, endOnFailure: process.env.FUZZ_SHRINK !== '1' },
          );
        } catch (error) {
          throw new Error(`${route.method} ${route.template} failed; replay with FUZZ_SEED=${seed}\n${String(error)}`, { cause: error });
        }
      }
      if (process.env.FUZZ_REPORT) {
        console.log(`FUZZ_SEED=${seed}, ${PER_ROUTE} runs on each of ${routes.length} routes`);
        console.log([...seen.entries()].sort((a, b) => b[1] - a[1]));
      }
      const logs = server.logs.join('\n');
      expect(logs).not.toContain(CREDENTIAL_MARKER);
      expect(logs).not.toContain(STRING_MARKER);
      expect(server.logs.some((l) => l.includes('"level":50') && !l.includes('"event":"output_guard"'))).toBe(false);
    },
  );

  it.runIf(SOAK_RUNS !== undefined)(
    'soak: the same properties over many requests, sent concurrently, with the server memory sampled',
    { timeout: 3_600_000 },
    async () => {
      const total = SOAK_RUNS!;
      const arbitrary = fuzzRequest(routes, doc);
      const samples: Array<{ requests: number; mb: ReturnType<typeof rssMb> }> = [{ requests: 0, mb: rssMb() }];
      let sent = 0;
      for (let batch = 0; sent < total; batch++) {
        const requests = fc.sample(arbitrary, { numRuns: Math.min(2000, total - sent), seed: (SEED ?? 1) + batch });
        // Generating a batch blocks this process for seconds: let the HTTP client see the
        // kept-alive sockets the server closed meanwhile before it reuses one.
        await new Promise((r) => setTimeout(r, 200));
        let next = 0;
        const worker = async () => {
          while (next < requests.length) {
            const req = requests[next++]!;
            check(req, await send(req));
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        sent += requests.length;
        samples.push({ requests: sent, mb: rssMb() });
        if (process.env.FUZZ_MEMORY_REPORT) console.log(`requests ${sent}: server memory (MB) ${JSON.stringify(samples.at(-1)!.mb)}`);
      }
      if (process.env.FUZZ_MEMORY_REPORT) console.log(JSON.stringify(samples));
    },
  );
});
