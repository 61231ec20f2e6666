/**
 * `POST /mcp` at the JSON-RPC layer, byte for byte against the real server: a body that is
 * not JSON is `-32700 Parse error`, valid JSON that is no JSON-RPC message is `-32600 Invalid
 * Request`, both with `id: null`; every refusal of the API front (size, rate, method, content
 * type) is a JSON-RPC error too, never the REST envelope at the top (it is the error's
 * `data`). Batches are answered under the protocol version that has them (2025-03-26, also
 * assumed when no `MCP-Protocol-Version` header is sent) and refused under 2025-06-18 and
 * later; the server negotiates 2025-03-26 with a client that asks for it. The stdio server
 * frames its lines by the same rules, under the version its session negotiated.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type ApiResponse, type TestServer } from '../support/server';
import { TOOL_INPUTS } from '../support/tool-vectors';

let server: TestServer;
let limited: TestServer;

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const oracleCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'svc_explain_oracle_policy', arguments: TOOL_INPUTS.svc_explain_oracle_policy({} as never) },
});
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'svc-protocol-test', version: '1.0.0' } },
};

function post(body: unknown, headers: Record<string, string> = {}, target = server): Promise<ApiResponse> {
  return target.request('POST', '/mcp', {
    ...(typeof body === 'string' || body instanceof Uint8Array ? { rawBody: body as string } : { body }),
    headers: { ...ACCEPT, ...headers },
  });
}

/** A JSON-RPC error with `id: null`, and no REST envelope at the top of the body. */
function expectJsonRpcError(res: ApiResponse, status: number, code: number, svcCode?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.json, res.text).toMatchObject({ jsonrpc: '2.0', id: null, error: { code, message: expect.any(String) } });
  expect(Object.keys(res.json).sort()).toEqual(['error', 'id', 'jsonrpc']);
  if (svcCode)
    expect(res.json.error.data, res.text).toMatchObject({ error: { code: svcCode }, notInvestmentAdvice: true, liveOrderSent: false });
}

beforeAll(async () => {
  [server, limited] = await Promise.all([
    startServer({ allowPostgres: false }),
    startServer({
      allowPostgres: false,
      env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '300', RATE_LIMIT_NAMESPACE: `mcp-protocol-${Date.now()}` },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
});

describe('malformed requests get JSON-RPC errors', () => {
  it('a body that is not JSON: -32700 Parse error, id null', async () => {
    for (const raw of ['{"jsonrpc":', '{', 'ping', '{"jsonrpc":"2.0","id":1,"method":"ping"']) {
      expectJsonRpcError(await post(raw), 400, -32700, 'BODY_MALFORMED_JSON');
    }
  });

  it('a body that is not UTF-8: -32700 Parse error, id null', async () => {
    const bytes = new Uint8Array([...Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), 0xff, 0xfe, ...Buffer.from('"}')]);
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: ACCEPT, body: bytes });
    const json = await res.json();
    expect(res.status).toBe(400);
    expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('valid JSON that is no JSON-RPC message: -32600 Invalid Request, id null', async () => {
    const notMessages = [
      '5',
      '"ping"',
      'null',
      'true',
      '{}',
      '{"hello":"world"}',
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{"nested":true},"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":42}',
    ];
    for (const raw of notMessages) expectJsonRpcError(await post(raw), 400, -32600);
    // An empty body is no message either.
    expectJsonRpcError(await post(''), 400, -32600);
  });

  it("the API front's refusals are JSON-RPC errors with the service's envelope as data: 413, 415, 405, a credential in the query", async () => {
    expectJsonRpcError(await post({ ...ping(1), params: { padding: 'x'.repeat(256 * 1024) } }), 413, -32000, 'BODY_TOO_LARGE');
    // The HTTP status is the one REST answers for the same refusal.
    const restTextPlain = await server.request('POST', '/api/tools/oracle-policy', {
      rawBody: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(restTextPlain.json.error.code).toBe('BODY_CONTENT_TYPE');
    const textPlain = await post(JSON.stringify(ping(1)), { 'content-type': 'text/plain' });
    expectJsonRpcError(textPlain, restTextPlain.status, -32000, 'BODY_CONTENT_TYPE');
    const get = await server.request('GET', '/mcp', { headers: { accept: 'text/event-stream' } });
    expectJsonRpcError(get, 405, -32000, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
    const secret = 'svc-mcp-query-credential-9d';
    const query = await server.request('POST', `/mcp?privateKey=${secret}`, { body: ping(1), headers: ACCEPT });
    expectJsonRpcError(query, 400, -32000, 'CREDENTIAL_FIELD_REJECTED');
    expect(query.text).not.toContain(secret);
  });

  it('over the rate limit: 429 with retry-after, a JSON-RPC error holding RATE_LIMITED', async () => {
    for (let i = 0; i < 2; i++) expect((await post(ping(i), {}, limited)).status).toBe(200);
    const refused = await post(ping(9), {}, limited);
    expectJsonRpcError(refused, 429, -32000, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a well-formed message is still answered after all of these', async () => {
    const res = await post(ping(7));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });
});

describe('protocol versions and batches', () => {
  it('negotiates 2025-03-26 with a client that asks for it', async () => {
    const res = await post(INITIALIZE);
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toBe('2025-03-26');
  });

  it('answers a batch under 2025-03-26 (header given, or none: the transport spec says to assume 2025-03-26) with an array', async () => {
    for (const headers of [{ 'mcp-protocol-version': '2025-03-26' }, {}] as Array<Record<string, string>>) {
      const res = await post([ping('a'), listTools(2), oracleCall(3)], headers);
      expect(res.status, res.text).toBe(200);
      expect(Array.isArray(res.json)).toBe(true);
      const byId = new Map((res.json as Array<{ id: unknown }>).map((r) => [r.id, r]));
      expect([...byId.keys()].sort()).toEqual([2, 3, 'a'].sort());
      expect(byId.get('a')).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
      expect((byId.get(2) as any).result.tools).toHaveLength(34);
      expect((byId.get(3) as any).result.structuredContent).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    }
  });

  it('answers a batch of one with an array of one, and a batch of notifications alone with 202 and no body', async () => {
    const one = await post([ping(1)]);
    expect(one.status).toBe(200);
    expect(one.json).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const notifications = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(notifications.status).toBe(202);
    expect(notifications.text).toBe('');
  });

  it('answers each member of a batch that is no message with its own -32600 (id null) beside the answers of the others', async () => {
    const res = await post([1, ping(5), { hello: 'world' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toHaveLength(3);
    expect(res.json).toContainEqual({ jsonrpc: '2.0', id: 5, result: {} });
    expect(res.json.filter((r: any) => r.id === null && r.error?.code === -32600)).toHaveLength(2);
    // Nothing in it is a message: the answer is still an array of errors.
    const none = await post([1, 2]);
    expect(none.status).toBe(400);
    expect(none.json).toHaveLength(2);
    for (const answer of none.json) expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('refuses a batch under 2025-06-18 and 2025-11-25 (batches were removed) with one -32600, id null', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post([ping(1), ping(2)], { 'mcp-protocol-version': version });
      expectJsonRpcError(res, 400, -32600);
      expect(res.json.error.message).toContain(version);
    }
    // The same messages one at a time are answered under those versions.
    expect((await post(ping(1), { 'mcp-protocol-version': '2025-06-18' })).json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('refuses an empty batch, a batch over 50 messages and a batch holding initialize, each with one -32600', async () => {
    expectJsonRpcError(await post([]), 400, -32600);
    expectJsonRpcError(await post(Array.from({ length: 51 }, (_, i) => ping(i))), 400, -32600, 'BATCH_TOO_LARGE');
    expectJsonRpcError(await post([INITIALIZE]), 400, -32600);
    expectJsonRpcError(await post([INITIALIZE, ping(1)]), 400, -32600);
  });

  it('caps a batch at the /trpc batch cap (50): 50 messages are answered, 51 run none and are one BATCH_TOO_LARGE with the invariants', async () => {
    const fifty = await post(Array.from({ length: 50 }, (_, i) => ping(i)));
    expect(fifty.status, fifty.text).toBe(200);
    expect(fifty.json).toHaveLength(50);
    const over = await post(Array.from({ length: 51 }, (_, i) => oracleCall(i)));
    expectJsonRpcError(over, 400, -32600, 'BATCH_TOO_LARGE');
    expect(over.json.error.data.error.issues).toEqual([
      { code: 'BATCH_TOO_LARGE', message: '51 calls; split them into batches of at most 50' },
    ]);
    // None of its tool calls ran: no tool call was logged for its request.
    const requestId = over.headers.get('x-request-id');
    expect(server.logs.filter((l) => l.includes('"tool call"') && l.includes(requestId!))).toEqual([]);
  });

  it('counts a refused oversized batch as one request under POST /mcp, not one per member', async () => {
    const two = await startServer({
      allowPostgres: false,
      env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '300', RATE_LIMIT_NAMESPACE: `mcp-batch-cap-${Date.now()}` },
    });
    try {
      const over = await post(
        Array.from({ length: 51 }, (_, i) => ping(i)),
        {},
        two,
      );
      expectJsonRpcError(over, 400, -32600, 'BATCH_TOO_LARGE');
      // RATE_LIMIT_MAX is 2 there: the batch took one point, so one more message is answered.
      expect((await post(ping(1), {}, two)).json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect((await post(ping(2), {}, two)).status).toBe(429);
    } finally {
      await two.stop();
    }
  });

  it('guards each member of a batch: a credential in one is its own -32602 refusal, the others are answered', async () => {
    const secret = 'svc-mcp-batch-credential-c3';
    const res = await post([ping(1), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { apiKey: secret } } }]);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toContainEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(res.json.find((r: any) => r.id === 2).error).toMatchObject({
      code: -32602,
      data: { error: { code: 'CREDENTIAL_FIELD_REJECTED' } },
    });
    expect(res.text).not.toContain(secret);
  });
});

/** The stdio server (`npm run mcp`'s entry) driven line by line, as a host writes to it. */
class RawStdio {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiting?: () => void;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [join(ROOT, 'scripts', 'mcp.mjs'), '--no-build'], { cwd: ROOT, env });
    let buffered = '';
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) !== -1) {
        this.lines.push(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
      }
      this.waiting?.();
    });
  }

  write(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** The next line written on stdout, parsed (every line must be JSON). */
  async next(): Promise<any> {
    const deadline = Date.now() + 15_000;
    while (this.lines.length === 0) {
      if (Date.now() > deadline) throw new Error('no answer on stdout');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    return JSON.parse(this.lines.shift()!);
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

describe('over stdio, the same JSON-RPC framing', () => {
  let stdio: RawStdio;
  beforeAll(() => {
    stdio = new RawStdio(server.env);
  });
  afterAll(async () => {
    await stdio?.close();
  });

  it('answers a line that is not JSON with -32700 and one that is no message with -32600, both id null', async () => {
    stdio.write('not json');
    expect(await stdio.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    for (const line of ['5', '{}', '{"hello":"world"}']) {
      stdio.write(line);
      expect(await stdio.next(), line).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it('refuses a batch before a version is negotiated, then takes batches under a negotiated 2025-03-26', async () => {
    stdio.write(JSON.stringify([ping(1)]));
    expect(await stdio.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    stdio.write(JSON.stringify(INITIALIZE));
    expect((await stdio.next()).result.protocolVersion).toBe('2025-03-26');
    stdio.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    stdio.write(JSON.stringify([ping('a'), listTools(2), 7]));
    const answer = await stdio.next();
    expect(answer).toHaveLength(3);
    expect(answer).toContainEqual({ jsonrpc: '2.0', id: 'a', result: {} });
    expect(answer.find((r: any) => r.id === 2).result.tools).toHaveLength(34);
    expect(answer).toContainEqual(expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }));
    stdio.write(JSON.stringify([ping(3)]));
    expect(await stdio.next()).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    stdio.write(JSON.stringify(ping(4)));
    expect(await stdio.next()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });

  it('refuses a batch over 50 messages whole, with BATCH_TOO_LARGE and the invariants', async () => {
    const session = new RawStdio(server.env);
    try {
      session.write(JSON.stringify(INITIALIZE));
      expect((await session.next()).result.protocolVersion).toBe('2025-03-26');
      session.write(JSON.stringify(Array.from({ length: 51 }, (_, i) => ping(i))));
      expect(await session.next()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, data: { error: { code: 'BATCH_TOO_LARGE' }, notInvestmentAdvice: true, liveOrderSent: false } },
      });
      session.write(JSON.stringify(Array.from({ length: 50 }, (_, i) => ping(i))));
      expect(await session.next()).toHaveLength(50);
    } finally {
      await session.close();
    }
  });

  it('refuses batches in a session that negotiated 2025-06-18', async () => {
    const later = new RawStdio(server.env);
    try {
      later.write(JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } }));
      expect((await later.next()).result.protocolVersion).toBe('2025-06-18');
      later.write(JSON.stringify([ping(1), ping(2)]));
      const refused = await later.next();
      expect(refused).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(refused.error.message).toContain('2025-06-18');
      later.write(JSON.stringify(ping(3)));
      expect(await later.next()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    } finally {
      await later.close();
    }
  });
});
