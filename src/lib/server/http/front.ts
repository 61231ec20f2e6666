/**
 * The API front: the one HTTP layer every API request passes through (/api, /trpc, /mcp),
 * whichever server received it. In order:
 *   request id → raw target check → route → path check → known-spent limit → method → body cap → credential
 *   guard → JSON parse → dispatch → x-request-id header → structured log line.
 * Answers of procedures are finished (output guard, secret scrub) by the tRPC middleware
 * before they are serialised (trpc/init.ts); routers never repeat any of these.
 *
 * The per-tool rate limit counts procedure calls, in the service middleware (trpc/init.ts):
 * a REST call, each call of a /trpc batch and each MCP tool call count there, once. The front
 * counts only what never reaches a procedure (a refused request, an unknown path, a route
 * that is not a procedure, an MCP message that calls no tool), so a flood of those is limited
 * too, and it refuses a request whose counter this instance already knows is spent before it
 * reads the body (`knownSpent`).
 *
 * It knows no server: the production server hands it Node requests before SvelteKit sees them
 * (http/node-front.ts, scripts/start.mjs), and SvelteKit's API routes hand it web requests
 * (http/fetch-front.ts: `vite dev`, and the pages' server-side loads). A face only converts:
 * it hands over the target as it received it and writes the answer; every decision about the
 * request is taken here, once, for both. Serving the API outside
 * SvelteKit is what makes it fast: adapter-node's conversion of every request and answer
 * into web objects, SvelteKit's routing and its request store were more than half the cost
 * of a request that does little work. Measured in one alternating run (bench/front-savings.mjs,
 * docs/performance.md#what-the-api-front-saves): GET /api/health 9.8 times and validate-coil
 * 2.5 times the rate of the same build serving /api through SvelteKit's route.
 */
import { randomUUID } from 'node:crypto';
import { readServerClock, type ServerTime } from '../clock';
import { config } from '../config';
import { SvcError } from '../errors';
import { rejectCredentials } from '../guards/credential-guard';
import type { HeaderReader } from '../trpc/context';
import { toSvcError } from '../trpc/error-map';
import { carriesInvariants, stampedError } from '../trpc/init';
import { toolProcedures } from '../trpc/mcp-tools';
import { REST_PREFIX, type RouteEntry } from '../trpc/route-table';
import {
  answerRest,
  answerTrpc,
  answerTrpcRefusal,
  MAX_BATCH_CALLS,
  restErrorAnswer,
  routeIndex,
  TRPC_PREFIX,
  trpcErrorAnswer,
  type DispatchRequest,
} from './dispatch';
import type { ApiAnswer } from './answer';
import { discardBody, readJsonBody, readJsonObjectBody, type BodySource } from './body';
import { isPaymentPath, paymentCorsHeaders, paymentPreflightAnswer } from './cors';
import { RequestCookieJar } from '../cookies/cookie-jar';
import { extraRouteAtPath, resolveExtraRoute, type ExtraRoute } from './extra-routes';
import { logger, logInternalError } from '../logger';
import { consumeRateLimit, countCall, knownSpent } from '../rate-limit/counters';
import { hasDotSegment } from './request-target';
import { checkMcpOrigin } from './mcp-origin';

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

/**
 * Whether a raw request target is the front's to answer: an API path, or any target with a dot
 * segment, which the front refuses rather than let the pages resolve it (scripts/start.mjs asks
 * this before it hands a request to SvelteKit).
 */
export function isApiTarget(target: string): boolean {
  if (hasDotSegment(target)) return true;
  const query = target.indexOf('?');
  return apiSurfaceOf(query === -1 ? target : target.slice(0, query)) !== undefined;
}

/** An API request as either server face hands it over. */
export interface ApiRequest {
  method: string;
  /** The path and query as received, before anything resolved it (http/request-target.ts). */
  target: string;
  headers: HeaderReader;
  /** Every header as a web `Headers` (the /trpc and /mcp handlers take a web request). */
  webHeaders(): Headers;
  clientAddress: string;
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
  /** The parsed body: any JSON value (a batch is an array); the MCP door checks its shape. */
  body: unknown;
}

export interface ApiDoors {
  answerMcp(request: McpRequest): Promise<ApiAnswer>;
  /**
   * A refusal of `POST /mcp` by the front (size, rate, method, content type, a body that is
   * not JSON) as the door writes it: MCP clients read JSON-RPC errors, not the REST envelope.
   */
  refuseMcp(error: SvcError): ApiAnswer;
}

export interface ApiFront {
  answer(request: ApiRequest): Promise<ApiAnswer>;
}

type RestTarget =
  | { kind: 'procedure'; route: RouteEntry; pathParams: Record<string, string> }
  | { kind: 'extra'; route: ExtraRoute; params: Record<string, string> }
  | { kind: 'none' };

/**
 * Where a request goes, and the counter it is refused against when it reaches no procedure
 * (also the log's route): a REST route's procedure's own counter (`METHOD /template`, so a
 * refused call of a tool counts against that tool), `METHOD /trpc`, `POST /mcp`, or the
 * route id of a route that is not a procedure. A HEAD counts as its GET. Paths that match no
 * route collapse into one key per method, so unknown paths cannot grow the limiter's store.
 * tRPC paths are not read here: tRPC parses them itself (http/dispatch.ts `answerTrpc`).
 */
interface Routing {
  key: string;
  /** The front's own refusals of this route carry the invariants (a tool or autonomy route, interface 1). */
  invariants: boolean;
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
  const routeMethod = method === 'HEAD' ? 'GET' : method;
  if (surface === 'trpc') return { key: `${routeMethod} ${TRPC_PREFIX}`, invariants: false, rest: { kind: 'none' } };
  if (surface === 'mcp') return { key: `${method} ${MCP_PATH}`, invariants: false, rest: { kind: 'none' } };
  const resolved = routeIndex.resolveRest(routeMethod, url.pathname);
  if (resolved) {
    const { route } = resolved;
    return { key: route.rateKey, invariants: carriesInvariants(route.meta), rest: { kind: 'procedure', ...resolved } };
  }
  const extra = resolveExtraRoute(routeMethod, url.pathname);
  if (extra)
    return { key: `${extra.route.method} ${extra.route.routeId}`, invariants: extra.route.invariants, rest: { kind: 'extra', ...extra } };
  const atPath = extraRouteAtPath(url.pathname);
  return {
    key: atPath ? `${method} ${atPath.routeId}` : `${method} ${REST_PREFIX}/(unmatched)`,
    invariants: atPath?.invariants ?? false,
    rest: { kind: 'none' },
  };
}

let toolNames: ReadonlySet<string> | undefined;

/** Whether an MCP message calls one of the 34 tools: that call is counted by its procedure. */
function callsTool(message: unknown): boolean {
  if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') return false;
  const name = ((message as { params?: unknown }).params as { name?: unknown } | undefined)?.name;
  toolNames ??= new Set(toolProcedures().map((t) => t.tool));
  return typeof name === 'string' && toolNames.has(name);
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
    // A target with a dot segment is answered as `/api` without its query: 400 PATH_MALFORMED.
    const refusedTarget = hasDotSegment(request.target);
    const url = new URL(config().origin + (refusedTarget ? REST_PREFIX : request.target));
    const surface: Surface = refusedTarget ? 'rest' : (apiSurfaceOf(url.pathname) ?? 'rest');
    const routing = routingOf(method, url, surface);
    let logRoute = routing.key;
    let bodyRead = false;
    let mcpBody: unknown;
    const dispatch: DispatchRequest = {
      method,
      url,
      requestId,
      clientAddress: request.clientAddress,
      serverTime,
      headers: request.headers,
      cookies: new RequestCookieJar(request.headers.get('cookie') ?? undefined),
    };

    async function guardThenDispatch(): Promise<ApiAnswer> {
      if (refusedTarget) throw pathMalformed('a path segment is "." or ".." (literal or percent-encoded); send the resolved path');
      if (decodedOrUndefined(url.pathname) === undefined) throw pathMalformed('the path is not valid percent-encoded UTF-8');
      // DNS-rebinding protection, before anything of the request is read (http/mcp-origin.ts).
      if (surface === 'mcp') checkMcpOrigin(request.headers);
      // (Not for /mcp: a tool call there counts against its own tool, never against `POST /mcp`,
      // and which of the two a message is shows only in its body.)
      const spent = surface === 'mcp' ? undefined : knownSpent(request.clientAddress, routing.key);
      if (spent) throw spent;

      if (method === 'POST') {
        // An MCP message is guarded by the MCP server (src/mcp/server.ts), the same for stdio and
        // HTTP: a credential in a tool's arguments is that tool's error result, one elsewhere in
        // the message a JSON-RPC error, each holding the refusal envelope.
        bodyRead = true;
        if (surface === 'mcp') {
          // Any JSON value: a JSON-RPC batch is an array, and a body that is no message is
          // answered by the MCP door in the protocol's words.
          const body = await readJsonBody(request.body);
          dispatch.rawBody = body.text;
          mcpBody = body.value;
        } else {
          const body = await readJsonObjectBody(request.body, { inspect: (value) => rejectCredentials(value, 'body') });
          dispatch.rawBody = body.text;
          dispatch.body = body.value;
        }
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

      if (surface === 'trpc') {
        const { answer: answered, procedures } = await answerTrpc(dispatch, request.webHeaders());
        if (procedures.length) logRoute = [...new Set(procedures)].join(',');
        else await consumeRateLimit(request.clientAddress, routing.key);
        return answered;
      }
      if (surface === 'mcp') {
        // One point under `POST /mcp` per message that calls no tool, each message of a batch too;
        // a batch over the cap runs none of its messages (the door refuses it): one point.
        const messages = Array.isArray(mcpBody) ? mcpBody : [mcpBody];
        if (messages.length > MAX_BATCH_CALLS) await countCall(request.clientAddress, routing.key);
        else for (const message of messages) if (!callsTool(message)) await countCall(request.clientAddress, routing.key);
        return doors.answerMcp({
          requestId,
          clientAddress: request.clientAddress,
          serverTime,
          url,
          headers: request.webHeaders(),
          rawBody: dispatch.rawBody ?? '{}',
          body: mcpBody,
        });
      }
      const target = routing.rest;
      if (target.kind === 'procedure') return answerRest(dispatch, target);
      if (target.kind === 'extra') {
        await countCall(request.clientAddress, routing.key);
        return target.route.answer(target.params, dispatch);
      }
      const code = routeIndex.hasPath(url.pathname) || extraRouteAtPath(url.pathname) ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND';
      throw new SvcError(code, code === 'NOT_FOUND' ? 'No such route' : 'Method not allowed on this route');
    }

    // A browser's preflight of a payment route (http/cors.ts); counted like any request that
    // reaches no procedure. Every other OPTIONS is refused below (405).
    const paymentRoute = surface === 'rest' && !refusedTarget && isPaymentPath(url.pathname);
    const preflight = paymentRoute && method === 'OPTIONS' && request.headers.get('access-control-request-method') !== null;

    let answered: ApiAnswer;
    try {
      if (preflight) {
        await consumeRateLimit(request.clientAddress, routing.key);
        await discardBody(request.body);
        answered = paymentPreflightAnswer();
      } else answered = await guardThenDispatch();
    } catch (error) {
      if (!(error instanceof SvcError)) logInternalError(error, { requestId });
      const svc = error instanceof SvcError ? error : toSvcError(error, undefined);
      // A request refused here reached no procedure: it counts against the route it named.
      if (svc.code !== 'RATE_LIMITED') await consumeRateLimit(request.clientAddress, routing.key);
      if (surface === 'mcp') answered = doors.refuseMcp(svc);
      else if (surface !== 'trpc') answered = restErrorAnswer(routing.invariants ? stampedError(svc) : svc);
      else if (error instanceof SvcError) answered = await answerTrpcRefusal(dispatch, request.webHeaders(), svc);
      else answered = trpcErrorAnswer(svc);
      // Refused before its body was read (path, rate limit, method): the body is discarded so
      // the kept-alive connection is ready for the caller's next request (unless the answer
      // closes the connection anyway, for a body declared too large to read).
      if (!bodyRead && svc.headers?.connection !== 'close') await discardBody(request.body);
    }
    answered.headers['x-request-id'] = requestId;
    if (paymentRoute) Object.assign(answered.headers, paymentCorsHeaders());

    logger.info(
      {
        requestId,
        method,
        route: logRoute,
        status: answered.status,
        durationMs: Math.round((performance.now() - startedAtMs) * 100) / 100,
      },
      'request',
    );
    return answered;
  }
  return { answer };
}
