/**
 * What the API viewer (/docs) reads from this server's OpenAPI document: operations grouped by
 * tag, each with its parameters, example request and declared answers. Plain functions over the
 * served JSON; the viewer renders them with native controls (details/summary, labelled fields,
 * buttons), so the page's accessibility is the app's own, not a third-party widget's.
 */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the OpenAPI document is walked by key

export interface ViewParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  example: string;
}

export interface ViewResponse {
  status: string;
  description: string;
  schemaName: string | null;
  headers: Array<{ name: string; description: string; required: boolean }>;
  schema: unknown;
}

export interface ViewOperation {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  parameters: ViewParameter[];
  /** The example body, pretty-printed; null for a GET. */
  exampleBody: string | null;
  requestSchema: unknown;
  responses: ViewResponse[];
  /** `required`: the session cookie is needed; `optional`: read when present; `none`. */
  session: 'required' | 'optional' | 'none';
}

export interface ViewTag {
  name: string;
  operations: ViewOperation[];
}

function refName(schema: unknown): string | null {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === 'string' ? ref.split('/').at(-1)! : null;
}

function sessionOf(security: unknown): ViewOperation['session'] {
  if (!Array.isArray(security) || security.length === 0) return 'none';
  return security.some((s) => Object.keys(s as Json).length === 0) ? 'optional' : 'required';
}

export function viewOf(doc: Json): ViewTag[] {
  const byTag = new Map<string, ViewOperation[]>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    for (const [method, op] of Object.entries(item as Json) as Array<[string, Json]>) {
      const body = op.requestBody?.content?.['application/json'];
      const operation: ViewOperation = {
        id: op.operationId,
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        parameters: ((op.parameters ?? []) as Json[]).map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          description: p.description ?? p.schema?.description ?? '',
          example: p.example === undefined ? '' : String(p.example),
        })),
        exampleBody: body ? JSON.stringify(body.example ?? {}, null, 2) : null,
        requestSchema: body?.schema ?? null,
        responses: Object.entries((op.responses ?? {}) as Json).map(([status, r]) => {
          const media = Object.values((r.content ?? {}) as Json)[0] as Json | undefined;
          return {
            status,
            description: r.description ?? '',
            schemaName: refName(media?.schema),
            headers: Object.entries((r.headers ?? {}) as Json).map(([name, h]) => ({
              name,
              description: h.description ?? '',
              required: Boolean(h.required),
            })),
            schema: media?.schema ?? null,
          };
        }),
        session: sessionOf(op.security),
      };
      const tag = (op.tags?.[0] as string | undefined) ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
    }
  }
  return [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, operations]) => ({ name, operations }));
}

/** The request "Try it out" sends: path parameters filled in, query parameters appended. */
export function requestUrl(base: string, operation: ViewOperation, values: Record<string, string>): string {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    const value = values[p.name] ?? '';
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query' && value !== '') query.set(p.name, value);
  }
  return `${base}${path}${query.size ? `?${query}` : ''}`;
}

/** A JSON schema (or a $ref to one) with its references resolved one level, for display. */
export function resolvedSchema(doc: Json, schema: unknown): unknown {
  const name = refName(schema);
  return name ? (doc.components?.schemas?.[name] ?? schema) : schema;
}
