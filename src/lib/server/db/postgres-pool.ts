/** The bounds every PostgreSQL pool of the service is opened with (config.ts `databaseTimeouts`). */
import type { PoolConfig } from 'pg';

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
}

/**
 * How much longer than the statement timeout the client waits for any answer: the server
 * cancels a statement at DATABASE_STATEMENT_TIMEOUT_MS and says so (the connection stays
 * usable); a server or network that says nothing at all is given up on this much later.
 */
const ANSWER_MARGIN_MS = 1000;

/**
 * The settings of every PostgreSQL pool of the service (Prisma's adapter and the tool calls'
 * rows): a bounded wait for a connection (a new one, or a free one of a busy pool), a
 * server-side statement timeout, and a client-side wait for the answer.
 */
export function postgresPoolConfig(url: string, timeouts: DatabaseTimeouts): PoolConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + ANSWER_MARGIN_MS,
  };
}

/** The longest a write to the database can take before its caller is told it failed. */
export function writeBoundMs(timeouts: DatabaseTimeouts): number {
  return timeouts.connectMs + timeouts.statementMs + ANSWER_MARGIN_MS;
}
