/**
 * In-process calls through tRPC's server-side caller: the same procedures, middlewares
 * (answer finishing, error status, well-formed text, clock) and zod input/output parsing as
 * over HTTP, without building or starting the server. A RequestContext is made here without
 * a server, from a URL, headers, a minimal cookie jar and a configuration read from `env`
 * (never the process environment, so a test sees only what it sets).
 *
 * What crosses HTTP (statuses as sent, headers, the body cap, the front's guards, cookies,
 * rate limits) stays in the real-server tests of tests/api.
 */
import type { SessionInfo } from '../../src/lib/server/auth/session';
import { answerTimeOfServer, readServerClock, type ServerTime } from '../../src/lib/server/clock';
import { loadConfig, type ServiceConfig } from '../../src/lib/server/config';
import { findSvcError, type SvcError } from '../../src/lib/server/errors';
import type { CookieJar } from '../../src/lib/server/cookies/cookie-jar';
import type { RequestContext } from '../../src/lib/server/trpc/context';
import { statusForCode } from '../../src/lib/server/trpc/error-map';
import { createCallerFactory } from '../../src/lib/server/trpc/init';
import { appRouter } from '../../src/lib/server/trpc/router';

export interface TestContextOptions {
  /** Environment of the configuration (loadConfig); the process environment is not read. */
  env?: Record<string, string | undefined>;
  config?: ServiceConfig;
  /** The request's URL; its query string is what the clock middleware reads `nowIso` from. */
  url?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  /** The server's clock at arrival (every check reads it); defaults to now. */
  serverTime?: ServerTime;
  session?: SessionInfo | null;
  clientAddress?: string;
  /** As an MCP tool call (`RequestContext.transmitsNothing`). */
  transmitsNothing?: boolean;
}

/**
 * A cookie jar (the front's `CookieJar` surface): what a procedure sets is readable back (and
 * listed in `written`), so a test can see a session cookie being set or cleared.
 */
export function testCookies(
  initial: Record<string, string> = {},
): CookieJar & { written: Array<{ name: string; value: string; options: unknown }> } {
  const jar = new Map(Object.entries(initial));
  const written: Array<{ name: string; value: string; options: unknown }> = [];
  return {
    written,
    get: (name) => jar.get(name),
    set: (name, value, options) => {
      jar.set(name, value);
      written.push({ name, value, options });
    },
    delete: (name, options) => {
      jar.delete(name);
      written.push({ name, value: '', options });
    },
  };
}

let requestCounter = 0;

export function testContext(options: TestContextOptions = {}): RequestContext {
  const serverTime = options.serverTime ?? readServerClock();
  const config = options.config ?? loadConfig(options.env ?? {});
  const session = options.session ?? null;
  return {
    url: new URL(options.url ?? '/api/test', config.origin),
    requestId: `inproc-${++requestCounter}`,
    clientAddress: options.clientAddress ?? '127.0.0.1',
    headers: new Headers(options.headers),
    cookies: testCookies(options.cookies),
    resHeaders: new Headers(),
    serverTime,
    // The clock middleware replaces it with `nowIso` when the input gives one.
    answerTime: answerTimeOfServer(serverTime),
    config,
    getSession: async () => session,
    transmitsNothing: options.transmitsNothing === true,
  };
}

const createCaller = createCallerFactory(appRouter);

/** A server-side caller of the whole application router in the given context. */
export function callerOf(ctx: RequestContext) {
  return createCaller(ctx);
}

/** A server-side caller in a fresh test context (see `testContext` for what can be set). */
export function callerFor(options: TestContextOptions = {}) {
  return createCaller(testContext(options));
}

export type TestCaller = ReturnType<typeof callerFor>;

/** The service error a call was refused with, and the HTTP status its code maps to. */
export async function refusal(call: Promise<unknown>): Promise<{ code: string; status: number; error: SvcError }> {
  try {
    await call;
  } catch (thrown) {
    const error = findSvcError(thrown);
    if (!error) throw thrown;
    return { code: error.code, status: statusForCode(error.code), error };
  }
  throw new Error('expected the call to be refused, but it answered');
}

/**
 * The caller with its input and output types loosened, for tests that send what a caller may
 * send (shapes the types forbid) and read answers as JSON, like the HTTP tests do.
 */
export type LooseCaller = Record<string, Record<string, (input?: unknown) => Promise<any>>>;

export function looseCaller(options: TestContextOptions = {}): LooseCaller {
  return callerFor(options) as unknown as LooseCaller;
}

export interface InProcessAnswer<T = any> {
  /** 200, or the status the refusal's code maps to (the same table the HTTP endpoints use). */
  status: number;
  /** The answer, or `{ error: { code, message, issues } }` (a replacement body when the error has one). */
  json: T;
  /** `json` serialised: what a "the caller's words are not repeated" check reads. */
  text: string;
}

/**
 * Calls a procedure by its router path (`autonomy.validateAutonomy`) and answers like the
 * HTTP tests' client, so a router-logic test reads the same in process. Only the error's
 * code, message and issues are rendered: the envelope's other fields are the HTTP layer's
 * and are tested through the real server.
 */
export function inProcess(options: TestContextOptions = {}) {
  const caller = looseCaller(options);
  return {
    caller,
    async call(path: string, input?: unknown): Promise<InProcessAnswer> {
      const [family, name] = path.split('.') as [string, string];
      const procedure = caller[family]?.[name];
      if (!procedure) throw new Error(`no procedure ${path}`);
      try {
        const json = await procedure(input);
        return { status: 200, json, text: JSON.stringify(json) };
      } catch (thrown) {
        const error = findSvcError(thrown);
        if (!error) throw thrown;
        const json = error.body ?? { error: { code: error.code, message: error.message, issues: error.issues } };
        return { status: statusForCode(error.code), json, text: JSON.stringify(json) };
      }
    },
  };
}
