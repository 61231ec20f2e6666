/**
 * The Prisma client for the configured database: SQLite (embedded default) or PostgreSQL
 * (a postgres:// DATABASE_URL). Both generated clients have the same models, so the rest of
 * the code sees one type.
 */
import { keepCheckpointed, SQLITE_AUTOCHECKPOINT_FALLBACK, SQLITE_CONNECTION_PRAGMAS } from './sqlite-checkpointer';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '$generated/prisma-sqlite/client';
import { PrismaClient as PostgresClient } from '$generated/prisma-postgres/client';
import { config } from '../config';
import { logger } from '../logger';
import { postgresPoolConfig } from './postgres-pool';

export type Db = SqliteClient;
export type DbProvider = 'sqlite' | 'postgresql';

export function providerOf(url: string): DbProvider {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgresql' : 'sqlite';
}

/** The filesystem path of a `file:` SQLite URL. */
export function sqlitePath(url: string): string {
  const path = url.replace(/^file:/, '').split('?')[0]!;
  return path === '' ? './data/svc.db' : path;
}

let client: Db | undefined;

/**
 * The journal is WAL (set persistently by the migrator, db/migrate.ts). `synchronous =
 * NORMAL` writes each commit to the WAL before the commit returns but syncs the WAL to disk
 * only at checkpoints: a committed row survives the process being killed (SIGKILL, a crash),
 * which is what a 200 promises and what tests/api/durability.test.ts checks; the last
 * commits before a power loss or a kernel crash may be lost. FULL would fsync every commit,
 * about 3 ms on the machine measured, which bounds a single-connection store at a few hundred
 * writes a second (docs/performance.md). A deployment that must survive power loss with every
 * answered write runs on PostgreSQL. Checkpoints run on a worker thread, never in a commit on
 * the event loop (db/sqlite-checkpointer.ts).
 */
export function getDb(): Db {
  if (client) return client;
  const url = config().databaseUrl;
  if (providerOf(url) === 'postgresql') {
    client = new PostgresClient({ adapter: new PrismaPg(postgresPoolConfig(url, config().databaseTimeouts)) }) as unknown as Db;
  } else {
    const file = sqlitePath(url);
    mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }) });
    // Sent before any other query of this client, which runs after it on the one connection.
    // The client opens on first use, not at start-up: loading Prisma's query compiler costs
    // start-up time and resident memory that a server answering only GETs never needs.
    // `$queryRawUnsafe`: a pragma that answers a row would fail through `$executeRawUnsafe`.
    const setting = (pragma: string) =>
      sqlite
        .$queryRawUnsafe(`PRAGMA ${pragma}`)
        .catch((error: unknown) =>
          logger.error({ event: 'sqlite_pragma_failed', pragma, name: (error as Error)?.name }, 'database setting not applied'),
        );
    for (const pragma of SQLITE_CONNECTION_PRAGMAS) void setting(pragma);
    keepCheckpointed(file, () => void setting(SQLITE_AUTOCHECKPOINT_FALLBACK));
    client = sqlite;
  }
  return client;
}

export async function closeDb(): Promise<void> {
  await client?.$disconnect();
  client = undefined;
}
