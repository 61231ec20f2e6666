/**
 * DNS-rebinding protection of `POST /mcp` (issue 34 item 4; src/lib/server/http/mcp-origin.ts)
 * against the real server: a request whose `Origin` is present is answered only when its
 * `Origin` and `Host` name this service's ORIGIN, localhost / 127.0.0.1 / [::1] at its port,
 * or an origin in MCP_ALLOWED_ORIGINS; a refusal is 403 with a JSON-RPC error (id null) whose
 * `data` is the ORIGIN_MISMATCH envelope with the invariants, and nothing of the request runs.
 * A request without `Origin` is answered as before, whatever its `Host`.
 *
 * The requests go through node:http, which sends the `Host` header as given (fetch would
 * replace it), as a browser whose DNS was rebound would send it.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { TOOL_INPUTS } from '../support/tool-vectors';

let server: TestServer;
let listed: TestServer;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'svc-origin-test', version: '1.0.0' } },
};
const ORACLE_CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'svc_explain_oracle_policy', arguments: TOOL_INPUTS.svc_explain_oracle_policy({} as never) },
};

interface Answer {
  status: number;
  json: any;
  requestId: string | undefined;
}

function postMcp(target: TestServer, headers: Record<string, string>, body: unknown = INITIALIZE): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
        res.on('end', () => {
          target.assertNoSecrets(data, 'POST /mcp');
          resolve({ status: res.statusCode!, json: data ? JSON.parse(data) : undefined, requestId: res.headers['x-request-id'] as string });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

function expectRefused(answer: Answer, header: 'origin' | 'host'): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(403);
  expect(answer.json).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32000,
      data: {
        error: { code: 'ORIGIN_MISMATCH', issues: [{ code: 'ORIGIN_MISMATCH', path: `headers.${header}` }] },
        notInvestmentAdvice: true,
        liveOrderSent: false,
      },
    },
  });
  expect(Object.keys(answer.json).sort()).toEqual(['error', 'id', 'jsonrpc']);
}

const initialized = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect(answer.json.result.serverInfo.name).toBe('strategy-basket-service');
};

beforeAll(async () => {
  // The test servers' ORIGIN is http://127.0.0.1:<port> (tests/support/server.ts).
  [server, listed] = await Promise.all([
    startServer({ allowPostgres: false }),
    startServer({ allowPostgres: false, env: { MCP_ALLOWED_ORIGINS: 'https://agents.example.org, http://tools.example.net:8080' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), listed?.stop()]);
});

describe('POST /mcp refuses a foreign Origin or Host (DNS rebinding)', () => {
  it('refuses the rebinding request of the conformance suite: Host and Origin evil.example.com', async () => {
    expectRefused(await postMcp(server, { host: 'evil.example.com', origin: 'http://evil.example.com' }), 'origin');
  });

  it('refuses a foreign Origin whatever the Host, and an allowed Origin with a foreign Host', async () => {
    const local = `127.0.0.1:${server.port}`;
    expectRefused(await postMcp(server, { host: local, origin: 'http://evil.example.com' }), 'origin');
    expectRefused(await postMcp(server, { host: local, origin: `http://localhost:${server.port + 1}` }), 'origin');
    expectRefused(await postMcp(server, { host: local, origin: `https://127.0.0.1:${server.port}` }), 'origin');
    expectRefused(await postMcp(server, { host: local, origin: 'null' }), 'origin');
    expectRefused(await postMcp(server, { host: local, origin: 'not a url' }), 'origin');
    expectRefused(await postMcp(server, { host: 'evil.example.com', origin: server.url }), 'host');
    expectRefused(await postMcp(server, { host: `localhost:${server.port + 1}`, origin: server.url }), 'host');
  });

  it('runs nothing of a refused request: a tool call is not made, nor logged as one', async () => {
    const refused = await postMcp(server, { host: 'evil.example.com', origin: 'http://evil.example.com' }, ORACLE_CALL);
    expectRefused(refused, 'origin');
    await new Promise((r) => setTimeout(r, 100));
    const lines = server.logs.filter((l) => l.includes(refused.requestId!));
    expect(lines.some((l) => l.includes('"tool call"'))).toBe(false);
    expect(lines.some((l) => l.includes('"status":403'))).toBe(true);
  });

  it('answers ORIGIN, and localhost, 127.0.0.1 and [::1] at the service port', async () => {
    const port = server.port;
    initialized(await postMcp(server, { host: `127.0.0.1:${port}`, origin: server.url }));
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST'])
      initialized(await postMcp(server, { host: `${name}:${port}`, origin: `http://${name}:${port}` }));
  });

  it('answers a request without Origin as before, whatever its Host', async () => {
    initialized(await postMcp(server, { host: 'evil.example.com' }));
    initialized(await postMcp(server, { host: `192.0.2.7:${server.port}` }));
    const call = await postMcp(server, { host: 'evil.example.com' }, ORACLE_CALL);
    expect(call.status).toBe(200);
    expect(call.json.result.structuredContent).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('answers the origins of MCP_ALLOWED_ORIGINS (with their Host), and still refuses others', async () => {
    initialized(await postMcp(listed, { host: 'agents.example.org', origin: 'https://agents.example.org' }));
    initialized(await postMcp(listed, { host: 'tools.example.net:8080', origin: 'http://tools.example.net:8080' }));
    expectRefused(await postMcp(listed, { host: 'tools.example.net', origin: 'http://tools.example.net' }), 'origin');
    expectRefused(await postMcp(listed, { host: 'agents.example.org', origin: 'http://agents.example.org' }), 'origin');
    initialized(await postMcp(listed, { host: `localhost:${listed.port}`, origin: `http://localhost:${listed.port}` }));
  });
});
