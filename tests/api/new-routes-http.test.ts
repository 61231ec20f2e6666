/**
 * The shared HTTP behaviour of every route the autonomy-path issue added, through the real
 * server: documented in the OpenAPI document with request and response schemas, stamped
 * invariants, byte-identical answers under `nowIso`, credential-shaped fields refused and
 * never echoed, the 256 KB body cap, and the per-route rate limit with retry-after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVaultManifest } from '../../src/lib/server/vaults/manifest';
import { startServer, type TestServer } from '../support/server';
import { newRouteCases, VAULT_MANIFEST_INPUT } from '../support/new-routes';
import { textWithoutSignatures } from '../support/signatures';

let server: TestServer;
let limited: TestServer;
const cases = newRouteCases(createVaultManifest(VAULT_MANIFEST_INPUT).manifest);

beforeAll(async () => {
  [server, limited] = await Promise.all([
    startServer({ allowPostgres: false }),
    startServer({
      allowPostgres: false,
      env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '300', RATE_LIMIT_NAMESPACE: `new-routes-${Date.now()}` },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
});

describe('the routes of the autonomy-path issue', () => {
  it('are in the OpenAPI document with a request body schema and a 200 response schema', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    for (const c of cases) {
      const op = doc.paths[c.path.replace(/^\/api/, '')]?.post;
      expect(op, c.path).toBeDefined();
      expect(op.requestBody?.content?.['application/json']?.schema, `${c.path} request`).toBeDefined();
      const ok = op.responses['200'].content['application/json'].schema;
      expect(ok, `${c.path} response`).toBeDefined();
      const props = ok.properties ?? {};
      expect(props.notInvestmentAdvice, `${c.path} stamps notInvestmentAdvice`).toBeDefined();
      expect(props.liveOrderSent, `${c.path} stamps liveOrderSent`).toBeDefined();
    }
  });

  it('answer with notInvestmentAdvice: true and liveOrderSent: false, or refuse with the error envelope', async () => {
    for (const c of cases) {
      const res = await server.post(c.path, c.body());
      if (res.status === 200) {
        expect(res.json, c.name).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
      } else {
        // Bodies chosen to be refused on this server (no partner lane, a bare receipt).
        expect(res.json.error, c.name).toMatchObject({ code: expect.any(String), message: expect.any(String), issues: expect.any(Array) });
        if (c.stampedErrors) expect(res.json, c.name).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
      }
    }
  });

  it('answer the same request twice with byte-identical bodies', async () => {
    for (const c of cases.filter((x) => x.deterministic)) {
      const first = await server.post(c.path, c.body());
      const second = await server.post(c.path, c.body());
      expect(second.status, c.name).toBe(first.status);
      // Byte for byte but the signature blocks: each issuance is signed at its own server time (issue 36).
      expect(textWithoutSignatures(second.text), c.name).toBe(textWithoutSignatures(first.text));
    }
  });

  it('refuse credential-shaped fields at any depth, never echoing the value', async () => {
    const secret = 'svc-test-credential-value-8f3a';
    for (const c of cases) {
      const res = await server.post(c.path, { ...c.body(), options: { privateKey: secret } });
      expect(res.status, c.name).toBe(400);
      expect(res.json.error.code, c.name).toBe('CREDENTIAL_FIELD_REJECTED');
      expect(res.text).not.toContain(secret);
      if (c.stampedErrors) expect(res.json, c.name).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    }
  });

  it('refuse a body over 256 KB with 413 BODY_TOO_LARGE', async () => {
    for (const c of cases) {
      const res = await server.post(c.path, { ...c.body(), padding: 'x'.repeat(256 * 1024) });
      expect(res.status, c.name).toBe(413);
      expect(res.json.error.code, c.name).toBe('BODY_TOO_LARGE');
    }
  });

  it('are rate limited per client and per route: 429 RATE_LIMITED with retry-after, each route on its own budget', async () => {
    for (const c of cases) {
      for (let i = 0; i < 2; i++) expect((await limited.post(c.path, c.body())).status, c.name).not.toBe(429);
      const refused = await limited.post(c.path, c.body());
      expect(refused.status, c.name).toBe(429);
      expect(refused.json.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
