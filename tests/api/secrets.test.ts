/**
 * No secret ever leaves: the five server-only values are set to unique markers and every
 * documented route (plus the pages and the typed-client endpoint) is called; TestServer
 * checks every response and, on stop, every log line for the markers.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, secretMarker, startServer, type TestServer } from '../support/server';

let server: TestServer;
let rpc: Server;
const partnerKey = secretMarker('partner');
const facilitatorKey = secretMarker('facilitator');

beforeAll(async () => {
  const port = await freePort();
  rpc = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body || '{}');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id ?? 1, result: msg.method === 'eth_chainId' ? '0x1237' : null }));
    });
  });
  await new Promise<void>((r) => rpc.listen(port, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
  server = await startServer({
    allowPostgres: false,
    databaseUrl: `file:${join(dir, `${secretMarker('database')}.db`)}`,
    env: {
      PARTNER_API_KEY: partnerKey,
      PARTNER_API_URL: 'http://127.0.0.1:9/partner',
      PARTNER_AGENT_API_ENABLED: 'true',
      FACILITATOR_API_KEY: facilitatorKey,
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_URL: 'http://127.0.0.1:9/facilitator',
      BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${port}/${secretMarker('rpc')}`,
      // A password in the URL, and nothing listening: the store's errors must not quote it.
      REDIS_URL: `redis://:${secretMarker('redis')}@127.0.0.1:9/0`,
    },
  });
});
afterAll(async () => {
  await server?.stop();
  rpc?.close();
});

function fillPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => (name.toLowerCase().includes('hash') ? '0x' + '00'.repeat(32) : 'sample'));
}

describe('secrets never leave', () => {
  it('sets all five secrets', () => {
    expect(server.secrets()).toHaveLength(5);
  });

  it('no documented route, page or typed-client call returns a secret', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    const calls: Array<Promise<unknown>> = [];
    for (const [path, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const url = `/api${fillPath(path)}`;
        calls.push(method === 'get' ? server.get(url) : server.post(url, {}));
        calls.push(
          method === 'get' ? server.get(`${url}?nowIso=2026-01-01T00:00:00Z`) : server.post(url, { nowIso: '2026-01-01T00:00:00Z' }),
        );
      }
    }
    calls.push(server.get('/'), server.get('/docs'), server.get('/trpc/system.health'), server.get('/trpc/system.readiness'));
    await Promise.all(calls);
    expect(calls.length).toBeGreaterThan(8);
  });

  it('readiness proves the RPC was used without disclosing it', async () => {
    const res = await server.get('/api/readiness');
    expect(res.json.chain.state).toBe('reachable');
    expect(res.json.x402Providers.facilitator.configured).toBe(true);
  });
});
