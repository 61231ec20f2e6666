import { SvcError } from './errors';

/**
 * Strict ISO 8601 date-time: a calendar date, a time and an explicit zone (Z or ±hh:mm).
 * A bare date or a zone-less time is ambiguous across servers, so it is refused.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instants whose UTC form has a four-digit year: 0000-01-01T00:00:00.000Z to
 * 9999-12-31T23:59:59.999Z. A zone offset can push a written year past them (`9999-12-31T23:30Z`
 * is in, `9999-12-31T20:00-05:00` is 10000-01-01T01:00Z), and `toISOString` then writes an
 * expanded year (`+010000-...`) that no answer, hash or ISO 8601 reader without an agreed
 * extension expects.
 */
const FIRST_INSTANT_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Parses an ISO 8601 timestamp into a Date, or returns undefined when it is not one (or lies outside four-digit UTC years). */
export function parseIsoInstant(value: string): Date | undefined {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  if (date.getTime() < FIRST_INSTANT_MS || date.getTime() > LAST_INSTANT_MS) return undefined;
  // Reject rolled-over dates such as 2026-02-30 (Date would quietly move them to March).
  const probe = new Date(Date.UTC(Number(y), month - 1, day));
  if (probe.getUTCMonth() !== month - 1) return undefined;
  return date;
}

declare const SERVER_CLOCK: unique symbol;
declare const ANSWER_CLOCK: unique symbol;

/**
 * An instant of this server's own clock: the only time an expiry, freshness or validity check
 * may read, and the only time a row may store. Two ways make one: `readServerClock()` (the
 * wall clock now) and `storedServerTime()` (a column this server wrote with one, read back by
 * a repository; the lint config allows that import under `src/lib/server/db/` only). Nothing
 * parsed from a request can become one without a cast, so a caller's `nowIso` given to a
 * check is a type error.
 */
export type ServerTime = Date & { readonly [SERVER_CLOCK]: true };

/**
 * The instant an answer's timestamps say: the caller's `nowIso` when given (so the same
 * request answers byte-identically), else the server's clock at arrival. Never accepted where
 * a `ServerTime` is required.
 */
export type AnswerTime = Date & { readonly [ANSWER_CLOCK]: true };

/** The server's wall clock now. */
export function readServerClock(): ServerTime {
  return new Date() as ServerTime;
}

/** A time this server stored from its own clock, read back from the database. */
export function storedServerTime(stored: Date): ServerTime {
  return stored as ServerTime;
}

/** A deadline on the server's clock: `from` plus `ms` (an expiry counts from a server time). */
export function serverTimeAfter(from: ServerTime, ms: number): ServerTime {
  return new Date(from.getTime() + ms) as ServerTime;
}

/** The server's time as the answer's time (an answer may say when the server saw the request). */
export function answerTimeOfServer(serverTime: ServerTime): AnswerTime {
  return serverTime as Date as AnswerTime;
}

/**
 * The two clocks of a request, kept apart by type so a check can never read the caller's
 * clock: `answerTime` is what the answer's timestamps say, `serverTime` is the server's own
 * clock at arrival and the only one any expiry, freshness or validity check (and any stored
 * time) may read.
 */
export interface RequestClocks {
  answerTime: AnswerTime;
  serverTime: ServerTime;
}

/**
 * The answer's clock of one request: `nowIso` pins it (so the same request gives a byte-identical
 * answer), otherwise the server's clock at the time the request arrived.
 */
export function resolveClock(nowIso: unknown, arrival: ServerTime = readServerClock()): AnswerTime {
  if (nowIso === undefined || nowIso === null) return answerTimeOfServer(arrival);
  if (typeof nowIso !== 'string') {
    throw new SvcError('NOW_ISO_INVALID', 'nowIso must be an ISO 8601 timestamp string', {
      issues: [{ code: 'NOW_ISO_INVALID', message: 'expected an ISO 8601 string', path: 'nowIso' }],
    });
  }
  const parsed = parseIsoInstant(nowIso);
  if (!parsed) {
    throw new SvcError('NOW_ISO_INVALID', 'nowIso is not a valid ISO 8601 timestamp with a time zone', {
      issues: [
        {
          code: 'NOW_ISO_INVALID',
          message: 'expected e.g. 2026-01-01T00:00:00Z, at most 9999-12-31T23:59:59.999Z once converted to UTC',
          path: 'nowIso',
        },
      ],
    });
  }
  return parsed as AnswerTime;
}

/** A Date as the canonical ISO string every response uses (UTC, milliseconds). */
export function toIso(date: Date): string {
  return date.toISOString();
}
