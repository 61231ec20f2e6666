/**
 * Start-up, and the pages' request layer. The API (/api, /trpc, /mcp) has its own front
 * (src/lib/server/http/front.ts): the production server hands it API requests before
 * SvelteKit sees them, and SvelteKit's API routes hand it the rest (`vite dev`, the pages'
 * server-side loads), so `handle` lets those through untouched. A page request gets a request
 * id and a log line.
 */
import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit';
import { randomUUID } from 'node:crypto';
import { config } from '$lib/server/config';
import { applyMigrations } from '$lib/server/db/migrate';
import { apiSurfaceOf } from '$lib/server/http/front';
import { logger } from '$lib/server/logger';
import { publishNodeFront } from '$lib/server/http/node-front';
import { initRateLimiter } from '$lib/server/rate-limit/counters';
import { readServerClock } from '$lib/server/clock';
import { readySigner } from '$lib/server/signing-key';
import { keepCheckpointing } from '$lib/server/trpc/procedure-kit/tlog';
import { apiFront } from './api-front';

export const init: ServerInit = async () => {
  const report = await applyMigrations(config().databaseUrl, { connectTimeoutMs: config().databaseTimeouts.connectMs });
  logger.info(
    { event: 'migrations', provider: report.provider, applied: report.applied, alreadyApplied: report.alreadyApplied },
    'database ready',
  );
  // The signing key is taken (loaded, or made on first start) and published before the first
  // request, so a key that cannot be read, a retired or revoked key, or a second key beside the
  // one the other instances on PostgreSQL sign with stops the start with the reason instead of
  // failing answers (signing-key.ts).
  const signer = await readySigner(config(), readServerClock());
  logger.info({ event: 'signing_key', keyId: signer.keyId }, 'receipt signing key ready');
  // The checkpointed receipt log gets a new signed checkpoint at least every interval while it grows.
  keepCheckpointing(config());
  await initRateLimiter();
  publishNodeFront(apiFront);
};

export const handle: Handle = async ({ event, resolve }) => {
  if (apiSurfaceOf(event.url.pathname)) return resolve(event);
  const startedAtMs = performance.now();
  const requestId = randomUUID();
  const route = `${event.request.method} ${event.route.id ?? '(no route)'}`;
  event.locals.requestId = requestId;
  const response = await resolve(event);
  response.headers.set('x-request-id', requestId);
  logger.info(
    {
      requestId,
      method: event.request.method,
      route,
      status: response.status,
      durationMs: Math.round((performance.now() - startedAtMs) * 100) / 100,
    },
    'request',
  );
  return response;
};

/**
 * Errors SvelteKit itself reports (pages; the API answers its own). A path that matches no
 * route is a 404 of the caller, not an error of the service: logged at info as "not found".
 * Other 4xx (a malformed page path) at warn; only a 5xx is "unhandled".
 */
export const handleError: HandleServerError = ({ error, event, status }) => {
  const requestId = event.locals.requestId;
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
