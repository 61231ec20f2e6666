/**
 * Rate limit per client per tool, in memory and (when Redis is present) shared by two
 * instances. `.ci/run` runs this file again with TEST_REDIS_URL set.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { redisReachable, redisUrl, requireService } from '../support/services';
import { freePort, startServer, type TestServer } from '../support/server';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function start(env: Record<string, string>) {
  const s = await startServer({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '120', ...env } });
  servers.push(s);
  return s;
}

describe('rate limit', () => {
  it('allows RATE_LIMIT_MAX requests per tool, then answers 429 RATE_LIMITED with retry-after', async () => {
    const s = await start({ RATE_LIMIT_NAMESPACE: `mem-${Date.now()}` });
    for (let i = 0; i < 3; i++) expect((await s.get('/api/stocks/registry')).status).toBe(200);
    const limited = await s.get('/api/stocks/registry');
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('RATE_LIMITED');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(120);

    // Another tool has its own budget.
    expect((await s.get('/api/health')).status).toBe(200);
    // The typed client's call of the same procedure is the same tool.
    expect((await s.get('/trpc/system.registry')).status).toBe(429);
    // Bad requests count too: the limit is checked before the body is read.
    for (let i = 0; i < 3; i++)
      await s.request('POST', '/api/stocks/registry/resolve', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    expect((await s.post('/api/stocks/registry/resolve', { ticker: 'NVDA' })).status).toBe(429);
  });

  it('treats each client address as its own client behind a trusted proxy header', async () => {
    const s = await start({ ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '1', RATE_LIMIT_NAMESPACE: `xff-${Date.now()}` });
    for (let i = 0; i < 3; i++) expect((await s.get('/api/health', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    expect((await s.get('/api/health', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    expect((await s.get('/api/health', { 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);
  });

  it('keeps limiting in memory when the Redis it is given does not answer; readiness says degraded and health never says the store is shared', async () => {
    // A port nobody listens on: the shared store is configured but unreachable.
    const s = await start({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMIT_NAMESPACE: `down-${Date.now()}` });
    for (let i = 0; i < 3; i++) expect((await s.get('/api/stocks/registry')).status).toBe(200);
    expect((await s.get('/api/stocks/registry')).status).toBe(429);
    const readiness = (await s.get('/api/readiness')).json;
    expect(readiness.rateLimitStore).toBe('redis_unreachable');
    expect(readiness.dependencies.rateLimitStore).toMatchObject({ state: 'down' });
    expect(readiness.status).toBe('degraded');
    const flags = (await s.get('/api/health')).json.flags;
    expect(flags.sharedRateLimitStore).toBeUndefined();
    expect(flags.sharedRateLimitStoreConfigured).toBe(true);
  });

  it('@ratelimit shares one limit across two instances through Redis', async (ctx) => {
    const skip = await requireService('Redis', redisReachable);
    if (skip) return ctx.skip();
    const namespace = `shared-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const env = { REDIS_URL: redisUrl(), RATE_LIMIT_NAMESPACE: namespace };
    const [a, b] = await Promise.all([start(env), start(env)]);
    // (Start-up polls /api/health, so count on another route.)
    expect((await a.get('/api/stocks/registry')).status).toBe(200);
    expect((await b.get('/api/stocks/registry')).status).toBe(200);
    expect((await a.get('/api/stocks/registry')).status).toBe(200);
    const fourth = await b.get('/api/stocks/registry');
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    const readiness = await a.get('/api/readiness');
    expect(readiness.json.rateLimitStore).toBe('redis_ok');
    expect(readiness.json.dependencies.rateLimitStore).toMatchObject({ state: 'ok' });
  });
});
