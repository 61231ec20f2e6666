/**
 * The API front: the one HTTP layer every API request passes through (/api, /trpc, /mcp),
 * whichever server received it. In order:
 *   request id → route → path check → rate limit → method → body cap → credential guard →
 *   JSON parse → dispatch → x-request-id header → structured log line.
 * Answers of procedures are finished (output guard, secret scrub) by the tRPC middleware
 * before they are serialised (trpc/init.ts); routers never repeat any of these.
 *
 * It knows no server: the production server hands it Node requests before SvelteKit sees them
 * (http/node-front.ts, scripts/start.mjs), and SvelteKit's API routes hand it web requests
 * (http/fetch-front.ts: `vite dev`, and the pages' server-side loads). Serving the API outside
 * SvelteKit is what makes it fast: adapter-node's conversion of every request and answer
 * into web objects, SvelteKit's routing and its request store were more than half the cost
 * of a request that does little work (docs/performance.md).
 */
import { randomUUID } from 'node:crypto';
import { readServerClock, type ServerTime } from '../clock';
import { config } from '../config';
import { SvcError } from '../errors';
import { rejectCredentials } from '../guards/credential-guard';
import type { HeaderReader } from '../trpc/context';
import { toSvcError } from '../trpc/error-map';
import type { RouteFamily } from '../trpc/init';
import { REST_PREFIX, type RouteEntry } from '../trpc/route-table';
import { answerRest, answerTrpc, restErrorAnswer, routeIndex, TRPC_PREFIX, trpcErrorAnswer, type DispatchRequest } from '../trpc/http';
import type { ApiAnswer } from './answer';
import { discardBody, readJsonObjectBody, type BodySource } from './body';
import { RequestCookieJar } from './cookie-jar';
import { extraRouteAtPath, resolveExtraRoute, type ExtraRoute } from './extra-routes';
import { logger, logInternalError } from './logger';
import { consumeRateLimit } from './rate-limit';

export type Surface = 'rest' | 'trpc' | 'mcp';

/** MCP over Streamable HTTP: POST only, in stateless mode. */
export const MCP_PATH = '/mcp';

const API_METHODS = 'GET, HEAD, POST';

/** Which API surface a path belongs to; undefined for the web app's pages and assets. */
export function apiSurfaceOf(pathname: string): Surface | undefined {
  if (pathname === REST_PREFIX || pathname.startsWith(`${REST_PREFIX}/`)) return 'rest';
  if (pathname === TRPC_PREFIX || pathname.startsWith(`${TRPC_PREFIX}/`)) return 'trpc';
  if (pathname === MCP_PATH) return 'mcp';
  return undefined;
}

/** An API request as either server face hands it over. */
export interface ApiRequest {
  method: string;
  /** The path and query as received. */
  target: string;
  headers: HeaderReader;
  /** Every header as a web `Headers` (the /trpc and /mcp handlers take a web request). */
  webHeaders(): Headers;
  clientAddress: string;
  /** The raw target had a dot segment (scripts/request-target.mjs): refused with PATH_MALFORMED. */
  refusedTarget: boolean;
  body: BodySource;
}

/** What the MCP door needs of a request that passed the front. */
export interface McpRequest {
  requestId: string;
  clientAddress: string;
  serverTime: ServerTime;
  url: URL;
  headers: Headers;
  rawBody: string;
}

export interface ApiDoors {
  answerMcp(request: McpRequest): Promise<ApiAnswer>;
}

export interface ApiFront {
  answer(request: ApiRequest): Promise<ApiAnswer>;
}

type RestTarget =
  | { kind: 'procedure'; route: RouteEntry; pathParams: Record<string, string> }
  | { kind: 'extra'; route: ExtraRoute; params: Record<string, string> }
  | { kind: 'none' };

/**
 * Where a request goes, and the rate-limit "tools" it counts against (`METHOD /template`, also
 * the log's route). A REST call and the typed client's call of the same procedure are the same
 * tool; a HEAD counts as its GET. Names that match no route collapse into one key per method,
 * so unknown paths cannot grow the limiter's in-memory store.
 */
interface Routing {
  keys: string[];
  family?: RouteFamily;
  rest: RestTarget;
}

function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function routingOf(method: string, url: URL, surface: Surface): Routing {
  if (surface === 'trpc') {
    const names = (decodedOrUndefined(url.pathname.slice(TRPC_PREFIX.length + 1)) ?? '').split(',').filter(Boolean);
    const entries = names.map((n) => routeIndex.forProcedure(n));
    const keys = entries.map((e) => (e ? `${e.method} ${e.template}` : 'TRPC (unknown)'));
    return { keys: keys.length ? [...new Set(keys)] : ['TRPC (none)'], family: entries[0]?.family, rest: { kind: 'none' } };
  }
  if (surface === 'mcp') return { keys: [`${method} ${MCP_PATH}`], rest: { kind: 'none' } };
  const routeMethod = method === 'HEAD' ? 'GET' : method;
  const resolved = routeIndex.resolveRest(routeMethod, url.pathname);
  if (resolved) {
    const { route } = resolved;
    return { keys: [`${route.method} ${route.template}`], family: route.family, rest: { kind: 'procedure', ...resolved } };
  }
  const extra = resolveExtraRoute(routeMethod, url.pathname);
  if (extra) return { keys: [`${extra.route.method} ${extra.route.routeId}`], rest: { kind: 'extra', ...extra } };
  const atPath = extraRouteAtPath(url.pathname);
  return { keys: [atPath ? `${method} ${atPath.routeId}` : `${method} ${REST_PREFIX}/(unmatched)`], rest: { kind: 'none' } };
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._-]{8,128}$/.test(value) ? value : undefined;
}

const pathMalformed = (why: string) =>
  new SvcError('PATH_MALFORMED', 'The request path is malformed', { issues: [{ code: 'PATH_MALFORMED', message: why }] });

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

export function createApiFront(doors: ApiDoors): ApiFront {
  async function answer(request: ApiRequest): Promise<ApiAnswer> {
    const startedAtMs = performance.now();
    const serverTime = readServerClock();
    const requestId = validRequestId(request.headers.get('x-request-id')) ?? randomUUID();
    const { method } = request;
    const url = new URL(config().origin + request.target);
    const surface: Surface = request.refusedTarget ? 'rest' : (apiSurfaceOf(url.pathname) ?? 'rest');
    const routing = routingOf(method, url, surface);
    const routeKey = routing.keys.join(',');
    let bodyRead = false;

    async function guardThenDispatch(): Promise<ApiAnswer> {
      if (request.refusedTarget) throw pathMalformed('a path segment is "." or ".." (literal or percent-encoded); send the resolved path');
      if (decodedOrUndefined(url.pathname) === undefined) throw pathMalformed('the path is not valid percent-encoded UTF-8');

      for (const key of routing.keys) {
        const decision = await consumeRateLimit(request.clientAddress, key);
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

      const dispatch: DispatchRequest = {
        method,
        url,
        requestId,
        clientAddress: request.clientAddress,
        serverTime,
        headers: request.headers,
        cookies: new RequestCookieJar(request.headers.get('cookie') ?? undefined),
      };
      if (method === 'POST') {
        // An MCP message is guarded by the MCP server (src/mcp/server.ts), the same for stdio and
        // HTTP: a credential in a tool's arguments is that tool's error result, one elsewhere in
        // the message a JSON-RPC error, each holding the refusal envelope.
        const inspect = surface === 'mcp' ? undefined : (value: unknown) => rejectCredentials(value, 'body');
        bodyRead = true;
        const body = await readJsonObjectBody(request.body, { inspect });
        dispatch.rawBody = body.text;
        dispatch.body = body.value;
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
      if (url.search) rejectCredentials(queryForGuard(url, surface), 'query');

      if (surface === 'trpc') return answerTrpc(dispatch, request.webHeaders());
      if (surface === 'mcp') {
        return doors.answerMcp({
          requestId,
          clientAddress: request.clientAddress,
          serverTime,
          url,
          headers: request.webHeaders(),
          rawBody: dispatch.rawBody ?? '{}',
        });
      }
      const target = routing.rest;
      if (target.kind === 'procedure') return answerRest(dispatch, target);
      if (target.kind === 'extra') return target.route.answer(target.params);
      const code = routeIndex.hasPath(url.pathname) || extraRouteAtPath(url.pathname) ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND';
      return restErrorAnswer(new SvcError(code, code === 'NOT_FOUND' ? 'No such route' : 'Method not allowed on this route'), undefined);
    }

    let answered: ApiAnswer;
    try {
      answered = await guardThenDispatch();
    } catch (error) {
      if (!(error instanceof SvcError)) logInternalError(error, { requestId });
      const svc = error instanceof SvcError ? error : toSvcError(error, undefined);
      answered = surface === 'trpc' ? trpcErrorAnswer(svc) : restErrorAnswer(svc, routing.family);
      // Refused before its body was read (path, rate limit, method): the body is discarded so
      // the kept-alive connection is ready for the caller's next request (unless the answer
      // closes the connection anyway, for a body declared too large to read).
      if (!bodyRead && svc.headers?.connection !== 'close') await discardBody(request.body);
    }
    answered.headers['x-request-id'] = requestId;

    logger.info(
      {
        requestId,
        method,
        route: routeKey,
        status: answered.status,
        durationMs: Math.round((performance.now() - startedAtMs) * 100) / 100,
      },
      'request',
    );
    return answered;
  }
  return { answer };
}
