import type { Cookies, RequestEvent } from '@sveltejs/kit';
import { resolveSession, type SessionInfo } from '../auth/session';
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
  receivedAt: Date;
  /** The request's clock; the clock middleware pins it from `nowIso`. */
  now: Date;
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
    receivedAt: state.receivedAt,
    now: state.receivedAt,
    config: config(),
    getSession: () => (session ??= resolveSession(event.cookies, state.receivedAt)),
  };
}
