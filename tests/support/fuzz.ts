/**
 * Generated requests for the property-based test of the HTTP layer (tests/api/fuzz.test.ts)
 * and the memory soak (`FUZZ_RUNS=30000 FUZZ_MEMORY_REPORT=1`), for every route of the OpenAPI
 * document:
 * - POST: bodies shaped by the route's schema, mutated with wrong types, huge, lone-surrogate
 *   and claim-bearing strings, numbers JSON can spell but a double cannot hold (`1e400`), deep
 *   nesting and planted credential fields; sent with or without a JSON content type, sometimes
 *   as broken JSON or broken UTF-8, sometimes empty under a content type that is not JSON;
 * - GET: path parameters and query strings (each declared parameter, repeated, omitted, nasty,
 *   huge or non-finite numbers spelled as text, broken percent-encoding, planted credential
 *   names, unknown keys);
 * and each of them, one time in four, through the typed client's endpoint instead (`/trpc/<procedure>`:
 * a POST's body as the input, a GET's input as the JSON of `?input=`);
 * - MCP: a `tools/call` of every tool `POST /mcp` lists, its arguments shaped by the tool's input
 *   schema and mutated like a POST body, under the same content types.
 *
 * Two markers make leaks unambiguous: `CREDENTIAL_MARKER` goes only into values of
 * credential-named fields (which must never come back, anywhere, nor reach a log), and
 * `STRING_MARKER` into ordinary strings (which an answer may repeat as the caller's own value,
 * but which no error message may quote).
 */
import fc from 'fast-check';

export const CREDENTIAL_MARKER = 'cr3dm4rk';
export const STRING_MARKER = 'str1ngm4rk';

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };

export interface FuzzParameter {
  name: string;
  schema: Schema | undefined;
  required: boolean;
}

export interface FuzzRoute {
  method: 'GET' | 'POST';
  template: string;
  /** The MCP tool this route calls over `POST /mcp` (its body is then the tool's arguments). */
  mcpTool?: string;
  /** The tRPC procedure behind the route (`family.name`), from its operationId; undefined for a route that is not a procedure. */
  procedure: string | undefined;
  params: string[];
  query: FuzzParameter[];
  body: Schema | undefined;
}

export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Raw bytes or text of the body; undefined sends none. */
  body: string | Uint8Array | undefined;
  headers: Record<string, string>;
  /** The route template, for reporting. */
  route: string;
  surface: 'rest' | 'trpc' | 'mcp';
}

type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/** The procedure of an operation: trpc-to-openapi's operationId is the procedure path with its first dot as a dash. */
function procedureOf(op: Operation): string | undefined {
  const id = op.operationId;
  return id && /^[a-zA-Z0-9]+-[a-zA-Z0-9.]+$/.test(id) ? id.replace('-', '.') : undefined;
}

/** Every GET and POST route of the OpenAPI document, with its path and query parameters and body schema. */
export function fuzzRoutes(doc: Doc): FuzzRoute[] {
  return Object.entries(doc.paths).flatMap(([template, ops]) =>
    (['get', 'post'] as const)
      .filter((m) => ops[m])
      .map((m) => {
        const op = ops[m] as Operation;
        const parameters = op.parameters ?? [];
        return {
          method: m === 'get' ? ('GET' as const) : ('POST' as const),
          template,
          procedure: procedureOf(op),
          params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema, required: Boolean(p.required) })),
          body: op.requestBody?.content?.['application/json']?.schema,
        };
      }),
  );
}

/** A `tools/call` route of each MCP tool, from the tool list of `POST /mcp` (`tools/list`). */
export function mcpRoutes(tools: Array<{ name: string; inputSchema?: Schema }>): FuzzRoute[] {
  return tools.map((t) => ({
    method: 'POST' as const,
    template: `/mcp ${t.name}`,
    mcpTool: t.name,
    procedure: undefined,
    params: [],
    query: [],
    body: t.inputSchema,
  }));
}

/** Every POST route of the OpenAPI document. */
export function postRoutes(doc: Doc): FuzzRoute[] {
  return fuzzRoutes(doc).filter((r) => r.method === 'POST');
}

const DEEP = '__deep_nesting_';
const DEEP_PLACEHOLDER = /"__deep_nesting_(\d+)__"/g;

/**
 * Numbers JSON can spell that JSON.stringify cannot write: beyond the range of a double (read
 * as ±Infinity), below its smallest step (read as 0), longer than its precision. A value holds
 * a placeholder string that `fuzzRequest` replaces in the JSON text by the number itself.
 */
const RAW_NUMBERS = ['1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '1.7976931348623157e308', '5e-324', '1E+999'];
const RAW_NUMBER = '__raw_number_';
const RAW_NUMBER_PLACEHOLDER = /"__raw_number_(\d+)__"/g;
const rawNumber = () => fc.nat({ max: RAW_NUMBERS.length - 1 }).map((i) => `${RAW_NUMBER}${i}__`);

/** The JSON text of a generated value, with deep nesting and raw numbers written in. */
function jsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null')
    .replace(DEEP_PLACEHOLDER, (_, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)))
    .replace(RAW_NUMBER_PLACEHOLDER, (_, i: string) => RAW_NUMBERS[Number(i)]!);
}

const CREDENTIAL_FIELDS = [
  'privateKey',
  'private_key',
  'apiKey',
  'api-key',
  'mnemonic',
  'seedPhrase',
  'password',
  'accessToken',
  'brokerageLogin',
  'secret',
];

const CLAIMS = ['The agent sold NVDA', 'The vault deposited 10 USDG for you.', 'Executed your order', 'we bought 5 AAPL'];

/** Strings that stress the layer: surrogates, controls, bidi, emoji, JSON-looking text, markers. */
function nastyString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.nat().map((n) => `${STRING_MARKER}-${n}`) },
    {
      weight: 20,
      arbitrary: fc.constantFrom(
        '\ud800',
        'a\udc00b',
        '\udbff\udfff',
        '\u0000',
        '\u202e',
        '💥',
        '',
        ' ',
        '0x',
        '-1',
        'NaN',
        '{"a":1}',
        '../..',
        '%ZZ',
        '<script>',
      ),
    },
    { weight: 15, arbitrary: fc.tuple(fc.constantFrom(...CLAIMS), fc.nat()).map(([c, n]) => `${c} ${STRING_MARKER}-${n}`) },
    { weight: 15, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    // Long strings, rarely: up to past the 256 KB cap.
    { weight: 1, arbitrary: fc.constantFrom(2_000, 60_000, 270_000).map((n) => `${STRING_MARKER}-long-`.padEnd(n, 'x')) },
  );
}

/** Values a field of this name plausibly holds, so generated bodies get past the shape checks. */
function plausibleString(name: string): fc.Arbitrary<string> {
  const n = name.toLowerCase();
  if (n === 'nowiso' || n.endsWith('at'))
    return fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (n.includes('address') || n === 'receiver' || n === 'vaultid')
    return fc.oneof(fc.constantFrom(...KNOWN_ADDRESSES), fc.stringMatching(/^0x[0-9a-f]{40}$/));
  if (n.includes('amount') || n.endsWith('usdg') || n === 'shares')
    return fc.oneof(fc.constantFrom('0', '1', '25', '10000', '10000.000001', '0.1234567'), fc.nat({ max: 20_000 }).map(String));
  if (n === 'ticker' || n.endsWith('symbol')) return fc.constantFrom('NVDA', 'AAPL', 'SPY', 'USDG', 'XYZ');
  if (n.includes('hash') || n === 'txhash') return fc.stringMatching(/^(0x)?[0-9a-f]{64}$/);
  return nastyString();
}

/** Canonical registry addresses (NVDA, AAPL, SPY, USDG) and the V1 vault: real identities get further than random hex. */
const KNOWN_ADDRESSES = [
  '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC',
  '0xaF3D76f1834A1d425780943C99Ea8A608f8a93f9',
  '0x117cc2133c37B721F49dE2A7a74833232B3B4C0C',
];

function noise(depth: number): fc.Arbitrary<unknown> {
  const leaves = fc.oneof(
    nastyString(),
    fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, -0, 2 ** 53 + 1, Number.MAX_VALUE, Number.MIN_VALUE),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    rawNumber(),
  );
  if (depth <= 0) return leaves;
  return fc.oneof(
    { weight: 20, arbitrary: leaves },
    { weight: 5, arbitrary: fc.array(noise(depth - 1), { maxLength: 3 }) },
    { weight: 5, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), noise(depth - 1), { maxKeys: 3 }) },
    // Deep nesting, in one value: a placeholder that `fuzzRequest` expands in the JSON text
    // (a value this deep cannot be built and stringified without recursion).
    { weight: 1, arbitrary: fc.constantFrom(100, 5_000, 100_000).map((n) => `${DEEP}${n}__`) },
  );
}

function resolve(schema: Schema, doc: Doc): Schema {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 8; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {};
  return s ?? {};
}

/** A value that follows the schema, except where a mutation replaces a part with noise. */
export function fromSchema(schema: Schema | undefined, doc: Doc, depth = 6, name = ''): fc.Arbitrary<unknown> {
  const mutated = (good: fc.Arbitrary<unknown>) => fc.oneof({ weight: 15, arbitrary: good }, { weight: 1, arbitrary: noise(2) });
  if (!schema || depth <= 0) return noise(1);
  const s = resolve(schema, doc);
  if (s.const !== undefined) return mutated(fc.constant(s.const));
  if (Array.isArray(s.enum)) return mutated(fc.constantFrom(...s.enum));
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return fc.oneof(...alternatives.map((a: Schema) => fromSchema(a, doc, depth - 1, name)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
      const model = Object.fromEntries(props.map(([k, v]) => [k, fromSchema(v, doc, depth - 1, k)]));
      const required: string[] = (s.required ?? []).filter((k: string) => k in model);
      return mutated(fc.record(model, { requiredKeys: required }));
    }
    case 'array':
      return mutated(fc.array(fromSchema(s.items, doc, depth - 1, name), { maxLength: Math.min(s.maxItems ?? 4, 4) }));
    case 'string': {
      const shaped = s.pattern ? fc.stringMatching(new RegExp(s.pattern)).map((v) => v.slice(0, 200)) : plausibleString(name);
      return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: nastyString() });
    }
    case 'integer':
      return mutated(
        fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 20_000 }) },
          { weight: 1, arbitrary: fc.oneof(fc.constantFrom(2 ** 53, -(2 ** 53), 1e308), rawNumber()) },
        ),
      );
    case 'number':
      return mutated(
        fc.oneof(
          { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
          { weight: 4, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
          { weight: 1, arbitrary: fc.oneof(fc.constantFrom(1e308, -1e308, Number.MAX_VALUE, 5e-324), rawNumber()) },
        ),
      );
    case 'boolean':
      return mutated(fc.boolean());
    case 'null':
      return fc.constant(null);
    default:
      return noise(1);
  }
}

/** Adds `field: fieldValue` to the value, at the top or in one of its nested objects. */
function plantField(value: unknown, field: string, fieldValue: unknown, where: number): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value, [field]: fieldValue };
  const entries = Object.entries(value as Record<string, unknown>);
  const nested = entries.filter(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (nested.length > 0 && where % 2 === 1) {
    const [key, child] = nested[where % nested.length]!;
    return { ...(value as object), [key]: { ...(child as object), [field]: fieldValue } };
  }
  return { ...(value as object), [field]: fieldValue };
}

const PATH_PARAM_VALUES: Record<string, string[]> = {
  slug: ['svc-vault', 'svc-vault-v2'],
  serviceName: ['vault-fee-calculation', 'vault-risk-score', 'vault-comparison', 'vault-deposit-pack'],
  agentId: ['mock', 'partner'],
  jobId: ['job_0001', 'mode-b-1'],
  receiptId: ['hrcpt_00000000000000000000000000000000', 'x402r_0000'],
  payer: ['0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168'],
};

/** The value one time in `every`, else null. */
function rarely<T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** Text as a URL component; a lone surrogate becomes the bytes of invalid UTF-8. */
function urlComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
}

/** A path parameter: a known identity, one shaped like its name, or nasty text. */
function pathParam(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(PATH_PARAM_VALUES[name] ?? ['x'])),
    plausibleString(name).map((v) => v.slice(0, 100)),
    nastyString().map((v) => v.slice(0, 100)),
    fc.constantFrom('1e400', '-1', '0', 'NaN', 'Infinity', '%', '%ZZ', '..%2f', 'a/b'),
  );
}

/** Text a query parameter may carry: plausible for its name, numbers a double cannot hold, or nasty. */
function queryValue(p: FuzzParameter): fc.Arbitrary<string> {
  const numeric = p.schema?.type === 'integer' || p.schema?.type === 'number';
  return fc.oneof(
    { weight: 4, arbitrary: numeric ? fc.integer({ min: -5, max: 200 }).map(String) : plausibleString(p.name) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS, 'Infinity', 'NaN', '1e308', '9007199254740993', '0x10', '') },
    { weight: 2, arbitrary: nastyString().map((v) => v.slice(0, 300)) },
  );
}

/** A query string: each declared parameter present, repeated or absent, sometimes an unknown or credential-named key. */
function queryString(route: FuzzRoute): fc.Arbitrary<Array<[string, string]>> {
  return fc
    .record({
      declared: fc.tuple(
        ...route.query.map((p) =>
          fc.oneof(
            { weight: 2, arbitrary: fc.constant([] as string[]) },
            { weight: 4, arbitrary: queryValue(p).map((v) => [v]) },
            { weight: 1, arbitrary: fc.array(queryValue(p), { minLength: 2, maxLength: 3 }) },
          ),
        ),
      ),
      stray: rarely(fc.tuple(fc.constantFrom('x', 'limit', 'input', 'nowIso', ...CREDENTIAL_FIELDS), fc.nat()), 6),
    })
    .map(({ declared, stray }) => {
      const pairs: Array<[string, string]> = route.query.flatMap((p, i) => declared[i]!.map((v) => [p.name, v] as [string, string]));
      if (stray) {
        const [key, n] = stray;
        pairs.push([key, CREDENTIAL_FIELDS.includes(key) ? `${CREDENTIAL_MARKER}-${n}` : `${STRING_MARKER}-${n}`]);
      }
      return pairs;
    });
}

const encodeQuery = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${urlComponent(k)}=${urlComponent(v)}`).join('&');

/** A GET's input as the typed client sends it (`?input=` JSON), from the query pairs, with raw numbers sometimes. */
function trpcGetInput(pairs: Array<[string, string]>, value: unknown): string {
  const input: Record<string, unknown> = {};
  for (const [k, v] of pairs) input[k] = v;
  return jsonText(value === undefined ? input : { ...input, extra: value });
}

function withPath(route: FuzzRoute, params: string[]): string {
  let path = route.template;
  route.params.forEach((p, i) => {
    path = path.replace(`{${p}}`, urlComponent(String(params[i])));
  });
  return path;
}

/** One generated request against one of the routes. */
export function fuzzRequest(routes: readonly FuzzRoute[], doc: Doc): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        value: route.method === 'POST' ? fromSchema(route.body, doc) : rarely(noise(2), 4),
        params: fc.tuple(...route.params.map((p) => pathParam(p))),
        query: route.method === 'GET' ? queryString(route) : rarely(queryString(route), 10).map((q) => q ?? []),
        // One request in four goes through the typed client's endpoint (routes that are procedures).
        trpc: route.procedure ? rarely(fc.constant(true), 4) : fc.constant(null),
        // One request in eight plants a credential field.
        credential: rarely(fc.tuple(fc.constantFrom(...CREDENTIAL_FIELDS), fc.nat(), fc.nat()), 8),
        // One in eight, an unknown field whose name is a claim (an error may name it by path only).
        strayKey: rarely(fc.tuple(fc.constantFrom(...CLAIMS), fc.nat(), fc.nat()), 8),
        encoding: fc.oneof(
          { weight: 20, arbitrary: fc.constant('json') },
          {
            weight: 2,
            arbitrary: fc.constantFrom(
              'none',
              'text',
              'broken-json',
              'broken-utf8',
              'not-object',
              'empty-text',
              'empty-form',
              'empty-none',
              'empty-json',
            ),
          },
        ),
        payment: rarely(fc.base64String({ maxLength: 200 }), 6),
      })
      .map(({ value, params, query, trpc, credential, strayKey, encoding, payment }): FuzzRequest => {
        const headers: Record<string, string> = {};
        if (payment !== null) headers['payment-signature'] = payment;
        const surface = trpc ? ('trpc' as const) : ('rest' as const);
        if (route.method === 'GET') {
          const path = trpc
            ? `/trpc/${route.procedure}?input=${urlComponent(trpcGetInput(query, value ?? undefined))}`
            : `/api${withPath(route, params)}${query.length ? `?${encodeQuery(query)}` : ''}`;
          return { method: 'GET', path, body: undefined, headers, route: `GET ${route.template}`, surface };
        }
        let planted = credential ? plantField(value, credential[0], `${CREDENTIAL_MARKER}-${credential[1]}`, credential[2]) : value;
        if (strayKey) planted = plantField(planted, `${strayKey[0]} ${STRING_MARKER}-${strayKey[1]}`, 1, strayKey[2]);
        const json = route.mcpTool
          ? `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(route.mcpTool)},"arguments":${jsonText(planted)}}}`
          : jsonText(planted);
        let body: string | Uint8Array = json;
        // The transport answers only a client that takes JSON (and names the event stream too).
        if (route.mcpTool) headers.accept = 'application/json, text/event-stream';
        if (['json', 'broken-json', 'broken-utf8', 'not-object', 'empty-json'].includes(encoding))
          headers['content-type'] = 'application/json';
        if (encoding === 'text' || encoding === 'empty-text') headers['content-type'] = 'text/plain';
        if (encoding === 'empty-form') headers['content-type'] = 'application/x-www-form-urlencoded';
        if (encoding === 'broken-json') body = json.slice(0, Math.max(1, json.length - 2)) + '"';
        if (encoding === 'broken-utf8') body = new Uint8Array([...Buffer.from(json.slice(0, -1)), 0xff, 0xfe, 0x7d]);
        if (encoding === 'not-object') body = `[${json}]`;
        if (encoding.startsWith('empty-')) body = new Uint8Array();
        const path = route.mcpTool
          ? '/mcp'
          : trpc
            ? `/trpc/${route.procedure}`
            : `/api${withPath(route, params)}${query.length ? `?${encodeQuery(query)}` : ''}`;
        // Over /trpc the body is the procedure's whole input: the path parameters go into it.
        if (trpc && encoding === 'json' && planted && typeof planted === 'object' && !Array.isArray(planted)) {
          const withParams = { ...(planted as object), ...Object.fromEntries(route.params.map((p, i) => [p, params[i]])) };
          body = jsonText(withParams);
        }
        return { method: 'POST', path, body, headers, route: `POST ${route.template}`, surface: route.mcpTool ? 'mcp' : surface };
      }),
  );
}
