/**
 * The two HTTP faces of the one router: REST paths under /api, dispatched through the route
 * table to tRPC's server-side caller, and the tRPC endpoint for the typed client (/trpc). Both
 * shape errors into the spec's envelopes here, once. The request has already passed the
 * front's rules (http/front.ts): body read and parsed, guards. Each procedure call is counted
 * by the rate limit in the service middleware (trpc/init.ts); an answer served from memory
 * instead of a call is counted here. trpc-to-openapi only writes the OpenAPI document
 * (trpc/openapi.ts).
 */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { findMalformedInput } from '../guards/input-text';
import { scanForExecutionClaims } from '../guards/output-guard';
import { AnswerHeaderBag, answerOfResponse, jsonAnswer, type AnswerHeaders, type ApiAnswer } from './answer';
import type { RequestCookieJar } from '../cookies/cookie-jar';
import { createInnerContext, type HeaderReader, type HeaderWriter, type RequestContext } from '../trpc/context';
import { asTrpcError, statusForCode, toSvcError } from '../trpc/error-map';
import { countProcedureCall, INVARIANTS } from '../trpc/init';
import type { SvcMeta } from '../trpc/meta';
import { RouteIndex, buildRouteTable, procedureRecord, rateKeyOf, type RouteEntry } from '../trpc/route-table';
import { appRouter, callProcedureAt } from '../trpc/router';

export const routeIndex = new RouteIndex(buildRouteTable(procedureRecord(appRouter)));

export const TRPC_PREFIX = '/trpc';

/**
 * The most calls one /trpc batch may carry. A larger batch runs none of them, and each of its
 * calls is answered 400 BATCH_TOO_LARGE in the batch's own shape (docs/api.md#batches).
 */
export const MAX_BATCH_CALLS = 50;

/**
 * The REST error body of interface 7, with the invariants when the error answers a tool or
 * autonomy call (`errorOfCall`, trpc/init.ts).
 */
export function restErrorBody(error: SvcError): Record<string, unknown> {
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
  return error.invariants ? { ...body, ...INVARIANTS } : body;
}

export function restErrorAnswer(error: SvcError, extraHeaders: AnswerHeaders = {}): ApiAnswer {
  return jsonAnswer(statusForCode(error.code), JSON.stringify(restErrorBody(error)), { ...extraHeaders, ...error.headers });
}

/**
 * An error raised before tRPC runs (body, guard, a counter already refused) for a /trpc
 * call, in the shape the typed client decodes (a JSON-RPC style error with our code in `data`).
 */
export function trpcErrorAnswer(error: SvcError): ApiAnswer {
  const status = statusForCode(error.code);
  const body = {
    error: {
      message: error.message,
      code: status >= 500 ? -32603 : -32600,
      data: { httpStatus: status, svcCode: error.code, issues: error.issues },
    },
  };
  return jsonAnswer(status, JSON.stringify(body), { ...error.headers });
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

/** The facts of a request that passed the front's rules, as the dispatch needs them. */
export interface DispatchRequest {
  method: string;
  url: URL;
  requestId: string;
  clientAddress: string;
  serverTime: ServerTime;
  headers: HeaderReader;
  cookies: RequestCookieJar;
  /** The POST body as received and as parsed (read, capped and guarded by the front). */
  rawBody?: string;
  body?: Record<string, unknown>;
}

/** The headers a procedure set, with its cookies. */
function procedureHeaders(resHeaders: AnswerHeaderBag, cookies: RequestCookieJar): AnswerHeaders {
  const lines = cookies.setCookieLines();
  return lines.length ? { ...resHeaders.values, 'set-cookie': lines } : resHeaders.values;
}

/**
 * The finished text of each `staticAnswer` procedure's answer (with the headers it set), by
 * procedure: it is the same for every request of the process's life. Kept here, before the
 * caller, rather than in the service middleware: a kept GET /api/health cost 0.12-0.29 CPU ms
 * per request against 0.26-0.46 through the caller (same run as `answerRest`'s figures). It
 * still counts as a call (`countProcedureCall`).
 */
const staticAnswers = new Map<string, { body: string; headers: AnswerHeaders }>();

/**
 * The finished 402 challenge of each paid service (`unpaidChallenge`), by procedure and path
 * parameters. Only a 402 is kept, and only a known service answers one, so the map holds at
 * most one entry per service of the catalogue.
 */
const unpaidChallenges = new Map<string, { body: string; headers: AnswerHeaders }>();

/**
 * Whether nothing of this request but its path can change the answer of an `unpaidChallenge`
 * procedure: no payment header, no query string (`nowIso` may come from there), no `nowIso`
 * in the body (a malformed one is a 400), and no lone surrogate or out-of-range number
 * anywhere in the input (the service middleware's 400, trpc/init.ts). Any other field is the
 * service's own input, which is only read once a payment is presented.
 */
function answeredByPathAlone(request: DispatchRequest, paymentHeaders: readonly string[], input: Record<string, unknown>): boolean {
  return (
    request.url.search === '' &&
    paymentHeaders.every((name) => request.headers.get(name) === null) &&
    !Object.hasOwn(input, 'nowIso') &&
    findMalformedInput(input) === undefined
  );
}

/**
 * Answers a REST request under /api: the matched procedure through the server-side caller.
 *
 * Why not trpc-to-openapi's own adapter (3.3, `createOpenApiHttpHandler`): it serves the same
 * routes from the same meta, but (1) it switches zod coercion on in the procedures' shared
 * input schemas (`coerceSchema` mutates them, so /trpc and MCP would coerce too), refuses a
 * POST without a JSON content type in its own envelope and reads the body itself, so the
 * front's cap and credential guard would run on a body it then reads again; and (2) it costs
 * more CPU per request. Measured 2026-11-27 in one process, each server loaded in turn by
 * autocannon (32 connections, 3 rounds of 3 s, the machine busy), CPU ms per request, this
 * dispatch against the adapter: GET /api/health 0.12-0.29 (kept answer) against 0.48-0.96,
 * GET /api/health?nowIso (through the caller) 0.26-0.46 against 0.34-0.61,
 * GET /api/stocks/registry?nowIso 0.33-0.41 against 0.47-0.56, POST /api/tools/validate-coil
 * 0.80-1.44 against 1.56-2.38.
 */
export async function answerRest(
  request: DispatchRequest,
  resolved: { route: RouteEntry; pathParams: Record<string, string> },
): Promise<ApiAnswer> {
  const { route, pathParams } = resolved;
  if (route.meta.staticAnswer && request.url.search === '') {
    return rememberedAnswer(request, route, staticAnswers, route.procedurePath, 200, () => callRest(request, resolved));
  }
  const challenge = route.meta.unpaidChallenge;
  if (challenge) {
    const input = restInput(request.method, request.url, pathParams, request.body);
    if (answeredByPathAlone(request, challenge.paymentHeaders, input)) {
      // Kept only when no string of it reads as an execution claim: the guard then never
      // looked at the caller's words, so this caller's words could not have changed it.
      return rememberedAnswer(
        request,
        route,
        unpaidChallenges,
        `${route.procedurePath} ${JSON.stringify(pathParams)}`,
        402,
        () => callRest(request, resolved),
        // A procedure's answer is JSON text (only the share card's PNG route answers bytes).
        (answer) => scanForExecutionClaims(JSON.parse(answer.body as string)) === undefined,
      );
    }
  }
  return callRest(request, resolved);
}

/**
 * The remembered answer under `key`, or the answer of `call`, remembered when it has the
 * expected status, sets no cookie and passes `keep`. A remembered answer stands for a call of
 * the route's procedure, so it counts against that procedure's limit as the call would.
 */
async function rememberedAnswer(
  request: DispatchRequest,
  route: RouteEntry,
  memo: Map<string, { body: string; headers: AnswerHeaders }>,
  key: string,
  status: number,
  call: () => Promise<ApiAnswer>,
  keep: (answer: ApiAnswer) => boolean = () => true,
): Promise<ApiAnswer> {
  const known = memo.get(key);
  if (known) {
    try {
      await countProcedureCall(request.clientAddress, route.meta, route.procedurePath);
    } catch (error) {
      if (!(error instanceof SvcError)) throw error;
      return restErrorAnswer(error);
    }
    return jsonAnswer(status, known.body, { ...known.headers });
  }
  const answer = await call();
  if (answer.status === status && !('set-cookie' in answer.headers) && keep(answer)) {
    const { 'content-type': _type, ...headers } = answer.headers;
    memo.set(key, { body: answer.body as string, headers });
  }
  return answer;
}

/** The procedure context of a request that passed the front (`resHeaders`: where the procedure's headers go). */
export function contextOfRequest(request: DispatchRequest, resHeaders?: HeaderWriter): RequestContext {
  return createInnerContext({
    url: request.url,
    requestId: request.requestId,
    clientAddress: request.clientAddress,
    serverTime: request.serverTime,
    headers: request.headers,
    cookies: request.cookies,
    resHeaders,
  });
}

async function callRest(request: DispatchRequest, resolved: { route: RouteEntry; pathParams: Record<string, string> }): Promise<ApiAnswer> {
  const { route, pathParams } = resolved;
  const resHeaders = new AnswerHeaderBag();
  const context = contextOfRequest(request, resHeaders);
  // A HEAD request runs its GET route; the front leaves the body out.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const input = restInput(method, request.url, pathParams, request.body);
  let data: unknown;
  try {
    data = await callProcedureAt(context, route.procedurePath, input);
  } catch (error) {
    // Already finished and stamped by the service middleware (trpc/init.ts): only rendered here.
    return restErrorAnswer(toSvcError(error, route.meta), procedureHeaders(resHeaders, request.cookies));
  }
  return jsonAnswer(200, JSON.stringify(data), procedureHeaders(resHeaders, request.cookies));
}

/** A batch over MAX_BATCH_CALLS, refused whole: a /trpc batch, and an MCP JSON-RPC batch (src/mcp/framing.ts). */
export const batchTooLargeError = (calls: number) =>
  new SvcError('BATCH_TOO_LARGE', `A batch may carry at most ${MAX_BATCH_CALLS} calls; none of this batch's calls ran`, {
    issues: [{ code: 'BATCH_TOO_LARGE', message: `${calls} calls; split them into batches of at most ${MAX_BATCH_CALLS}` }],
  });

const batchTooLarge = (calls: number) => asTrpcError(batchTooLargeError(calls));

/** The answer of /trpc, and the procedures tRPC ran for it (their rate keys, for the log and the front's limit). */
export interface TrpcAnswer {
  answer: ApiAnswer;
  /** Empty when no call reached a procedure (an unknown path, a refused batch, a body tRPC could not read). */
  procedures: string[];
}

/**
 * Answers the typed client at /trpc, through tRPC's own fetch adapter: tRPC parses the path
 * and the batch, and nothing else does. The batch limit is checked where tRPC hands over the
 * calls it parsed (`createContext`), so a refused batch is answered in the batch's own shape,
 * one error per call. (tRPC's `maxBatchSize` option would answer one error object instead.)
 */
export async function answerTrpc(request: DispatchRequest, headers: Headers): Promise<TrpcAnswer> {
  const { response, procedures } = await runTrpc(request, headers);
  const lines = request.cookies.setCookieLines();
  return { answer: await answerOfResponse(response, lines.length ? { 'set-cookie': lines } : {}), procedures };
}

/**
 * A refusal of the API front (body, credential guard, a spent counter) of a /trpc request,
 * answered by tRPC itself so that a batch gets it once per call, in the batch's own shape. A
 * request tRPC cannot read as calls (a path that is not percent-encoded UTF-8, a method it does
 * not serve) gets the refusal as one error.
 */
export async function answerTrpcRefusal(request: DispatchRequest, headers: Headers, refusal: SvcError): Promise<ApiAnswer> {
  const { response, reachedCalls } = await runTrpc(request, headers, refusal);
  if (!reachedCalls) return trpcErrorAnswer(refusal);
  return answerOfResponse(response, { ...refusal.headers });
}

async function runTrpc(
  request: DispatchRequest,
  headers: Headers,
  refusal?: SvcError,
): Promise<{ response: Response; procedures: string[]; reachedCalls: boolean }> {
  if (request.method === 'POST') {
    // The front has read the body as JSON (an empty body as `{}`, which may come without a
    // content type): tRPC is told so, rather than left to refuse `{}` as text.
    headers = new Headers(headers);
    headers.set('content-type', 'application/json');
  }
  const fetchRequest = new Request(request.url, {
    method: request.method,
    headers,
    body: request.method === 'POST' ? (request.rawBody ?? '{}') : undefined,
  });
  let procedures: string[] = [];
  let reachedCalls = false;
  const response = await fetchRequestHandler({
    req: fetchRequest,
    endpoint: TRPC_PREFIX,
    router: appRouter,
    createContext: ({ resHeaders, info }) => {
      reachedCalls = true;
      if (refusal) throw asTrpcError(refusal);
      if (info.isBatchCall && info.calls.length > MAX_BATCH_CALLS) throw batchTooLarge(info.calls.length);
      procedures = info.calls.filter((c) => c.procedure).map((c) => rateKeyOf(c.procedure!._def.meta as SvcMeta | undefined, c.path));
      return contextOfRequest(request, resHeaders);
    },
  });
  return { response, procedures, reachedCalls };
}
