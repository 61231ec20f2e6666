/**
 * The one HTTP layer every route passes through (issue: foundation). In order:
 *   request id → route key → rate limit → body cap + JSON parse → credential guard →
 *   route → output guard → secret scrub → x-request-id header → structured log line.
 * Routers never repeat any of these.
 */
import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit';
import { randomUUID } from 'node:crypto';
import { config, secretValues } from '$lib/server/config';
import { SvcError } from '$lib/server/errors';
import { CREDENTIAL_REJECTION_MESSAGE, findCredentials } from '$lib/server/guards/credential-guard';
import { scanForExecutionClaims } from '$lib/server/guards/output-guard';
import { containsSecret, scrubSecrets } from '$lib/server/guards/secret-scrub';
import { readJsonObjectBody } from '$lib/server/http/body';
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

type Surface = 'rest' | 'trpc' | 'other';

function surfaceOf(pathname: string): Surface {
  if (pathname === REST_PREFIX || pathname.startsWith(`${REST_PREFIX}/`)) return 'rest';
  if (pathname === TRPC_PREFIX || pathname.startsWith(`${TRPC_PREFIX}/`)) return 'trpc';
  return 'other';
}

/** The rate-limit "tools" a request counts against, and the family for its envelopes. */
function resolveRoute(method: string, url: URL, routeId: string | null, surface: Surface): { keys: string[]; family?: RouteFamily } {
  if (surface === 'trpc') {
    const names = decodeURIComponent(url.pathname.slice(TRPC_PREFIX.length + 1)).split(',').filter(Boolean);
    const entries = names.map((n) => routeIndex.forProcedure(n));
    const keys = names.map((n, i) => (entries[i] ? `${entries[i]!.method} ${entries[i]!.template}` : `TRPC ${n}`));
    return { keys: keys.length ? keys : ['TRPC (none)'], family: entries[0]?.family };
  }
  if (surface === 'rest') {
    const entry = routeIndex.matchRest(method, url.pathname);
    if (entry) return { keys: [`${entry.method} ${entry.template}`], family: entry.family };
    return { keys: [routeId && routeId !== '/api/[...path]' ? `${method} ${routeId}` : `${method} /api/(unmatched)`] };
  }
  return { keys: [`${method} ${routeId ?? '(no route)'}`] };
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._-]{8,128}$/.test(value) ? value : undefined;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
}

const OUTPUT_GUARD_ERROR = () =>
  new SvcError('OUTPUT_GUARD', 'The response was blocked: it read as a claim that an execution happened, without on-chain proof', {
    issues: [{ code: 'EXECUTION_CLAIM', message: 'no order is placed and nothing is executed by this service' }],
  });

/** Output guard and secret scrub over a finished JSON response. */
async function finalizeJson(response: Response, surface: Surface, family: RouteFamily | undefined, state: RequestState): Promise<Response> {
  let text = await response.text();
  const secrets = secretValues();
  if (containsSecret(text, secrets)) {
    logger.error({ event: 'secret_scrubbed', requestId: state.requestId, route: state.routeKey }, 'a configuration secret was about to leave in a response');
    text = scrubSecrets(text, secrets);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  const claim = scanForExecutionClaims(parsed);
  if (claim) {
    logger.error({ event: 'output_guard', requestId: state.requestId, route: state.routeKey, path: claim.path }, 'execution claim blocked');
    const blocked = OUTPUT_GUARD_ERROR();
    return surface === 'trpc' ? trpcErrorResponse(blocked) : restErrorResponse(blocked, family);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

export const handle: Handle = async ({ event, resolve }) => {
  const startedAtMs = performance.now();
  const requestId = validRequestId(event.request.headers.get('x-request-id')) ?? randomUUID();
  const method = event.request.method;
  const surface = surfaceOf(event.url.pathname);
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
    response = fail(error instanceof SvcError ? error : toSvcError(error, undefined));
  }

  async function guardThenResolve(): Promise<Response> {
    if (surface === 'other') return resolve(event);

    for (const key of keys) {
      const decision = await consumeRateLimit(state.clientAddress, key);
      if (!decision.allowed) {
        throw new SvcError('RATE_LIMITED', `Too many requests to this route: ${decision.limit} per ${config().rateLimit.windowSeconds} seconds per client`, {
          issues: [{ code: 'RATE_LIMITED', message: `retry after ${decision.retryAfterSeconds} seconds` }],
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        });
      }
    }

    if (method === 'POST') {
      const body = await readJsonObjectBody(event.request);
      state.rawBody = body.text;
      rejectCredentials(body.value, 'body');
    } else if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      throw new SvcError('METHOD_NOT_ALLOWED', `${method} is not supported; the API takes GET and POST with JSON bodies`);
    }
    rejectCredentials(Object.fromEntries(event.url.searchParams), 'query');
    return resolve(event);
  }

  if (surface !== 'other' || isJson(response)) {
    if (isJson(response)) response = await finalizeJson(response, surface, family, state);
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

function rejectCredentials(value: unknown, where: 'body' | 'query'): void {
  const findings = findCredentials(value);
  if (findings.length === 0) return;
  throw new SvcError('CREDENTIAL_FIELD_REJECTED', CREDENTIAL_REJECTION_MESSAGE, {
    issues: findings.map((f) => ({
      code: 'CREDENTIAL_FIELD_REJECTED',
      message: `${where} field rejected (${f.kind.replace(/_/g, ' ')})`,
      path: f.path || '(root)',
    })),
  });
}

function safeClientAddress(event: Parameters<Handle>[0]['event']): string {
  try {
    return event.getClientAddress();
  } catch {
    return 'unknown';
  }
}

export const handleError: HandleServerError = ({ error, event }) => {
  logger.error({ event: 'unhandled', requestId: event.locals.state?.requestId, name: (error as Error)?.name }, 'unhandled error');
  return { message: 'Internal error', code: 'INTERNAL' };
};
