/**
 * Holds real answers of the real server to the OpenAPI document it serves: every answer's
 * status must be declared for its operation, its JSON body must validate against that
 * response's schema (JSON Schema 2020-12, as OpenAPI 3.1 says, with Ajv) and every header the
 * response declares as required must be there.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiResponse } from './server';

type Json = Record<string, any>;

export interface Operation {
  method: 'get' | 'post';
  /** The document's path template, without the /api prefix. */
  template: string;
  operationId: string;
  op: Json;
}

export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Json).flatMap(([template, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ method: method as 'get' | 'post', template, operationId: op.operationId, op })),
  );
}

/** The request an operation's examples make: its URL path (with /api) and query, and its body. */
export function exampleRequest(operation: Operation, overrides: { query?: Record<string, string>; body?: Json } = {}) {
  let path = operation.template;
  const query = new URLSearchParams();
  for (const parameter of operation.op.parameters ?? []) {
    if (parameter.example === undefined) continue;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
    if (parameter.in === 'query') query.set(parameter.name, String(parameter.example));
  }
  for (const [k, v] of Object.entries(overrides.query ?? {})) query.set(k, v);
  const example = operation.op.requestBody?.content?.['application/json']?.example;
  const body = example === undefined ? undefined : { ...example, ...(overrides.body ?? {}) };
  return { url: `/api${path}${query.size ? `?${query}` : ''}`, body };
}

export class OpenApiContract {
  private readonly ajv: Ajv2020;
  constructor(readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats is CommonJS: its plugin is the module itself or its `default`, by loader.
    const plugin = ((addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats) as (ajv: Ajv2020) => void;
    plugin(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'svc-openapi' });
  }

  /** Problems of one answer against its operation (empty when it matches). */
  problems(operation: Operation, answer: Pick<ApiResponse, 'status' | 'headers' | 'json' | 'text'>): string[] {
    const where = `${operation.method.toUpperCase()} ${operation.template} → ${answer.status}`;
    const response = operation.op.responses[String(answer.status)];
    if (!response) return [`${where}: status not declared (${answer.text.slice(0, 200)})`];
    const out: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json))
      if (header.required && !answer.headers.get(name)) out.push(`${where}: required header ${name} missing`);
    const media = Object.keys(response.content ?? {})[0];
    if (media === 'application/json') {
      const pointer = `svc-openapi#/paths/${escape(operation.template)}/${operation.method}/responses/${answer.status}/content/application~1json/schema`;
      const validate = this.ajv.getSchema(pointer) ?? this.ajv.compile({ $ref: pointer });
      if (!validate(answer.json)) out.push(`${where}: ${this.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600)}`);
    }
    return out;
  }
}

/**
 * The fields of an answer that its declared JSON schema does not name, as dotted paths
 * (`accepts[].outputSchema`): ajv accepts them (the document leaves `additionalProperties`
 * open), but a client generated from the document would drop them. Follows `$ref` within the
 * document, `properties`, `items` and the alternatives of `anyOf`/`oneOf`/`allOf` (a key is
 * declared when any of them names it); `additionalProperties` other than false declares all.
 */
export function undeclaredFields(doc: Json, schema: Json, value: unknown, path = ''): string[] {
  const resolve = (s: Json): Json => {
    let at = s;
    while (at && typeof at.$ref === 'string') {
      at = (at.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: Json, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    }
    return at ?? {};
  };
  const s = resolve(schema);
  const alternatives: Json[] = [s, ...['anyOf', 'oneOf', 'allOf'].flatMap((k) => ((s[k] as Json[] | undefined) ?? []).map(resolve))];
  if (Array.isArray(value)) {
    const items = alternatives.map((a) => a.items).filter(Boolean);
    if (!items.length) return [];
    return value.flatMap((v) => undeclaredFields(doc, { anyOf: items }, v, `${path}[]`));
  }
  if (!value || typeof value !== 'object') return [];
  if (alternatives.some((a) => a.additionalProperties !== undefined && a.additionalProperties !== false)) return [];
  const out = new Set<string>();
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const declaring = alternatives.map((a) => a.properties?.[key]).filter(Boolean);
    if (!declaring.length) out.add(at);
    else for (const p of undeclaredFields(doc, { anyOf: declaring }, v, at)) out.add(p);
  }
  return [...out];
}

function escape(template: string): string {
  return template.replace(/~/g, '~0').replace(/\//g, '~1').replace(/[{}]/g, encodeURIComponent);
}
