/**
 * The OpenAPI document against the real server, from a client's side (issue 24, point 2):
 *
 * - every operation's example request is accepted as input (no 400: the /docs "Try it out"
 *   sends exactly these) and its real answer, success or refusal, matches the declared status,
 *   schema and headers;
 * - real refusals of every operation (a malformed nowIso: 400; an oversized body: 413; a spent
 *   rate limit: 429 with retry-after) match the error envelope the document declares;
 * - a client generated with openapi-typescript + openapi-fetch type-checks a call of every
 *   operation with its example and reads `error.error.code`, then runs against the server;
 * - Redocly's recommended ruleset passes with the rules `.redocly.yaml` turns off.
 *
 * The paid route's 402 challenge and 200 with its settlement headers are held to the document
 * by tests/api/x402-buyer.test.ts (they need the facilitator lane and the local chain).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequest, OpenApiContract, operationsOf, type Operation } from '../support/openapi-contract';
import { ROOT, startServer, type ApiResponse, type TestServer } from '../support/server';
import { signIn, WALLET_A } from '../support/siwe';

const run = promisify(execFile);
/** The operations whose success is not a JSON body. */
const NOT_JSON_OPERATIONS = ['shareCardSvg', 'shareCardPng', 'receiptLogCheckpoint', 'receiptLogTile', 'receiptLogProof'];
let server: TestServer;
let limited: TestServer;
let doc: any;
let contract: OpenApiContract;
let operations: Operation[];
const work = mkdtempSync(join(tmpdir(), 'svc-openapi-'));

beforeAll(async () => {
  [server, limited] = await Promise.all([startServer(), startServer({ env: { RATE_LIMIT_MAX: '1' } })]);
  doc = (await server.get('/api/openapi.json')).json;
  contract = new OpenApiContract(doc);
  operations = operationsOf(doc);
});
afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
  rmSync(work, { recursive: true, force: true });
});

function send(
  target: TestServer,
  operation: Operation,
  request: { url: string; body?: unknown; rawBody?: string },
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  if (operation.method === 'get') return target.get(request.url, headers);
  if (request.rawBody !== undefined)
    return target.request('POST', request.url, { rawBody: request.rawBody, headers: { 'content-type': 'application/json' } });
  return target.post(request.url, request.body ?? {}, headers);
}

describe('the OpenAPI document against real answers', () => {
  it('lists every route with an example, and each example is accepted and answered as declared', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(76);
    const problems: string[] = [];
    const statuses: Record<string, number> = {};
    for (const operation of operations) {
      const answer = await send(server, operation, exampleRequest(operation));
      statuses[`${operation.method} ${operation.template}`] = answer.status;
      if (answer.status === 400) problems.push(`${operation.operationId}: its example is refused as input: ${answer.text.slice(0, 300)}`);
      problems.push(...contract.problems(operation, answer));
    }
    expect(problems).toEqual([]);
    // Most examples succeed; the rest meet a documented refusal (no session, nothing stored, not configured).
    expect(Object.values(statuses).filter((s) => s === 200).length).toBeGreaterThanOrEqual(55);
  });

  it('signed in (a real SIWE session), the wallet-scoped routes answer 200 as declared, and so does every other route', async () => {
    const { cookie, response } = await signIn(server, WALLET_A);
    const verify = operations.find((o) => o.operationId === 'auth-verify')!;
    const problems = contract.problems(verify, response);
    const statuses: Record<string, number> = {};
    for (const operation of operations) {
      if (operation.operationId === 'auth-logout') continue; // would end the session the others use
      const answer = await send(server, operation, exampleRequest(operation), { cookie });
      statuses[operation.operationId] = answer.status;
      problems.push(...contract.problems(operation, answer));
    }
    expect(problems).toEqual([]);
    expect({ verify: response.status, coils: statuses['me-coils'], receipts: statuses['me-receipts'] }).toEqual({
      verify: 200,
      coils: 200,
      receipts: 200,
    });
  });

  it('a malformed nowIso on every route is a 400 in the declared envelope', async () => {
    const problems: string[] = [];
    for (const operation of operations) {
      if (operation.operationId === 'shareCardSvg' || operation.operationId === 'shareCardPng') continue; // take no query input: see below
      const request = exampleRequest(
        operation,
        operation.method === 'get' ? { query: { nowIso: 'yesterday' } } : { body: { nowIso: 'yesterday' } },
      );
      const answer = await send(server, operation, request);
      if (answer.status !== 400) problems.push(`${operation.operationId}: ${answer.status}`);
      else if (answer.json.error.code !== 'NOW_ISO_INVALID') problems.push(`${operation.operationId}: ${answer.json.error.code}`);
      problems.push(...contract.problems(operation, answer));
    }
    for (const [operationId, extension] of [
      ['shareCardSvg', 'svg'],
      ['shareCardPng', 'png'],
    ]) {
      const card = operations.find((o) => o.operationId === operationId)!;
      const malformed = await server.get(`/api/share-card/hrcpt_%zz.${extension}`);
      expect(malformed.status).toBe(400);
      problems.push(...contract.problems(card, malformed));
    }
    expect(problems).toEqual([]);
  });

  it('a body over 256 KB on every POST route is a 413 in the declared envelope', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
    const problems: string[] = [];
    for (const operation of operations.filter((o) => o.method === 'post')) {
      const answer = await send(server, operation, { ...exampleRequest(operation), rawBody: big });
      if (answer.status !== 413) problems.push(`${operation.operationId}: ${answer.status}`);
      problems.push(...contract.problems(operation, answer));
    }
    expect(problems).toEqual([]);
  });

  it('a spent rate limit on every route is a 429 with retry-after in the declared envelope', async () => {
    const problems: string[] = [];
    for (const operation of operations) {
      const request = exampleRequest(operation);
      await send(limited, operation, request);
      const answer = await send(limited, operation, request);
      if (answer.status !== 429) problems.push(`${operation.operationId}: ${answer.status}`);
      problems.push(...contract.problems(operation, answer));
    }
    expect(problems).toEqual([]);
  });
});

describe('a client generated from the document', () => {
  it('openapi-typescript types type-check an openapi-fetch call of every route, and the calls run against the server', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    writeFileSync(join(work, 'openapi.d.ts'), astToString(await openapiTS(doc)));
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
    // One typed call per operation with its example: the generated request types must accept
    // the example, and every generated error type must be one of the documented bodies (`codeOf`).
    // The share card's images and the C2SP log's text and tiles are not JSON (openapi-fetch parses JSON by default).
    const called = operations.filter((o) => !NOT_JSON_OPERATIONS.includes(o.operationId));
    expect(operations.length - called.length).toBe(NOT_JSON_OPERATIONS.length);
    const calls = called
      .map((operation) => {
        const params: Record<string, unknown> = {};
        for (const p of operation.op.parameters ?? []) {
          if (p.example === undefined || (p.in !== 'path' && p.in !== 'query')) continue;
          const group = (params[p.in] ??= {}) as Record<string, unknown>;
          group[p.name] = p.example;
        }
        const body = operation.op.requestBody?.content?.['application/json']?.example;
        const init = JSON.stringify({ params, ...(body ? { body } : {}) });
        return `  {
    const { data, error, response } = await client.${operation.method.toUpperCase()}(${JSON.stringify(operation.template)}, ${init});
    results.push({ id: ${JSON.stringify(operation.operationId)}, status: response.status, ok: data !== undefined, code: codeOf(error) });
  }`;
      })
      .join('\n');
    writeFileSync(
      join(work, 'client.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

const client = createClient<paths>({ baseUrl: process.argv[2] + '/api' });
const results: Array<{ id: string; status: number; ok: boolean; code?: string }> = [];
/** The documented error bodies: the envelope, or (strategist in partner mode, the x402 challenge) a flat { error, code }. */
type Envelope = { error: { code: string; message: string; issues: Array<{ code: string; message: string; path?: string }> } };
type Flat = { error: string; code: string };
function codeOf(error: Envelope | Flat | undefined): string | undefined {
  if (error === undefined) return undefined;
  return typeof error.error === 'string' ? (error as Flat).code : error.error.code;
}
async function main() {
${calls}
  console.log(JSON.stringify(results));
}
void main();
`,
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          outDir: 'out',
          types: ['node'],
          skipLibCheck: true,
        },
        files: ['client.ts'],
      }),
    );
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work]).catch(
      (e: { stdout: string }) => e,
    );
    expect(tsc.stdout).toBe('');
    const { stdout } = await run(process.execPath, [join(work, 'out', 'client.js'), server.url]);
    const results = JSON.parse(stdout) as Array<{ id: string; status: number; ok: boolean; code?: string }>;
    expect(results.map((r) => r.id)).toEqual(called.map((o) => o.operationId));
    for (const r of results) {
      // A success has data; a refusal has the envelope's code where the generated type says it is.
      if (r.status === 200) expect(r.ok, r.id).toBe(true);
      else expect(typeof r.code, `${r.id} ${r.status}`).toBe('string');
    }
  }, 120_000);
});

describe('Redocly', () => {
  it("the recommended ruleset passes on the served document (with .redocly.yaml's justified exceptions)", async () => {
    const file = join(work, 'served-openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const result = await run(
      process.execPath,
      [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--config', join(ROOT, '.redocly.yaml'), '--format', 'json', file],
      {
        cwd: work,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((e: { stdout: string; code: number }) => e);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);
});
