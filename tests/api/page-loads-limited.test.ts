/**
 * A page's own data load is a procedure call like any other, counted against the visitor's
 * per-tool limit. Once that limit is spent, the page answers 429 with a designed "too many
 * requests, try again in N s" state and a `retry-after` header: never a 500, never an
 * unhandled error in the logs. Through the real server (SvelteKit's server-side render of
 * each page with a load), each page as a client address of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    allowPostgres: false,
    env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '300', ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '1' },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** Every page with a data load; the first visit spends the limit of each procedure it calls. */
const PAGES: { path: string; firstStatus: number }[] = [
  { path: '/vaults', firstStatus: 200 },
  { path: `/vaults/${V1_VAULT.slug}`, firstStatus: 200 },
  { path: `/vaults/${V1_VAULT.slug}/deposit`, firstStatus: 200 },
  { path: '/stocks', firstStatus: 200 },
  { path: '/status', firstStatus: 200 },
  { path: '/paid', firstStatus: 200 },
  { path: `/coils/${'ab'.repeat(32)}`, firstStatus: 404 },
];

describe('a page whose load finds the limit spent', () => {
  PAGES.forEach(({ path, firstStatus }, i) => {
    it(`${path}: 429 with the designed "try again" state, never 500`, async () => {
      const visitor = { 'x-forwarded-for': `203.0.113.${40 + i}`, accept: 'text/html' };
      expect((await server.get(path, visitor)).status).toBe(firstStatus);
      const limited = await server.get(path, visitor);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toMatch(/text\/html/);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expect(limited.text).toContain('data-testid="rate-limited"');
      expect(limited.text).toContain('Too many requests');
      expect(limited.text).toMatch(/try again in \d+ s/);
    });
  });

  it('logs no unhandled error for any of them', () => {
    const lines = server.logs.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.event === 'unhandled' || l.event === 'internal_error')).toEqual([]);
    expect(lines.filter((l) => l.msg === 'request' && l.status >= 500)).toEqual([]);
  });
});
