import { NO_COOKIES, type CookieJar } from '../cookies/cookie-jar';
import { resolveSession, type SessionInfo } from '../cookies/session-cookie';
import { answerTimeOfServer, type AnswerTime, type ServerTime } from '../clock';
import { config, type ServiceConfig } from '../config';

/** The request's headers as a procedure reads them (a web `Headers` fits). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Headers a procedure adds to its answer (a web `Headers` fits). */
export interface HeaderWriter {
  set(name: string, value: string): void;
}

const NO_HEADERS: HeaderReader = { get: () => null };

/** What every procedure sees of its request, whichever door it came through. */
export interface RequestContext {
  /** The request URL; a synthetic `mcp://svc/<tool>` for an MCP tool call over stdio. */
  url: URL;
  requestId: string;
  clientAddress: string;
  /** Request headers (read-only use: the guards already ran before the procedure). */
  headers: HeaderReader;
  cookies: CookieJar;
  /** Headers a procedure adds to its response (cookies excepted: use `cookies`). */
  resHeaders: HeaderWriter;
  /**
   * The server's own clock when the request arrived. Every expiry, freshness and validity
   * check reads it (Mode B pack expiry, x402 validity windows, SIWE messages, nonces and
   * sessions, timelock readiness) and so does every time a row is stored: a caller can
   * never move it. Its type cannot be built from input (`ServerTime`, clock.ts).
   */
  serverTime: ServerTime;
  /**
   * The instant the answer's timestamps say: the caller's `nowIso` when given (so the same
   * request answers byte-identically), else `serverTime`. Used ONLY for timestamps written
   * in answers, never for a check (a check that is given it is a type error). The clock
   * middleware sets it.
   */
  answerTime: AnswerTime;
  config: ServiceConfig;
  /** The caller's wallet session (read once, on first use), or null when anonymous. */
  getSession: () => Promise<SessionInfo | null>;
  /**
   * An MCP tool call: it sends nothing of the caller's to an outside party (interface 4.9),
   * so a procedure that would ask the partner answers locally instead (docs/mcp-tools.md).
   */
  transmitsNothing: boolean;
}

/** The request facts a context is built from, without any HTTP framework. */
export interface InnerContextOptions {
  url: URL;
  requestId: string;
  clientAddress: string;
  serverTime: ServerTime;
  resHeaders?: HeaderWriter;
  headers?: HeaderReader;
  /** Absent for callers without cookies (the MCP doors): no session, nothing can be set. */
  cookies?: CookieJar;
  config?: ServiceConfig;
  /** Set by the MCP doors (`RequestContext.transmitsNothing`). */
  transmitsNothing?: boolean;
}

/**
 * The context of a procedure call from the facts of its request, whichever door it came
 * through (the HTTP front, the MCP tools, in-process tests). Without cookies the session is
 * anonymous.
 */
export function createInnerContext(options: InnerContextOptions): RequestContext {
  const cookies = options.cookies ?? NO_COOKIES;
  let session: Promise<SessionInfo | null> | undefined;
  return {
    url: options.url,
    requestId: options.requestId,
    clientAddress: options.clientAddress,
    headers: options.headers ?? NO_HEADERS,
    cookies,
    resHeaders: options.resHeaders ?? new Headers(),
    serverTime: options.serverTime,
    answerTime: answerTimeOfServer(options.serverTime),
    config: options.config ?? config(),
    getSession: () => (session ??= options.cookies ? resolveSession(cookies, options.serverTime) : Promise.resolve(null)),
    transmitsNothing: options.transmitsNothing === true,
  };
}
