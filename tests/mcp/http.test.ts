/**
 * MCP over Streamable HTTP at POST /mcp of the real server (stateless): the same tools,
 * answers and refusals as over stdio, behind the same body cap, rate limit and log line as
 * every route; GET and DELETE answer 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/lib/server/registry/agents';
import { toolProcedures } from '../../src/lib/server/trpc/mcp-tools';
import '../../src/lib/server/trpc/router';
import { connectHttp, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';
import { makeFixtures, restCall, TOOL_INPUTS, type ToolFixtures } from '../support/tool-vectors';
import { withoutSignatures } from '../support/signatures';

let server: TestServer;
let limited: TestServer;
let mcp: McpTestClient;
let fixtures: ToolFixtures;
const endpointOf = new Map(toolProcedures().map((t) => [t.tool, t.endpoint!]));
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

beforeAll(async () => {
  [server, limited] = await Promise.all([
    // The local strategist on both doors, as in tools.test.ts.
    startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } }),
    startServer({
      allowPostgres: false,
      env: {
        RATE_LIMIT_MAX: '3',
        RATE_LIMIT_WINDOW_SECONDS: '300',
        RATE_LIMIT_NAMESPACE: `mcp-http-${Date.now()}`,
        ADDRESS_HEADER: 'x-forwarded-for',
        XFF_DEPTH: '1',
      },
    }),
  ]);
  mcp = await connectHttp(server);
  fixtures = await makeFixtures(server);
});
afterAll(async () => {
  await mcp?.close();
  await Promise.all([server?.stop(), limited?.stop()]);
});

describe('POST /mcp', () => {
  it('lists the 34 tools', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
  });

  it('answers every tool with its REST body (or its REST error envelope) for the same input', async () => {
    for (const name of MCP_TOOL_NAMES) {
      const input = TOOL_INPUTS[name](fixtures);
      const rest = await restCall(server, endpointOf.get(name)!, input);
      const tool = await mcp.call(name, input);
      expect(tool.isError, name).toBe(rest.status !== 200);
      expect(withoutSignatures(tool.body), name).toEqual(withoutSignatures(rest.json));
    }
  });

  it('refuses a credential field in tool arguments as the tool error, never echoing it, and keeps serving', async () => {
    const secret = 'svc-mcp-http-credential-77c1';
    const res = await mcp.call('svc_validate_coil', { ...TOOL_INPUTS.svc_validate_coil(fixtures), wallet: { seedPhrase: secret } });
    expect(res.isError).toBe(true);
    expect(res.body.error.code).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(JSON.stringify(res.raw)).not.toContain(secret);
    expect(server.logs.join('\n')).not.toContain(secret);
    expect((await mcp.call('svc_explain_oracle_policy', TOOL_INPUTS.svc_explain_oracle_policy(fixtures))).isError).toBe(false);
  });

  it('refuses a credential elsewhere in a message (here the _meta of tools/list) with a JSON-RPC error holding the refusal envelope', async () => {
    await mcp.expectMessageCredentialRefused('svc-mcp-meta-credential-b2');
  });

  it('refuses a body over 256 KB with 413 as a JSON-RPC error whose data is the BODY_TOO_LARGE envelope', async () => {
    const res = await server.request('POST', '/mcp', { body: { ...PING, params: { padding: 'x'.repeat(256 * 1024) } }, headers: HEADERS });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'BODY_TOO_LARGE' } } } });
  });

  it('refuses a body that is not JSON with 400 -32700, and GET or DELETE with 405 naming POST, as JSON-RPC errors', async () => {
    const broken = await server.request('POST', '/mcp', { rawBody: '{"jsonrpc":', headers: HEADERS });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, data: { error: { code: 'BODY_MALFORMED_JSON' } } },
    });
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.json, method).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, data: { error: { code: 'METHOD_NOT_ALLOWED' } } },
      });
      expect(res.headers.get('allow'), method).toBe('POST');
    }
  });

  it('answers a message that is not MCP with a 4xx in the JSON-RPC error envelope of the protocol, never a 500', async () => {
    const notRpc = await server.request('POST', '/mcp', { body: { hello: 'world' }, headers: HEADERS });
    expect(notRpc.status).toBe(400);
    expect(notRpc.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const noStream = await server.request('POST', '/mcp', {
      body: PING,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(noStream.status).toBe(406);
    expect(noStream.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });

  it('limits the messages that call no tool per client under POST /mcp: 429 RATE_LIMITED with retry-after', async () => {
    for (let i = 0; i < 3; i++) expect((await limited.request('POST', '/mcp', { body: PING, headers: HEADERS })).status).toBe(200);
    const refused = await limited.request('POST', '/mcp', { body: PING, headers: HEADERS });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'RATE_LIMITED' } } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts each tool call against its own tool, the counter its REST route and /trpc share, never against POST /mcp', async () => {
    const visitor = { 'x-forwarded-for': '203.0.113.90' };
    const client = await connectHttp(limited, visitor);
    try {
      const input = TOOL_INPUTS.svc_validate_coil(fixtures);
      for (let i = 0; i < 3; i++) expect((await client.call('svc_validate_coil', input)).isError).toBe(false);
      const refused = await client.call('svc_validate_coil', input);
      expect(refused.isError).toBe(true);
      expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMITED' }, notInvestmentAdvice: true, liveOrderSent: false });
      expect(refused.body.error.issues[0].message).toMatch(/^retry after \d+ seconds$/);
      expect((await limited.post('/api/tools/validate-coil', input, visitor)).status).toBe(429);
      expect((await limited.post('/trpc/tools.validateCoil', input, visitor)).status).toBe(429);
      // Another tool has its own budget, and so do the messages that call no tool.
      expect((await client.call('svc_score_coil', TOOL_INPUTS.svc_score_coil(fixtures))).isError).toBe(false);
      await client.client.ping();
    } finally {
      await client.close();
    }
  });

  it('writes one request log line per POST, and one tool-call line per tool call, with no arguments', async () => {
    const lines = server.logs.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(lines.some((l) => l.msg === 'request' && l.route === 'POST /mcp' && l.status === 200)).toBe(true);
    expect(lines.some((l) => l.msg === 'tool call' && l.transport === 'http' && l.route === 'svc_validate_coil')).toBe(true);
  });
});
