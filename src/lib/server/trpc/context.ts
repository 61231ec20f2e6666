import type { Cookies, RequestEvent } from '@sveltejs/kit';
import { resolveSession, type SessionInfo } from '../http/session-cookie';
import { config, type ServiceConfig } from '../config';

/** What every procedure sees of its request, whichever door it came through. */
export interface RequestContext {
  /** The request URL; a synthetic `mcp://svc/<tool>` for an MCP tool call over stdio. */
  url: URL;
  requestId: string;
  clientAddress: string;
  /** Request headers (read-only use: the guards already ran before the procedure). */
  headers: Headers;
  cookies: Cookies;
  /** Headers a procedure adds to its response (cookies excepted: use `cookies`). */
  resHeaders: Headers;
  /**
   * The server's own clock when the request arrived. Every expiry, freshness and validity
   * check reads it (Mode B pack expiry, x402 validity windows, SIWE messages, nonces and
   * sessions, timelock readiness) and so does every time a row is stored: a caller can
   * never move it.
   */
  serverTime: Date;
  /**
   * The instant the answer's timestamps say: the caller's `nowIso` when given (so the same
   * request answers byte-identically), else `serverTime`. Used ONLY for timestamps written
   * in answers, never for a check. The clock middleware sets it.
   */
  answerTime: Date;
  config: ServiceConfig;
  /** The caller's wallet session (read once, on first use), or null when anonymous. */
  getSession: () => Promise<SessionInfo | null>;
}

/** The request facts a context is built from, without any HTTP framework. */
export interface InnerContextOptions {
  url: URL;
  requestId: string;
  clientAddress: string;
  serverTime: Date;
  resHeaders?: Headers;
  headers?: Headers;
  /** Absent for callers without cookies (the MCP doors): no session, nothing can be set. */
  cookies?: Cookies;
  config?: ServiceConfig;
}

/**
 * A cookie jar that holds nothing and refuses to be written: the MCP doors carry no wallet
 * session, and a procedure that tried to set a cookie there would be a bug worth a 500
 * rather than a silently lost session.
 */
export const NO_COOKIES: Cookies = {
  get: () => undefined,
  getAll: () => [],
  set: () => {
    throw new Error('this request has no cookie jar (called without HTTP)');
  },
  delete: () => {
    throw new Error('this request has no cookie jar (called without HTTP)');
  },
  serialize: () => {
    throw new Error('this request has no cookie jar (called without HTTP)');
  },
};

/**
 * The context without SvelteKit: what the server-side caller (the MCP tools, in-process
 * tests) passes to a procedure. Without cookies the session is anonymous.
 */
export function createInnerContext(options: InnerContextOptions): RequestContext {
  const cookies = options.cookies ?? NO_COOKIES;
  let session: Promise<SessionInfo | null> | undefined;
  return {
    url: options.url,
    requestId: options.requestId,
    clientAddress: options.clientAddress,
    headers: options.headers ?? new Headers(),
    cookies,
    resHeaders: options.resHeaders ?? new Headers(),
    serverTime: options.serverTime,
    answerTime: options.serverTime,
    config: options.config ?? config(),
    getSession: () => (session ??= options.cookies ? resolveSession(cookies, options.serverTime) : Promise.resolve(null)),
  };
}

/** The context of an HTTP request (/api, /trpc): the inner context plus the SvelteKit event. */
export function createRequestContext(event: RequestEvent, resHeaders: Headers): RequestContext {
  const state = event.locals.state;
  return createInnerContext({
    url: event.url,
    requestId: state.requestId,
    clientAddress: state.clientAddress,
    headers: event.request.headers,
    cookies: event.cookies,
    resHeaders,
    serverTime: state.serverTime,
  });
}
