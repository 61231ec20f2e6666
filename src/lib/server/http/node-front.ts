/**
 * The API front's Node face: how the production server (scripts/start.mjs) serves /api, /trpc
 * and /mcp from Node's own request and response, before SvelteKit (which serves the pages)
 * would turn them into web objects. The server finds it through `publishNodeFront`, set when
 * the app starts (src/hooks.server.ts `init`): the API then runs in the same module instance
 * as the pages' server-side loads, with one database client and one rate limiter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../config';
import { closeDb } from '../db/client';
import { closeCoilRows } from '../db/coil-row-store';
import { isApiTarget, type ApiFront, type ApiRequest } from './front';
import { logger, logInternalError } from '../logger';
import { closeRateLimiter } from '../rate-limit/counters';

const NODE_FRONT = Symbol.for('svc.nodeApiFront');

export interface NodeFront {
  /** Whether a raw request target is the API's (else the server hands it to SvelteKit): `isApiTarget`, http/front.ts. */
  isApiTarget(target: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Logs, once, a failure the Node server caught outside the API front (a page's or an asset's
   * request, a rejection nobody awaited: scripts/server-guards.mjs), through the app's logger
   * (its secret scrub included).
   */
  logFailure(error: unknown, where: Record<string, unknown>): void;
  /**
   * Closes the app's connections (database clients and pools, the rate-limit store) once the
   * server has stopped taking requests: open sockets to PostgreSQL or Redis would otherwise keep
   * a stopped process alive.
   */
  close(): Promise<void>;
}

/**
 * The client's address, by adapter-node's rule for the same variables (so the pages and the
 * API see one client): the `ADDRESS_HEADER` when set (for `x-forwarded-for`, the `XFF_DEPTH`th
 * entry from the right), else the socket's peer. 'unknown' when the header is missing.
 */
function clientAddressOf(req: IncomingMessage): string {
  const { addressHeader, xffDepth } = config().proxy;
  if (!addressHeader) return req.socket.remoteAddress ?? 'unknown';
  const value = req.headers[addressHeader];
  if (value === undefined) return 'unknown';
  const text = Array.isArray(value) ? value.join(',') : value;
  if (addressHeader !== 'x-forwarded-for') return text;
  const addresses = text.split(',');
  return xffDepth > addresses.length ? 'unknown' : addresses[addresses.length - xffDepth]!.trim();
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function webHeadersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return headers;
}

function apiRequestOf(req: IncomingMessage): ApiRequest {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    headers: { get: (name) => headerValue(req, name) },
    webHeaders: () => webHeadersOf(req),
    clientAddress: clientAddressOf(req),
    body: { contentType: req.headers['content-type'] ?? null, contentLength: length ?? null, chunks: hasBody ? req : null },
  };
}

function serveWith(front: ApiFront, req: IncomingMessage, res: ServerResponse): void {
  // Started inside a promise, so that even a synchronous throw of the front's entry answers
  // this request instead of reaching the process (issue 34 item 3).
  Promise.resolve()
    .then(() => front.answer(apiRequestOf(req)))
    .then((answer) => {
      // Node leaves the body of a HEAD answer out itself.
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    })
    .catch((error: unknown) => {
      // The front answers every failure itself; reaching here is a bug of the front.
      logger.error({ event: 'front_failed', name: error instanceof Error ? error.name : typeof error }, 'API front failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error', issues: [] } }));
    });
}

/** Makes the front available to scripts/start.mjs, which imports the built app first. */
export function publishNodeFront(front: ApiFront): void {
  const nodeFront: NodeFront = {
    isApiTarget,
    serve: (req, res) => serveWith(front, req, res),
    logFailure: logInternalError,
    close: async () => {
      await Promise.allSettled([closeDb(), closeCoilRows(), closeRateLimiter()]);
    },
  };
  (globalThis as Record<symbol, unknown>)[NODE_FRONT] = nodeFront;
}
