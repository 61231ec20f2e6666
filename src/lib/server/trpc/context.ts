import type { Cookies, RequestEvent } from '@sveltejs/kit';
import { resolveSession, type SessionInfo } from '../http/session-cookie';
import { config, type ServiceConfig } from '../config';

/** What every procedure sees of its request. Built once per request from the SvelteKit event. */
export interface RequestContext {
  url: URL;
  requestId: string;
  clientAddress: string;
  /** Request headers (read-only use: the guards already ran in `handle`). */
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

export function createRequestContext(event: RequestEvent, resHeaders: Headers): RequestContext {
  const state = event.locals.state;
  let session: Promise<SessionInfo | null> | undefined;
  return {
    url: event.url,
    requestId: state.requestId,
    clientAddress: state.clientAddress,
    headers: event.request.headers,
    cookies: event.cookies,
    resHeaders,
    serverTime: state.serverTime,
    answerTime: state.serverTime,
    config: config(),
    getSession: () => (session ??= resolveSession(event.cookies, state.serverTime)),
  };
}
