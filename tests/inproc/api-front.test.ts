/**
 * The API front's two faces (src/lib/server/http/node-front.ts, fetch-front.ts) only convert:
 * the same request answers the same status, headers and bytes through either, and every
 * decision about a request (the raw target check included) is the front's, not a face's.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFront } from '../../src/api-front';
import { answerApiFetch } from '../../src/lib/server/http/fetch-front';
import { publishNodeFront, type NodeFront } from '../../src/lib/server/http/node-front';

interface Sent {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers the transport writes, not the front. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function frontHeaders(entries: Iterable<[string, string | string[] | undefined]>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of entries)
    if (value !== undefined && !TRANSPORT_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join('\n') : value;
  return headers;
}

let server: Server;
let nodeFront: NodeFront;

beforeAll(async () => {
  publishNodeFront(apiFront);
  nodeFront = (globalThis as Record<symbol, unknown>)[Symbol.for('svc.nodeApiFront')] as NodeFront;
  // What scripts/start.mjs does with a request, the pages left out.
  server = createServer((req, res) => {
    if (nodeFront.isApiTarget(req.url ?? '/')) return nodeFront.serve(req, res);
    res.statusCode = 404;
    res.end('pages');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sent byte for byte (`fetch` would resolve dot segments) through the Node face. */
function throughNode(sent: Sent): Promise<Answered> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: sent.method,
        path: sent.target,
        headers: { ...sent.headers, ...(sent.body !== undefined ? { 'content-length': String(Buffer.byteLength(sent.body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: frontHeaders(Object.entries(res.headers)),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

async function throughFetch(sent: Sent): Promise<Answered> {
  const request = new Request(`http://127.0.0.1${sent.target}`, { method: sent.method, headers: sent.headers, body: sent.body });
  const response = await answerApiFetch(apiFront, request, '127.0.0.1');
  const setCookies = response.headers.getSetCookie();
  const headers = frontHeaders([...response.headers].filter(([name]) => name !== 'set-cookie'));
  if (setCookies.length) headers['set-cookie'] = setCookies.join('\n');
  return { status: response.status, headers, body: await response.text() };
}

const id = (n: number) => ({ 'x-request-id': `face-parity-${String(n).padStart(4, '0')}` });
const json = { 'content-type': 'application/json' };

const SAME_ANSWER: Array<[string, Sent]> = [
  ['a static answer', { method: 'GET', target: '/api/health', headers: id(1) }],
  ['a HEAD as its GET', { method: 'HEAD', target: '/api/health', headers: id(2) }],
  ['a GET through the caller', { method: 'GET', target: '/api/stocks/registry?nowIso=2026-01-01T00:00:00Z', headers: id(3) }],
  [
    'a procedure refusal with the invariants',
    { method: 'POST', target: '/api/tools/validate-coil', headers: { ...id(4), ...json }, body: '{}' },
  ],
  ['a body that is not JSON', { method: 'POST', target: '/api/tools/validate-coil', headers: { ...id(5), ...json }, body: '{nope' }],
  [
    'a content type that is not JSON',
    { method: 'POST', target: '/api/tools/receipt', headers: { ...id(6), 'content-type': 'text/plain' }, body: 'x' },
  ],
  ['a credential in the query', { method: 'GET', target: '/api/health?privateKey=abc', headers: id(7) }],
  ['a credential in the body', { method: 'POST', target: '/api/tools/receipt', headers: { ...id(8), ...json }, body: '{"apiKey":"x"}' }],
  ['a method no route takes', { method: 'DELETE', target: '/api/tools/receipt', headers: id(9) }],
  ['an unknown path', { method: 'GET', target: '/api/nowhere', headers: id(10) }],
  ['a path that is not UTF-8', { method: 'GET', target: '/api/vaults/%ZZ', headers: id(11) }],
  [
    'a payment route preflight',
    { method: 'OPTIONS', target: '/api/x402/anything', headers: { ...id(12), 'access-control-request-method': 'POST' } },
  ],
  ['a /trpc call', { method: 'GET', target: '/trpc/system.health', headers: id(13) }],
  ['a /trpc batch', { method: 'GET', target: `/trpc/system.health,nope?batch=1&input=${encodeURIComponent('{}')}`, headers: id(14) }],
  ['a GET of /mcp', { method: 'GET', target: '/mcp', headers: id(15) }],
  ['an /mcp body that is not JSON', { method: 'POST', target: '/mcp', headers: { ...id(16), ...json }, body: '[' }],
];

describe('the two faces of the API front', () => {
  it.each(SAME_ANSWER)('answer %s alike', async (_, sent) => {
    const node = await throughNode(sent);
    const web = await throughFetch(sent);
    expect(web).toEqual(node);
    expect(node.headers['x-request-id']).toBe(sent.headers!['x-request-id']);
  });
});

describe('a raw target with a dot segment', () => {
  it.each(['/api/vaults/%2e%2e/health', '/api/%2E%2E/health?privateKey=hidden-dot', '/vaults/../api/health', '/api\\..\\health'])(
    'is refused by the front itself, whichever path it names (%s)',
    async (target) => {
      expect(nodeFront.isApiTarget(target)).toBe(true);
      const answered = await throughNode({ method: 'GET', target });
      expect(answered.status).toBe(400);
      expect(JSON.parse(answered.body).error.code).toBe('PATH_MALFORMED');
      expect(answered.body).not.toContain('hidden-dot');
      // The front's own decision: the same answer whoever hands it the target.
      const direct = await apiFront.answer({
        method: 'GET',
        target,
        headers: new Headers(),
        webHeaders: () => new Headers(),
        clientAddress: '127.0.0.1',
        body: { contentType: null, contentLength: null, chunks: null },
      });
      expect(direct.status).toBe(400);
      expect(JSON.parse(direct.body as string).error.code).toBe('PATH_MALFORMED');
    },
  );

  it('a page target without one is left to the pages', () => {
    expect(nodeFront.isApiTarget('/vaults/x')).toBe(false);
    expect(nodeFront.isApiTarget('/strategist?q=../..')).toBe(false);
  });
});
