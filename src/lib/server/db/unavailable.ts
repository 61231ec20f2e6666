/**
 * Whether a database error means the database did not answer (in time, or at all), as opposed
 * to refusing a statement. Such an error is the caller's 503 `DATABASE_UNAVAILABLE`, never a
 * 500: nothing is wrong with the request, and a retry may succeed. The PostgreSQL pools give up
 * after DATABASE_CONNECT_TIMEOUT_MS (no connection) and DATABASE_STATEMENT_TIMEOUT_MS (the
 * server cancels the statement, and the client stops waiting for an answer shortly after);
 * group commit (db/group-commit.ts) bounds a batch the same way.
 *
 * Read from the error's structure where it has one: PostgreSQL's SQLSTATE (`code`, also inside
 * Prisma's `meta.driverAdapterError.cause`), the pg adapter's classification (`kind`), Prisma's
 * own codes, Node's socket codes, SQLite's busy codes. pg's pool and client raise a few plain
 * errors with no code (a read or connect timeout): those are matched by their fixed messages,
 * which pg has kept since 8.0. Checked against the real PostgreSQL by
 * tests/api/database-timeouts.test.ts.
 */
import { SvcError } from '../errors';

/** SQLSTATEs: statement timeout, lock not available, shutdowns, cannot connect now, too many connections, connection exceptions. */
const SQLSTATES = new Set(['57014', '55P03', '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
/** Kinds of the Prisma adapters' error mapping for an unreachable or closed connection (the SQLite adapter's SQLITE_BUSY is `SocketTimeout`). */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Prisma: cannot reach, timed out, operations timed out, connection closed, pool timeout, transaction API timeout. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);
const PG_PLAIN_MESSAGES = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
];

/** A batch of writes that did not finish within its bound (db/group-commit.ts). */
export class DatabaseTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the database did not finish the write within ${timeoutMs} ms`);
    this.name = 'DatabaseTimeoutError';
  }
}

function unavailableHere(node: Record<string, unknown>): boolean {
  if (node instanceof DatabaseTimeoutError) return true;
  const code = node.code;
  if (typeof code === 'string' && (SQLSTATES.has(code) || PRISMA_CODES.has(code) || SOCKET_CODES.has(code))) return true;
  const kind = node.kind;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  return code === undefined && typeof node.message === 'string' && PG_PLAIN_MESSAGES.includes(node.message);
}

/** Whether the error (or anything it wraps) says the database did not answer. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const stack: unknown[] = [error];
  for (let seen = 0; stack.length > 0 && seen < 16; seen++) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    if (unavailableHere(record)) return true;
    const meta = record.meta as { driverAdapterError?: { cause?: unknown } } | undefined;
    stack.push(record.cause, meta?.driverAdapterError?.cause, meta?.driverAdapterError);
  }
  return false;
}

/** The caller's error for a database that did not answer: 503, and nothing of the driver's words. */
export function databaseUnavailable(): SvcError {
  return new SvcError('DATABASE_UNAVAILABLE', 'The database did not answer in time; try again shortly', {
    issues: [{ code: 'DATABASE_UNAVAILABLE', message: 'the database is unreachable or did not answer within its timeout' }],
  });
}
