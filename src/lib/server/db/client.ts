/**
 * The Prisma client for the configured database: SQLite (embedded default) or PostgreSQL
 * (a postgres:// DATABASE_URL). Both generated clients have the same models, so the rest of
 * the code sees one type.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '$generated/prisma-sqlite/client';
import { PrismaClient as PostgresClient } from '$generated/prisma-postgres/client';
import { config } from '../config';

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

export function getDb(): Db {
  if (client) return client;
  const url = config().databaseUrl;
  if (providerOf(url) === 'postgresql') {
    client = new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
  } else {
    const file = sqlitePath(url);
    mkdirSync(dirname(file), { recursive: true });
    client = new SqliteClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }) });
  }
  return client;
}

export async function closeDb(): Promise<void> {
  await client?.$disconnect();
  client = undefined;
}
