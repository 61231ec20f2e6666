/**
 * Bad input at the HTTP layer, through the real server: every answer under /api is JSON in
 * the envelope, every body passes the cap and the credential guard whatever its headers, no
 * error message quotes the request, and nothing a caller sends turns into a 500.
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * A request sent byte for byte as given: `fetch` resolves `..` and `%2e%2e` segments and
 * always sets a content type for a string body, which is exactly what these tests must not do.
 */
function raw(
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          server.assertNoSecrets(text, `${method} ${path}`);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function expectEnvelope(res: RawAnswer, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/json');
  expect(res.json?.error?.code, res.text).toBe(code);
  expect(Array.isArray(res.json.error.issues)).toBe(true);
}

function logLines(): any[] {
  return server.logs.flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

describe('a POST body without a content-type is still capped and guarded', () => {
  it('a credential in it is refused as a credential (never read as {} and answered 200), and not echoed', async () => {
    const res = await raw('POST', '/api/auth/logout', '{"privateKey":"ab12cd34ef-hidden"}');
    expectEnvelope(res, 400, 'CREDENTIAL_FIELD_REJECTED');
    expect(res.json.error.issues[0].path).toBe('privateKey');
    expect(res.text).not.toContain('ab12cd34ef');
  });

  it('a seed phrase as plain text is refused as a credential too', async () => {
    const seed = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
    expectEnvelope(await raw('POST', '/api/auth/logout', seed, { 'content-type': 'text/plain' }), 400, 'CREDENTIAL_FIELD_REJECTED');
  });

  it('a harmless JSON body without a content-type is 400 BODY_CONTENT_TYPE', async () => {
    expectEnvelope(await raw('POST', '/api/auth/logout', '{"a":1}'), 400, 'BODY_CONTENT_TYPE');
    expectEnvelope(
      await raw('POST', '/api/tools/validate-coil', '{"coil":{}}', { 'content-type': 'text/plain' }),
      400,
      'BODY_CONTENT_TYPE',
    );
  });

  it('a 400 KB body without a content-type is 413 BODY_TOO_LARGE', async () => {
    expectEnvelope(await raw('POST', '/api/auth/logout', 'a'.repeat(400 * 1024)), 413, 'BODY_TOO_LARGE');
  });

  it('an empty POST without a content-type still means {}', async () => {
    const res = await raw('POST', '/api/auth/logout', '');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
  });
});

describe('an empty POST without a content type means {} on /trpc as on REST', () => {
  it('POST /trpc/auth.logout with no body and no content type answers as the REST route does', async () => {
    const res = await raw('POST', '/trpc/auth.logout', '');
    expect(res.status, res.text).toBe(200);
    expect(String(res.headers['content-type'])).toContain('application/json');
    expect(res.json.result.data).toEqual({ ok: true });
  });
});

describe('a request the HTTP parser refuses is still answered in JSON', () => {
  it('a request line over 16 KB is 431 REQUEST_HEAD_TOO_LARGE in the envelope, not a bare status line', async () => {
    const res = await raw('GET', `/api/health?nowIso=${'x'.repeat(20_000)}`);
    expectEnvelope(res, 431, 'REQUEST_HEAD_TOO_LARGE');
  });

  it('bytes that are not HTTP are 400 REQUEST_MALFORMED in the envelope', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('REQUEST_MALFORMED');
  });
});

describe('a declared content type that is not JSON is refused whether or not a body comes with it', () => {
  it.each([
    ['text/plain', ''],
    ['text/plain', undefined],
    ['application/x-www-form-urlencoded', ''],
    ['', ''],
  ])('POST /api/auth/logout with content-type %j and no body is 400 BODY_CONTENT_TYPE', async (type, body) => {
    expectEnvelope(await raw('POST', '/api/auth/logout', body, { 'content-type': type }), 400, 'BODY_CONTENT_TYPE');
  });

  it('on /trpc too, and an empty POST with a JSON content type (parameters included) still means {}', async () => {
    const trpc = await raw('POST', '/trpc/auth.logout', '', { 'content-type': 'text/plain' });
    expect(trpc.status).toBe(400);
    expect(trpc.json.error.data.svcCode).toBe('BODY_CONTENT_TYPE');
    const json = await raw('POST', '/api/auth/logout', '', { 'content-type': 'application/json; charset=utf-8' });
    expect(json.status).toBe(200);
    expect(json.json).toEqual({ ok: true });
  });
});

describe('a malformed nowIso is a 400 on every door, never a 500', () => {
  it.each([
    ['/trpc/system.health', '{"nowIso":"\\u0000"}'],
    ['/trpc/vaults.list', '{"nowIso":"yesterday"}'],
    ['/trpc/system.readiness', '{"nowIso":12}'],
  ])('GET %s?input=%s', async (path, input) => {
    const res = await raw('GET', `${path}?input=${encodeURIComponent(input)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.data).toMatchObject({ svcCode: 'NOW_ISO_INVALID', httpStatus: 400 });
  });

  it('over REST too', async () => {
    expectEnvelope(await raw('GET', '/api/vaults?nowIso=yesterday'), 400, 'NOW_ISO_INVALID');
  });
});

describe('a JSON number beyond the range of a double, through /trpc and MCP', () => {
  it('through /trpc, as a POST body and as the JSON of a GET ?input=', async () => {
    const post = await raw('POST', '/trpc/tools.verifyArtifactReceipt', '{"receipt":{},"subject":-1e400}', {
      'content-type': 'application/json',
    });
    expect(post.status, post.text).toBe(400);
    expect(post.json.error.data).toMatchObject({ svcCode: 'INPUT_NUMBER_INVALID', issues: [{ path: 'subject' }] });
    const get = await raw('GET', `/trpc/vaults.v2Status?input=${encodeURIComponent('{"nowIso":1e400}')}`);
    expect(get.status, get.text).toBe(400);
    expect(get.json.error.data.svcCode).toBe('INPUT_NUMBER_INVALID');
  });

  it("in an MCP tool's arguments: the tool's error result", async () => {
    const call =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc_verify_receipt","arguments":{"coil":{"x":1e400},"receipt":{}}}}';
    const res = await raw('POST', '/mcp', call, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.isError).toBe(true);
    expect(JSON.parse(res.json.result.content[0].text).error).toMatchObject({
      code: 'INPUT_NUMBER_INVALID',
      issues: [{ code: 'NUMBER_OUT_OF_RANGE', path: 'coil.x' }],
    });
  });
});

describe('a request refused before its body is read leaves the connection usable', () => {
  it('the next request on the same kept-alive connection is answered (the refused body was discarded, not left in the socket)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ note: 'x'.repeat(200 * 1024) });
      expectEnvelope(await raw('POST', '/api/vaults/%ZZ', big, { 'content-type': 'application/json' }, agent), 400, 'PATH_MALFORMED');
      expectEnvelope(
        await raw('DELETE', '/api/tools/receipt', big, { 'content-type': 'application/json' }, agent),
        405,
        'METHOD_NOT_ALLOWED',
      );
      const next = await raw('GET', '/api/health', undefined, {}, agent);
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('no error message quotes the request', () => {
  it("malformed JSON is refused without the parser's message, which would quote the body", async () => {
    const res = await raw('POST', '/api/auth/logout', '{"privateKe": ab12cd34ef"}', { 'content-type': 'application/json' });
    expectEnvelope(res, 400, 'BODY_MALFORMED_JSON');
    expect(res.text).not.toContain('ab12cd34ef');
    expect(res.text).not.toContain('vateKe');
    expect(res.json.error.issues[0].message).toBe('the body does not parse as JSON');
  });
});

describe('paths under /api', () => {
  it('a bad percent-encoding is a JSON 400 PATH_MALFORMED, not an HTML page, and not an unhandled error', async () => {
    expectEnvelope(await raw('GET', '/api/vaults/%ZZ'), 400, 'PATH_MALFORMED');
    const trpc = await raw('GET', '/trpc/%ZZ');
    expect(trpc.status).toBe(400);
    expect(trpc.json.error.data.svcCode).toBe('PATH_MALFORMED');
    expect(logLines().some((l) => l.event === 'unhandled')).toBe(false);
  });

  it.each([
    '/api/vaults/%2e%2e?privateKey=hidden-q-1',
    '/api/%2E%2E?apiKey=hidden-q-1',
    '/api/vaults/..?x=hidden-q-1',
    '/api/%2e%2e/strategist/?privateKey=hidden-q-1',
    '/api/vaults\\..\\?x=hidden-q-1',
  ])('a dot segment (%s) is refused with 400 PATH_MALFORMED: no redirect, no query repeated', async (path) => {
    const res = await raw('GET', path);
    expectEnvelope(res, 400, 'PATH_MALFORMED');
    expect(res.headers.location).toBeUndefined();
    expect(res.text).not.toContain('hidden-q-1');
  });

  it('a trailing slash is answered, never redirected with its query', async () => {
    const res = await raw('GET', '/api/share-card/x/?privateKey=hidden-q-2');
    expect(res.headers.location).toBeUndefined();
    expectEnvelope(res, 400, 'CREDENTIAL_FIELD_REJECTED');
    expect(res.text).not.toContain('hidden-q-2');
  });

  it('OPTIONS (and any other method) is a JSON 405 with Allow, on procedure routes and on the share-card image route alike', async () => {
    for (const path of ['/api/share-card/hrcpt_00000000000000000000000000000000.svg', '/api/openapi.json', '/api/vaults']) {
      const res = await raw('OPTIONS', path);
      expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    }
    expectEnvelope(await raw('DELETE', '/api/tools/receipt'), 405, 'METHOD_NOT_ALLOWED');
  });

  it('an unknown path under /api is a JSON 404 NOT_FOUND', async () => {
    expectEnvelope(await raw('GET', '/api/no/such/route'), 404, 'NOT_FOUND');
  });
});

describe('unknown pages are a 404 of the caller, not an error of the service', () => {
  it('/favicon.ico and an unknown page answer 404, logged as not found at info level, never as unhandled', async () => {
    for (const path of ['/favicon.ico', '/no-such-page']) {
      const res = await raw('GET', path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('Internal error');
    }
    // Log lines reach the test through the server's stdout: wait for them.
    for (let i = 0; i < 50 && logLines().filter((l) => l.event === 'not_found').length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    const lines = logLines();
    const notFound = lines.filter((l) => l.event === 'not_found');
    expect(notFound.length).toBeGreaterThanOrEqual(2);
    expect(notFound.every((l) => l.level === 30)).toBe(true);
    expect(lines.some((l) => l.event === 'unhandled' || l.level >= 50)).toBe(false);
  });
});

describe('a lone UTF-16 surrogate, or a number beyond the range of a double, is a 400 on the field, never a 500', () => {
  const surrogate = ['INPUT_TEXT_INVALID', 'LONE_SURROGATE'] as const;
  const number = ['INPUT_NUMBER_INVALID', 'NUMBER_OUT_OF_RANGE'] as const;
  it.each([
    ['/api/tools/generate-coil', '{"prompt":"\\ud800 ai chips"}', 'prompt', ...surrogate],
    ['/api/agent/svc', '{"prompt":"ai chips","basketContext":{"name":"x\\udc00"}}', 'basketContext.name', ...surrogate],
    ['/api/coil/verify', '{"coil":{"name":"\\ud800"},"receipt":{}}', 'coil.name', ...surrogate],
    ['/api/vaults/compare', '{"vaults":[{"label":"\\ud800","allocations":[]}]}', 'vaults.0.label', ...surrogate],
    ['/api/vaults/x402/vault-comparison', '{"vaults":[{"label":"\\ud800"}]}', 'vaults.0.label', ...surrogate],
    ['/api/stocks/submit-partner-intent', '{"intent":{"targetSymbol":"\\ud800"}}', 'intent.targetSymbol', ...surrogate],
    ['/api/tools/receipt', '{"coil":{"\\ud800":1}}', 'coil.(key)', ...surrogate],
    ['/api/receipts/verify', '{"receipt":{},"subject":-1e400}', 'subject', ...number],
    ['/api/receipts/verify', '{"receipt":{"a":[1,1e999]}}', 'receipt.a.1', ...number],
    ['/api/tools/validate-coil', '{"coil":{"assets":[{"weightBps":1e400}]}}', 'coil.assets.0.weightBps', ...number],
    ['/api/auth/logout', '{"x":-1e400}', 'x', ...number],
  ])('%s %s', async (path, body, field, code, issue) => {
    const res = await raw('POST', path, body, { 'content-type': 'application/json' });
    expectEnvelope(res, 400, code);
    expect(res.json.error.issues[0]).toMatchObject({ code: issue, path: field });
  });
});
