/**
 * The one HTTP layer every route passes through (issue: foundation). In order:
 *   request id → route key → path check → rate limit → method → body cap → credential
 *   guard → JSON parse → route → x-request-id header → structured log line.
 * Answers of procedures are finished (output guard, secret scrub) by the tRPC middleware
 * before they are serialised (src/lib/server/trpc/init.ts); only JSON that no procedure
 * produced is finished here. Routers never repeat any of these.
 */
import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { config, secretValues } from '$lib/server/config';
import { SvcError } from '$lib/server/errors';
import { rejectCredentials } from '$lib/server/guards/credential-guard';
import { finishAnswer, OutputGuardBlocked } from '$lib/server/guards/finish-answer';
import { discardBody, readJsonObjectBody } from '$lib/server/http/body';
import { logger } from '$lib/server/http/logger';
import { consumeRateLimit, initRateLimiter } from '$lib/server/http/rate-limit';
import type { RequestState } from '$lib/server/http/request-state';
import { applyMigrations } from '$lib/server/db/migrate';
import { toSvcError } from '$lib/server/trpc/error-map';
import type { RouteFamily } from '$lib/server/trpc/init';
import { REST_PREFIX } from '$lib/server/trpc/route-table';
import { restErrorResponse, routeIndex, TRPC_PREFIX, trpcErrorResponse } from '$lib/server/trpc/http';

export const init: ServerInit = async () => {
  const report = await applyMigrations(config().databaseUrl);
  logger.info(
    { event: 'migrations', provider: report.provider, applied: report.applied, alreadyApplied: report.alreadyApplied },
    'database ready',
  );
  await initRateLimiter();
};

type Surface = 'rest' | 'trpc' | 'mcp' | 'other';

/** MCP over Streamable HTTP (src/routes/mcp/+server.ts): POST only, in stateless mode. */
const MCP_PATH = '/mcp';

/**
 * Routes whose answers are finished by the tRPC middleware (guards/finish-answer.ts); the
 * MCP route's tool results are procedure answers too, finished the same way.
 */
const PROCEDURE_ROUTES: ReadonlySet<string> = new Set(['/api/[...path]', '/trpc/[...trpc]', MCP_PATH]);

/** Set on the Node request by scripts/request-target.mjs when the raw target had a dot segment. */
const REFUSED_TARGET = Symbol.for('svc.refusedRequestTarget');

const API_METHODS = 'GET, HEAD, POST';

function surfaceOf(pathname: string): Surface {
  if (pathname === REST_PREFIX || pathname.startsWith(`${REST_PREFIX}/`)) return 'rest';
  if (pathname === TRPC_PREFIX || pathname.startsWith(`${TRPC_PREFIX}/`)) return 'trpc';
  if (pathname === MCP_PATH) return 'mcp';
  return 'other';
}

function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The rate-limit "tools" a request counts against, and the family for its envelopes. Names
 * that match no route collapse into one key per method, so unknown paths cannot grow the
 * limiter's in-memory store.
 */
function resolveRoute(method: string, url: URL, routeId: string | null, surface: Surface): { keys: string[]; family?: RouteFamily } {
  if (surface === 'trpc') {
    const names = (decodedOrUndefined(url.pathname.slice(TRPC_PREFIX.length + 1)) ?? '').split(',').filter(Boolean);
    const entries = names.map((n) => routeIndex.forProcedure(n));
    const keys = entries.map((e) => (e ? `${e.method} ${e.template}` : 'TRPC (unknown)'));
    return { keys: keys.length ? [...new Set(keys)] : ['TRPC (none)'], family: entries[0]?.family };
  }
  if (surface === 'rest') {
    const entry = routeIndex.matchRest(method, url.pathname);
    if (entry) return { keys: [`${entry.method} ${entry.template}`], family: entry.family };
    return { keys: [routeId && !PROCEDURE_ROUTES.has(routeId) ? `${method} ${routeId}` : `${method} /api/(unmatched)`] };
  }
  return { keys: [`${method} ${routeId ?? '(no route)'}`] };
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._-]{8,128}$/.test(value) ? value : undefined;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
}

const pathMalformed = (why: string) =>
  new SvcError('PATH_MALFORMED', 'The request path is malformed', { issues: [{ code: 'PATH_MALFORMED', message: why }] });

/**
 * The request with its body, whatever its headers: adapter-node hands SvelteKit no body
 * when `content-type` is missing, so such a body is read from the Node request itself and
 * passes the same cap and credential guard as any other.
 */
function requestWithBody(event: Parameters<Handle>[0]['event']): Request {
  const node = event.platform?.req;
  if (event.request.body !== null || !node || node.readableEnded) return event.request;
  const length = node.headers['content-length'];
  const hasBody = node.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return event.request;
  return new Request(event.url, {
    method: event.request.method,
    headers: event.request.headers,
    body: Readable.toWeb(node) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Backstop for JSON answers that do not come from a procedure (the OpenAPI document, the
 * share-card route's error envelopes): the same finishing as the tRPC middleware. Procedure
 * answers are finished before they are serialised and are never re-read here.
 */
async function finishForeignJson(
  response: Response,
  surface: Surface,
  family: RouteFamily | undefined,
  state: RequestState,
): Promise<Response> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  try {
    const { answer, report } = finishAnswer(parsed, { secrets: secretValues() });
    if (!report.secretScrubbed) return new Response(text, response);
    logger.error(
      { event: 'secret_scrubbed', requestId: state.requestId, route: state.routeKey },
      'a configuration secret was about to leave in a response',
    );
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(typeof answer === 'string' ? answer : JSON.stringify(answer), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  } catch (error) {
    if (!(error instanceof OutputGuardBlocked)) throw error;
    logger.error(
      { event: 'output_guard', requestId: state.requestId, route: state.routeKey, blockedPath: error.blockedPath },
      'execution claim blocked',
    );
    return surface === 'trpc' ? trpcErrorResponse(error) : restErrorResponse(error, family);
  }
}

export const handle: Handle = async ({ event, resolve }) => {
  const startedAtMs = performance.now();
  const requestId = validRequestId(event.request.headers.get('x-request-id')) ?? randomUUID();
  const method = event.request.method;
  const refusedTarget = event.platform?.req?.[REFUSED_TARGET];
  const surface: Surface = refusedTarget ? 'rest' : surfaceOf(event.url.pathname);
  const { keys, family } = resolveRoute(method, event.url, event.route.id, surface);
  const state: RequestState = {
    requestId,
    serverTime: new Date(),
    startedAtMs,
    clientAddress: safeClientAddress(event),
    routeKey: keys.join(','),
  };
  event.locals.state = state;

  const fail = (error: SvcError) => (surface === 'trpc' ? trpcErrorResponse(error) : restErrorResponse(error, family));

  let response: Response;
  try {
    response = await guardThenResolve();
  } catch (error) {
    const svc = error instanceof SvcError ? error : toSvcError(error, undefined);
    response = fail(svc);
    // Refused before its body was read (path, rate limit, method): the body is discarded so
    // the kept-alive connection is ready for the caller's next request (unless the answer
    // closes the connection anyway, for a body declared too large to read).
    if (svc.headers?.connection !== 'close') await discardBody(event.request);
  }

  async function guardThenResolve(): Promise<Response> {
    if (surface === 'other') return resolve(event);
    if (refusedTarget) throw pathMalformed('a path segment is "." or ".." (literal or percent-encoded); send the resolved path');
    if (decodedOrUndefined(event.url.pathname) === undefined) throw pathMalformed('the path is not valid percent-encoded UTF-8');

    for (const key of keys) {
      const decision = await consumeRateLimit(state.clientAddress, key);
      if (!decision.allowed) {
        throw new SvcError(
          'RATE_LIMITED',
          `Too many requests to this route: ${decision.limit} per ${config().rateLimit.windowSeconds} seconds per client`,
          {
            issues: [{ code: 'RATE_LIMITED', message: `retry after ${decision.retryAfterSeconds} seconds` }],
            headers: { 'retry-after': String(decision.retryAfterSeconds) },
          },
        );
      }
    }

    if (method === 'POST') {
      // An MCP message is guarded by the MCP server (src/mcp/server.ts), the same for stdio and
      // HTTP: a credential in a tool's arguments is that tool's error result, one elsewhere in
      // the message a JSON-RPC error, each holding the refusal envelope.
      const inspect = surface === 'mcp' ? undefined : (value: unknown) => rejectCredentials(value, 'body');
      const body = await readJsonObjectBody(requestWithBody(event), { inspect });
      state.rawBody = body.text;
      state.body = body.value;
    } else if (surface === 'mcp') {
      // Stateless Streamable HTTP: no server-sent event stream to GET, no session to DELETE.
      throw new SvcError('METHOD_NOT_ALLOWED', `${method} is not supported; this MCP endpoint is stateless and takes POST only`, {
        issues: [{ code: 'METHOD_NOT_ALLOWED', message: 'allowed: POST' }],
        headers: { allow: 'POST' },
      });
    } else if (method !== 'GET' && method !== 'HEAD') {
      throw new SvcError('METHOD_NOT_ALLOWED', `${method} is not supported; the API takes GET and POST with JSON bodies`, {
        issues: [{ code: 'METHOD_NOT_ALLOWED', message: `allowed: ${API_METHODS}` }],
        headers: { allow: API_METHODS },
      });
    }
    rejectCredentials(queryForGuard(event.url, surface), 'query');
    return resolve(event);
  }

  if (isJson(response) && !(event.route.id && PROCEDURE_ROUTES.has(event.route.id))) {
    response = await finishForeignJson(response, surface, family, state);
  }
  response.headers.set('x-request-id', requestId);

  logger.info(
    {
      requestId,
      method,
      route: state.routeKey,
      status: response.status,
      durationMs: Math.round((performance.now() - startedAtMs) * 100) / 100,
    },
    'request',
  );
  return response;
};

/**
 * The query as the credential guard reads it. The typed client's GET calls carry their input
 * as JSON in `?input=`, which is read like a body (when it parses).
 */
function queryForGuard(url: URL, surface: Surface): Record<string, unknown> {
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (surface === 'trpc' && typeof query.input === 'string') {
    try {
      query.input = JSON.parse(query.input);
    } catch {
      // Not JSON: tRPC refuses it itself; the guard still saw it as text.
    }
  }
  return query;
}

function safeClientAddress(event: Parameters<Handle>[0]['event']): string {
  try {
    return event.getClientAddress();
  } catch {
    return 'unknown';
  }
}

/**
 * Errors SvelteKit itself reports (page routes; the API answers its own). A path that
 * matches no route is a 404 of the caller, not an error of the service: logged at info as
 * "not found". Other 4xx (a malformed page path) at warn; only a 5xx is "unhandled".
 */
export const handleError: HandleServerError = ({ error, event, status }) => {
  const requestId = event.locals.state?.requestId;
  if (status === 404) {
    logger.info({ event: 'not_found', requestId, status }, 'not found');
    return { message: 'Not found', code: 'NOT_FOUND' };
  }
  if (status < 500) {
    logger.warn({ event: 'bad_request', requestId, status }, 'bad request');
    return { message: 'Bad request', code: 'BAD_REQUEST' };
  }
  logger.error({ event: 'unhandled', requestId, name: (error as Error)?.name }, 'unhandled error');
  return { message: 'Internal error', code: 'INTERNAL' };
};
