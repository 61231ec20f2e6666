/**
 * Health, readiness, registry, OpenAPI and the docs page through the real server, and
 * persistence across restarts (`.ci/run` repeats this file against PostgreSQL).
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFacilitator } from '../support/fake-facilitator';
import { startFakePartner } from '../support/fake-partner';
import { freePort, secretMarker, startServer, type TestServer } from '../support/server';

let server: TestServer;
const extra: TestServer[] = [];
const fakes: Server[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await Promise.all([server?.stop(), ...extra.map((s) => s.stop())]);
  for (const f of fakes) f.close();
  for (const stop of stops) await stop();
});

const stops: Array<() => Promise<void>> = [];

/**
 * A TCP server that accepts connections and never answers; counts the requests for its own
 * path. Only those count because other test files point their servers at ports they found
 * free and closed again ("a closed port"), and the kernel may hand such a port to this server:
 * CI once saw a second connection here that was not the partner check.
 */
async function silentServer(): Promise<{ url: string; requests: () => number }> {
  const path = `/partner-${randomUUID()}`;
  let count = 0;
  const sockets: Socket[] = [];
  const srv = createTcpServer((socket) => {
    sockets.push(socket);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n')) return;
      socket.off('data', onData);
      if (head.split('\r\n')[0]!.split(' ')[1] === path) count++;
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  stops.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => srv.close(() => r()));
  });
  return { url: `http://127.0.0.1:${(srv.address() as { port: number }).port}${path}`, requests: () => count };
}

/** A JSON-RPC endpoint that answers eth_chainId with the given id. */
async function fakeRpc(chainIdHex: string): Promise<string> {
  const port = await freePort();
  const srv = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: chainIdHex }));
    });
  });
  await new Promise<void>((r) => srv.listen(port, '127.0.0.1', r));
  fakes.push(srv);
  return `http://127.0.0.1:${port}/rpc-secret-path`;
}

describe('health', () => {
  it('reports the planning-only mode and each feature flag as a boolean', async () => {
    const res = await server.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.json.mode).toBe('planning_only');
    for (const value of Object.values(res.json.flags)) expect(typeof value).toBe('boolean');
    expect(res.json.flags.liveOrderPlacement).toBe(false);
  });
});

describe('stock submit availability: one rule for /api/health and /api/stocks/partner-status', () => {
  it('the flag and the key without PARTNER_API_URL are not enough for either (the partner cannot be called without its address); with it, both say yes', async () => {
    const key = { PARTNER_AGENT_API_ENABLED: 'true', PARTNER_API_KEY: 'svc-test-secret-partner-key-0001' };
    const [noUrl, withUrl] = await Promise.all([
      startServer({ env: key }),
      startServer({ env: { ...key, PARTNER_API_URL: 'http://127.0.0.1:9' } }),
    ]);
    extra.push(noUrl, withUrl);
    for (const [s, available] of [
      [server, false],
      [noUrl, false],
      [withUrl, true],
    ] as const) {
      const health = await s.get('/api/health');
      const lane = await s.get('/api/stocks/partner-status');
      expect(health.json.flags.partnerStockSubmitAvailable).toBe(available);
      expect(lane.json.submitAvailable).toBe(available);
    }
  });
});

describe('readiness', () => {
  it('reports states only: database reachable with migrations current, chain not configured', async () => {
    const res = await server.get('/api/readiness');
    expect(res.status).toBe(200);
    expect(res.json.database).toMatchObject({ reachable: true, migrations: 'current' });
    expect(res.json.database.appliedMigrations).toBe(res.json.database.bundledMigrations);
    expect(res.json.chain.state).toBe('not_configured');
    expect(res.json.deployment.commit).toMatch(/\S/);
    expect(res.json.x402Providers.facilitator).toEqual({ enabled: false, configured: false, payToPinned: false });
  });

  it('reports an unreachable RPC as unreachable (still 200), never as healthy', async () => {
    const port = await freePort();
    const s = await startServer({ env: { BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${port}/closed` } });
    extra.push(s);
    const res = await s.get('/api/readiness');
    expect(res.status).toBe(200);
    expect(res.json.chain.state).toBe('unreachable');
    expect(res.json.status).toBe('degraded');
  });

  it('tells a chain that answers another chain id apart from chain 4663', async () => {
    const wrong = await startServer({ env: { BROKER_CHAIN_RPC_URL: await fakeRpc('0x1') } });
    const right = await startServer({ env: { BROKER_CHAIN_RPC_URL: await fakeRpc('0x1237') } });
    extra.push(wrong, right);
    expect((await wrong.get('/api/readiness')).json.chain.state).toBe('wrong_chain');
    const ok = await right.get('/api/readiness');
    expect(ok.json.chain.state).toBe('reachable');
    expect(ok.text).not.toContain('rpc-secret-path');
  });
});

describe('readiness: each dependency checked live, never read from configuration', () => {
  const PINNED = '2030-01-01T00:00:00.000Z';

  it('with the chain RPC down: chain 4663 is down (checked on the server clock, never the caller nowIso), readiness is degraded, and /status shows it down apart from the configuration', async () => {
    const s = await startServer({ env: { BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${await freePort()}/closed` } });
    extra.push(s);
    const res = await s.get(`/api/readiness?nowIso=${PINNED}`);
    expect(res.status).toBe(200);
    expect(res.json.answeredAt).toBe(PINNED);
    expect(res.json.status).toBe('degraded');
    expect(res.json.dependencies.chain).toMatchObject({ state: 'down', reason: expect.stringMatching(/did not answer/) });
    expect(res.json.dependencies.database).toMatchObject({ state: 'ok' });
    for (const reading of [res.json.dependencies.chain, res.json.dependencies.database]) {
      expect(reading.checkedAt).not.toBe(PINNED);
      expect(Number.isNaN(Date.parse(reading.checkedAt))).toBe(false);
    }
    for (const name of ['rateLimitStore', 'facilitator', 'partner'])
      expect(res.json.dependencies[name]).toMatchObject({ state: 'not_configured', checkedAt: null });

    const html = await (await fetch(`${s.url}/status`)).text();
    expect(html).toContain('data-dependency="chain" data-state="down"');
    expect(html).toContain('data-testid="readiness-status">degraded');
    expect(html).not.toMatch(/can be read live/i);
    // The configuration is shown too, as configuration.
    expect(html).toMatch(/A chain 4663 RPC is configured/);
    expect((await s.get('/api/health')).json.flags.brokerChainRpcConfigured).toBe(true);
  });

  it('a partner that never answers is down within the check timeout; two readiness calls within the cache time share one check', async () => {
    const silent = await silentServer();
    const s = await startServer({
      env: {
        PARTNER_API_URL: silent.url,
        PARTNER_API_KEY: secretMarker('partner'),
        READINESS_CHECK_TIMEOUT_MS: '300',
        READINESS_CHECK_TTL_SECONDS: '600',
      },
    });
    extra.push(s);
    const first = (await s.get('/api/readiness')).json;
    expect(first.checks).toEqual({ cachedForSeconds: 600, timeoutMs: 300 });
    expect(first.dependencies.partner).toMatchObject({ state: 'down', reason: 'no answer within 300 ms' });
    expect(first.status).toBe('degraded');
    const second = (await s.get('/api/readiness')).json;
    expect(second.dependencies.partner.checkedAt).toBe(first.dependencies.partner.checkedAt);
    expect(silent.requests()).toBe(1);
  });

  it('the partner check sends no key and no caller data; the facilitator is checked on its supported route with its key; without a cache each call checks again', async () => {
    const partnerKey = secretMarker('partner');
    const partner = await startFakePartner({ apiKey: partnerKey });
    const facilitatorKey = secretMarker('facilitator');
    const facilitator = await new FakeFacilitator({
      apiKey: facilitatorKey,
      orgPayTo: '0x000000000000000000000000000000000000dEaD',
    }).start();
    stops.push(
      () => partner.stop(),
      () => facilitator.stop(),
    );
    const env = {
      PARTNER_API_URL: `${partner.url}/agent-base`,
      PARTNER_API_KEY: partnerKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_API_KEY: facilitatorKey,
      READINESS_CHECK_TTL_SECONDS: '0',
    };
    const [s, wrongKey] = await Promise.all([
      startServer({ env }),
      startServer({ env: { ...env, FACILITATOR_API_KEY: secretMarker('other') } }),
    ]);
    extra.push(s, wrongKey);
    const res = (await s.get('/api/readiness')).json;
    expect(res.dependencies.partner).toMatchObject({ state: 'ok' });
    expect(res.dependencies.facilitator).toMatchObject({ state: 'ok' });
    expect(res.status).toBe('ready');
    const checks = partner.requests.filter((r) => r.path === '/agent-base');
    expect(checks.length).toBeGreaterThanOrEqual(1);
    for (const r of checks) {
      expect(r).toMatchObject({ method: 'GET', body: '' });
      expect(r.headers['x-api-key']).toBeUndefined();
    }
    expect(partner.submissions()).toEqual([]);
    const before = checks.length;
    await s.get('/api/readiness');
    expect(partner.requests.filter((r) => r.path === '/agent-base').length).toBe(before + 1);

    const refused = (await wrongKey.get('/api/readiness')).json;
    expect(refused.dependencies.facilitator).toMatchObject({
      state: 'degraded',
      reason: expect.stringMatching(/refused the configured key/),
    });
    expect(refused.status).toBe('degraded');
  });
});

describe('registry', () => {
  it('serves the public-safe canonical table', async () => {
    const res = await server.get('/api/stocks/registry');
    expect(res.status).toBe(200);
    expect(res.json.chainId).toBe(4663);
    expect(res.json.assets).toHaveLength(17);
    const usdg = res.json.assets.find((a: { ticker: string }) => a.ticker === 'USDG');
    expect(usdg).toMatchObject({ address: '0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168', decimals: 6 });
  });

  it('resolves by address case-insensitively and checksums the answer', async () => {
    const res = await server.post('/api/stocks/registry/resolve', { address: '0x5FC5360D0400A0FD4F2AF552ADD042D716F1D168'.toLowerCase() });
    expect(res.json).toMatchObject({
      status: 'canonical',
      asset: { ticker: 'USDG', address: '0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168' },
    });
    const mismatch = await server.post('/api/stocks/registry/resolve', { ticker: 'NVDA', address: '0x' + '11'.repeat(20) });
    expect(mismatch.json.status).toBe('ticker_address_mismatch');
  });
});

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document of every REST route', async () => {
    const res = await server.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    for (const path of ['/health', '/readiness', '/stocks/registry', '/stocks/registry/resolve', '/agents/schema']) {
      expect(Object.keys(res.json.paths)).toContain(path);
    }
    // Explicitly open (an empty security list), so a linter and a generator know no scheme applies.
    expect(res.json.paths['/health'].get.security).toEqual([]);
  });

  it("serves the docs page for people: the API viewer of this server's own OpenAPI document (rendered in the browser)", async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="/api/openapi.json"');
    expect(html).toContain('data-testid="api-viewer"');
    expect(html).toContain('Strategy Basket Service');
  });

  it('renders the status page with the registry table on the server', async () => {
    const html = await (await fetch(`${server.url}/status`)).text();
    expect(html).toContain('data-testid="registry-table"');
    expect(html).toContain('0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168');
    expect(html).toContain('planning_only');
  });
});

describe('@persistence', () => {
  it('applies migrations once: a restart on the same database applies nothing and stays current', async () => {
    const first = await startServer();
    const dbUrl = first.databaseUrl;
    const firstLog = first.logs
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      })
      .find((l) => l?.event === 'migrations');
    expect(firstLog.applied.length).toBeGreaterThan(0);
    await first.stop({ keepData: true });
    const again = await startServer({ databaseUrl: dbUrl });
    again.adoptDataOf(first);
    extra.push(again);
    const log = again.logs
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      })
      .find((l) => l?.event === 'migrations');
    expect(log).toMatchObject({ applied: [], alreadyApplied: firstLog.applied.length });
    expect((await again.get('/api/readiness')).json.database.migrations).toBe('current');
  });
});
