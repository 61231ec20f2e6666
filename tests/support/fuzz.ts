/**
 * Generated requests for the property-based test of the HTTP layer (tests/api/fuzz.test.ts)
 * and the memory soak (`FUZZ_RUNS=30000 FUZZ_MEMORY_REPORT=1`): bodies shaped by each POST
 * route's OpenAPI schema, mutated with wrong types, huge, lone-surrogate and claim-bearing
 * strings, deep nesting and planted credential fields, sent with or without a JSON content
 * type, and sometimes as broken JSON or broken UTF-8.
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

export interface FuzzRoute {
  template: string;
  params: string[];
  body: Schema | undefined;
}

export interface FuzzRequest {
  path: string;
  /** Raw bytes or text of the body; undefined sends none. */
  body: string | Uint8Array | undefined;
  headers: Record<string, string>;
  /** The route template, for reporting. */
  route: string;
}

/** Every POST route of the OpenAPI document, with its path parameters and body schema. */
export function postRoutes(doc: Doc): FuzzRoute[] {
  return Object.entries(doc.paths)
    .filter(([, ops]) => ops.post)
    .map(([template, ops]) => ({
      template,
      params: ((ops.post.parameters ?? []) as Array<{ name: string; in: string }>).filter((p) => p.in === 'path').map((p) => p.name),
      body: ops.post.requestBody?.content?.['application/json']?.schema,
    }));
}

const DEEP = '__deep_nesting_';
const DEEP_PLACEHOLDER = /"__deep_nesting_(\d+)__"/g;

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
  const leaves = fc.oneof(nastyString(), fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1), fc.double(), fc.integer());
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
      return mutated(fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 20_000 }));
    case 'number':
      return mutated(fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 20_000 })));
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
};

/** The value one time in `every`, else null. */
function rarely<T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** A path parameter as a segment; a lone surrogate becomes the bytes of invalid UTF-8. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
}

/** One generated request against one of the routes. */
export function fuzzRequest(routes: readonly FuzzRoute[], doc: Doc): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        value: fromSchema(route.body, doc),
        params: fc.tuple(
          ...route.params.map((p) =>
            fc.oneof(
              fc.constantFrom(...(PATH_PARAM_VALUES[p] ?? ['x'])),
              nastyString().map((v) => v.slice(0, 100)),
            ),
          ),
        ),
        // One request in eight plants a credential field.
        credential: rarely(fc.tuple(fc.constantFrom(...CREDENTIAL_FIELDS), fc.nat(), fc.nat()), 8),
        // One in eight, an unknown field whose name is a claim (an error may name it by path only).
        strayKey: rarely(fc.tuple(fc.constantFrom(...CLAIMS), fc.nat(), fc.nat()), 8),
        encoding: fc.oneof(
          { weight: 20, arbitrary: fc.constant('json') },
          { weight: 1, arbitrary: fc.constantFrom('none', 'text', 'broken-json', 'broken-utf8', 'not-object') },
        ),
        payment: rarely(fc.base64String({ maxLength: 200 }), 6),
      })
      .map(({ value, params, credential, strayKey, encoding, payment }) => {
        let path = route.template;
        route.params.forEach((p, i) => {
          path = path.replace(`{${p}}`, pathSegment(String(params[i])));
        });
        let planted = credential ? plantField(value, credential[0], `${CREDENTIAL_MARKER}-${credential[1]}`, credential[2]) : value;
        if (strayKey) planted = plantField(planted, `${strayKey[0]} ${STRING_MARKER}-${strayKey[1]}`, 1, strayKey[2]);
        const json = (JSON.stringify(planted) ?? 'null').replace(
          DEEP_PLACEHOLDER,
          (_, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)),
        );
        const headers: Record<string, string> = {};
        let body: string | Uint8Array = json;
        if (encoding === 'json' || encoding === 'broken-json' || encoding === 'broken-utf8' || encoding === 'not-object')
          headers['content-type'] = 'application/json';
        if (encoding === 'text') headers['content-type'] = 'text/plain';
        if (encoding === 'broken-json') body = json.slice(0, Math.max(1, json.length - 2)) + '"';
        if (encoding === 'broken-utf8') body = new Uint8Array([...Buffer.from(json.slice(0, -1)), 0xff, 0xfe, 0x7d]);
        if (encoding === 'not-object') body = JSON.stringify([planted]);
        if (payment !== null) headers['payment-signature'] = payment;
        return { path: `/api${path}`, body, headers, route: route.template };
      }),
  );
}
