/**
 * Direct access to a test server's database through the same generated Prisma clients the
 * service uses (SQLite or PostgreSQL, from the URL). Tests use it to arrange states the
 * API cannot reach on purpose (an expired nonce, a session near its end, rows owned by a
 * wallet) and to check what the service stored.
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '../../src/generated/prisma-sqlite/client';
import { PrismaClient as PostgresClient } from '../../src/generated/prisma-postgres/client';

export type TestDb = SqliteClient;

export function openTestDb(databaseUrl: string): TestDb {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    return new PostgresClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) }) as unknown as TestDb;
  }
  return new SqliteClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl }) });
}
