/**
 * `/llms.txt` (llmstxt.org) at the site root: served as text, states the truth rules, and every
 * API path it links is a route of the OpenAPI document (or one of the doors that are not), so
 * the file cannot drift from the service.
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

describe('/llms.txt', () => {
  it('describes the service, its doors and its truth rules, and links only routes that exist', async () => {
    const res = await fetch(`${server.url}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text.startsWith('# Strategy Basket Service\n\n> ')).toBe(true);
    for (const rule of ['notInvestmentAdvice: true', 'liveOrderSent: false', 'CREDENTIAL_FIELD_REJECTED', 'never that an order was placed'])
      expect(text).toContain(rule);

    const openapi = (await server.get('/api/openapi.json')).json as { paths: Record<string, unknown> };
    const linked = [...text.matchAll(/\]\((\/[^)\s]*)\)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(10);
    for (const path of linked) {
      if (['/trpc', '/mcp', '/api/openapi.json'].includes(path)) continue;
      expect(Object.keys(openapi.paths), path).toContain(path.replace(/^\/api/, ''));
    }
  });
});
