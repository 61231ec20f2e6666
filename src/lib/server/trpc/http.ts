/**
 * The two HTTP faces of the one router: REST paths under /api (mounted by
 * src/routes/api/[...path]/+server.ts), dispatched here through the route table to tRPC's
 * server-side caller, and the tRPC endpoint for the typed client (/trpc). Both shape errors
 * into the spec's envelopes here, once. trpc-to-openapi only writes the OpenAPI document.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import { SvcError } from '../errors';
import { createRequestContext } from './context';
import { statusForCode, toSvcError } from './error-map';
import { INVARIANTS, STAMPED_FAMILIES, type RouteFamily } from './init';
import { EXTRA_OPENAPI_PATHS } from './extra-openapi';
import { RouteIndex, buildRouteTable, procedureRecord, REST_PREFIX } from './route-table';
import { appRouter, callProcedureAt } from './router';

export const routeIndex = new RouteIndex(buildRouteTable(procedureRecord(appRouter)));

/** A procedure of the server-side caller by its dotted path (e.g. `tools.validateCoil`). */

export const TRPC_PREFIX = '/trpc';

/** The REST error body of interface 7, stamped with the invariants for the stamped families. */
export function restErrorBody(error: SvcError, family: RouteFamily | undefined): Record<string, unknown> {
  const body =
    error.body ??
    ({
      error: {
        code: error.code,
        message: error.message,
        issues: error.issues.map((i) =>
          i.path ? { code: i.code, message: i.message, path: i.path } : { code: i.code, message: i.message },
        ),
      },
    } as Record<string, unknown>);
  return family && STAMPED_FAMILIES.has(family) ? { ...body, ...INVARIANTS } : body;
}

export function restErrorResponse(error: SvcError, family: RouteFamily | undefined, extraHeaders?: Headers): Response {
  const headers = new Headers(extraHeaders);
  headers.set('content-type', 'application/json; charset=utf-8');
  for (const [k, v] of Object.entries(error.headers ?? {})) headers.set(k, v);
  return new Response(JSON.stringify(restErrorBody(error, family)), { status: statusForCode(error.code), headers });
}

/**
 * An error raised before tRPC runs (body, guard, rate limit) for a /trpc call, in the
 * shape the typed client decodes (a JSON-RPC style error with our code in `data`).
 */
export function trpcErrorResponse(error: SvcError): Response {
  const status = statusForCode(error.code);
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', ...(error.headers ?? {}) });
  const body = {
    error: {
      message: error.message,
      code: status >= 500 ? -32603 : -32600,
      data: { httpStatus: status, svcCode: error.code, issues: error.issues },
    },
  };
  return new Response(JSON.stringify(body), { status, headers });
}

function copyHeaders(from: Headers, into: Headers): void {
  from.forEach((value, key) => {
    if (key.toLowerCase() !== 'set-cookie') into.set(key, value);
  });
}

/**
 * The procedure input of a REST request, merged the way trpc-to-openapi 3.3 merges it (kept
 * so REST callers see no change): a POST's JSON body, or a GET's query string (a key given
 * once is a string, given several times an array), with the path parameters on top. Nothing
 * is coerced: a string stays a string and the procedure's schema refuses what is not its
 * type (the adapter would have switched zod coercion on).
 */
export function restInput(
  method: string,
  url: URL,
  pathParams: Record<string, string>,
  body: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (method === 'POST') return { ...(body ?? {}), ...pathParams };
  const query: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return { ...query, ...pathParams };
}

/** Answers a REST request under /api: the matched procedure through the server-side caller. */
export async function handleRest(event: RequestEvent): Promise<Response> {
  const method = event.request.method;
  const resolved = routeIndex.resolveRest(method, event.url.pathname);
  if (!resolved) {
    const code = routeIndex.hasPath(event.url.pathname) ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND';
    return restErrorResponse(new SvcError(code, code === 'NOT_FOUND' ? 'No such route' : 'Method not allowed on this route'), undefined);
  }
  const { route, pathParams } = resolved;
  const resHeaders = new Headers();
  // The body was read, size-checked, parsed and guarded in `handle`.
  const input = restInput(method, event.url, pathParams, event.locals.state.body);
  let data: unknown;
  try {
    data = await callProcedureAt(createRequestContext(event, resHeaders), route.procedurePath, input);
  } catch (error) {
    return restErrorResponse(toSvcError(error, route.meta), route.family, resHeaders);
  }
  const headers = new Headers();
  copyHeaders(resHeaders, headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(data), { status: 200, headers });
}

/** Answers the typed client at /trpc. */
export async function handleTrpc(event: RequestEvent): Promise<Response> {
  const request = new Request(event.request.url, {
    method: event.request.method,
    headers: event.request.headers,
    body: event.request.method === 'POST' ? (event.locals.state.rawBody ?? '{}') : undefined,
  });
  return fetchRequestHandler({
    req: request,
    endpoint: TRPC_PREFIX,
    router: appRouter,
    createContext: ({ resHeaders }) => createRequestContext(event, resHeaders),
  });
}

let openApiCache: ReturnType<typeof generateOpenApiDocument> | undefined;

export const ERROR_ENVELOPE_SCHEMA = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      issues: z.array(z.object({ code: z.string(), message: z.string(), path: z.string().optional() })),
    }),
  })
  .meta({ description: 'Tools and validation envelope' });

export function openApiDocument(baseUrl: string) {
  openApiCache ??= generateOpenApiDocument(appRouter, {
    title: 'Strategy Basket Service',
    version: '1.0.0',
    description:
      'Turns a market thesis into a validated basket manifest (Coil); validates, scores, audits, drift-checks and fingerprints Coils; prepares (never executes) stock-token command packs and USDG vault deposit calldata; sells paid analysis through x402; keeps Sign-In with Ethereum sessions. Errors use `{ error: { code, message, issues[] } }` (strategist failures: `{ error, code, prompt }`). Every POST accepts at most 256 KB of JSON; every route is rate limited per client (429 RATE_LIMITED with retry-after). Every request may carry `nowIso` to pin its clock.',
    baseUrl: `${baseUrl}${REST_PREFIX}`,
    securitySchemes: {
      walletSession: { type: 'apiKey', in: 'cookie', name: 'svc_session', description: 'Sign-In with Ethereum session cookie' },
    },
    defs: { ErrorEnvelope: ERROR_ENVELOPE_SCHEMA },
  });
  Object.assign(openApiCache.paths ?? {}, EXTRA_OPENAPI_PATHS);
  return openApiCache;
}
