/**
 * Applies the SQL migrations of the configured provider at start-up, so that
 * `npm start` on a fresh clone reaches a migrated database with no database command.
 *
 * Why not `prisma migrate deploy`: Prisma 6's schema engine cannot be downloaded offline
 * and its driver-adapter path fails on PostgreSQL (prisma/orm#27403). This runner is the
 * small remainder: ordered SQL files, each applied once inside a transaction, recorded with
 * a checksum in `_svc_migrations`; on PostgreSQL an advisory lock serialises instances that
 * start together. A migration edited after it was applied stops the start-up.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { providerOf, sqlitePath, type DbProvider } from './client';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

const sqliteFiles = import.meta.glob('/prisma/migrations/*/migration.sql', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const postgresFiles = import.meta.glob('/prisma/postgres/migrations/*/migration.sql', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function toMigrations(files: Record<string, string>): Migration[] {
  return Object.entries(files)
    .map(([path, sql]) => ({
      name: path.split('/').at(-2)!,
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The migrations bundled into this build for a provider, oldest first. */
export function bundledMigrations(provider: DbProvider): Migration[] {
  return toMigrations(provider === 'postgresql' ? postgresFiles : sqliteFiles);
}

const LEDGER_DDL =
  'CREATE TABLE IF NOT EXISTS "_svc_migrations" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TEXT NOT NULL)';
/** An arbitrary constant: the advisory-lock key of this service's migrations. */
const PG_LOCK_KEY = 46630001;

export interface MigrationReport {
  provider: DbProvider;
  applied: string[];
  alreadyApplied: number;
}

function checkChecksums(expected: Migration[], rows: Array<{ name: string; checksum: string }>): Set<string> {
  const byName = new Map(expected.map((m) => [m.name, m.checksum]));
  for (const row of rows) {
    const want = byName.get(row.name);
    if (want !== undefined && want !== row.checksum) {
      throw new Error(`migration ${row.name} was changed after it was applied; restore it and add a new migration instead`);
    }
  }
  return new Set(rows.map((r) => r.name));
}

/**
 * `connectTimeoutMs` bounds the wait for a PostgreSQL connection (a database that does not
 * answer stops the start-up with an error rather than hanging it). No statement timeout: a
 * migration may take long, and so may the advisory lock while another instance migrates.
 */
export async function applyMigrations(databaseUrl: string, options: { connectTimeoutMs?: number } = {}): Promise<MigrationReport> {
  const provider = providerOf(databaseUrl);
  const migrations = bundledMigrations(provider);
  const applied: string[] = [];
  const now = () => new Date().toISOString();

  if (provider === 'sqlite') {
    const file = sqlitePath(databaseUrl);
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.exec(LEDGER_DDL);
      const done = checkChecksums(migrations, db.prepare('SELECT name, checksum FROM "_svc_migrations"').all() as never);
      for (const m of migrations) {
        if (done.has(m.name)) continue;
        db.transaction(() => {
          db.exec(m.sql);
          db.prepare('INSERT INTO "_svc_migrations" (name, checksum, applied_at) VALUES (?, ?, ?)').run(m.name, m.checksum, now());
        }).immediate();
        applied.push(m.name);
      }
      return { provider, applied, alreadyApplied: done.size };
    } finally {
      db.close();
    }
  }

  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: options.connectTimeoutMs });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PG_LOCK_KEY]);
    await client.query(LEDGER_DDL);
    const { rows } = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_svc_migrations"');
    const done = checkChecksums(migrations, rows);
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO "_svc_migrations" (name, checksum, applied_at) VALUES ($1, $2, $3)', [m.name, m.checksum, now()]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(m.name);
    }
    return { provider, applied, alreadyApplied: done.size };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PG_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

export type MigrationState = 'current' | 'pending' | 'ahead' | 'unknown';

/** Compares the ledger with the bundled migrations, through the running Prisma client. */
export async function migrationState(
  query: (sql: string) => Promise<Array<{ name: string }>>,
  provider: DbProvider,
): Promise<{ state: MigrationState; applied: number; bundled: number }> {
  const bundled = bundledMigrations(provider).map((m) => m.name);
  try {
    const rows = await query('SELECT name FROM "_svc_migrations"');
    const names = new Set(rows.map((r) => r.name));
    const missing = bundled.filter((n) => !names.has(n));
    const state: MigrationState = missing.length > 0 ? 'pending' : names.size > bundled.length ? 'ahead' : 'current';
    return { state, applied: names.size, bundled: bundled.length };
  } catch {
    return { state: 'unknown', applied: 0, bundled: bundled.length };
  }
}
