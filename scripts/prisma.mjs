#!/usr/bin/env node
// Prisma tasks that work offline, for both providers.
//
//   node scripts/prisma.mjs generate [--if-changed]  derive the PostgreSQL schema, generate both clients
//   node scripts/prisma.mjs migration <name>  write a new SQL migration for both providers
//
// Prisma 6's migrate engine cannot be downloaded here and its driver-adapter path fails on
// PostgreSQL (prisma/orm#27403), so migrations are produced with `prisma migrate diff`
// (which works offline) from the schema snapshot stored beside the previous migration, and
// applied at start-up by src/lib/server/db/migrate.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SQLITE_SCHEMA = 'prisma/schema.prisma';
const PG_SCHEMA = 'prisma/postgres/schema.prisma';
const SQLITE_MIGRATIONS = 'prisma/migrations';
const PG_MIGRATIONS = 'prisma/postgres/migrations';
const SNAPSHOT = 'schema.snapshot.prisma';
const PRISMA_BIN = 'node_modules/prisma/build/index.js';

/** The PostgreSQL schema is the SQLite one with its provider and output swapped. */
export function derivePostgresSchema(sqliteSchema) {
  return sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('"../src/generated/prisma-sqlite"', '"../../src/generated/prisma-postgres"')
    .replace(
      /^\/\/ One set of models[\s\S]*?(?=\n\ngenerator)/m,
      '// GENERATED from prisma/schema.prisma by scripts/prisma.mjs: do not edit.',
    );
}

function prisma(args, databaseUrl) {
  return execFileSync(process.execPath, [PRISMA_BIN, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();
}

const PG_PLACEHOLDER_URL = 'postgresql://placeholder@127.0.0.1:5432/placeholder';

function writePostgresSchema() {
  mkdirSync('prisma/postgres', { recursive: true });
  writeFileSync(PG_SCHEMA, derivePostgresSchema(readFileSync(SQLITE_SCHEMA, 'utf8')));
}

const GENERATED_STAMP = 'src/generated/.schema-fingerprint';

/** Generates the clients, or, with `onlyIfChanged`, only when the schema changed since the last run. */
function generate(onlyIfChanged = false) {
  const fingerprint = readFileSync(SQLITE_SCHEMA, 'utf8');
  if (onlyIfChanged && existsSync(GENERATED_STAMP) && readFileSync(GENERATED_STAMP, 'utf8') === fingerprint) return;
  writePostgresSchema();
  prisma(['generate', '--schema', SQLITE_SCHEMA], 'file:./data/svc.db');
  prisma(['generate', '--schema', PG_SCHEMA], PG_PLACEHOLDER_URL);
  writeFileSync(GENERATED_STAMP, fingerprint);
  process.stderr.write('prisma: generated the SQLite and PostgreSQL clients\n');
}

function latestMigration(dir) {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((d) => /^\d{14}_/.test(d))
    .sort()
    .at(-1);
}

function migration(name) {
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: migration <snake_case_name>');
  writePostgresSchema();
  const current = readFileSync(SQLITE_SCHEMA, 'utf8');
  const previous = latestMigration(SQLITE_MIGRATIONS);
  const tmp = mkdtempSync(join(tmpdir(), 'svc-migration-'));
  let fromSqlite = ['--from-empty'];
  let fromPg = ['--from-empty'];
  if (previous) {
    const snapshot = readFileSync(join(SQLITE_MIGRATIONS, previous, SNAPSHOT), 'utf8');
    if (snapshot === current) {
      process.stderr.write('prisma: the schema has no change since the last migration\n');
      return;
    }
    writeFileSync(join(tmp, 'sqlite.prisma'), snapshot);
    writeFileSync(join(tmp, 'pg.prisma'), derivePostgresSchema(snapshot));
    fromSqlite = ['--from-schema-datamodel', join(tmp, 'sqlite.prisma')];
    fromPg = ['--from-schema-datamodel', join(tmp, 'pg.prisma')];
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const folder = `${stamp}_${name}`;
  const sqliteSql = prisma(['migrate', 'diff', ...fromSqlite, '--to-schema-datamodel', SQLITE_SCHEMA, '--script'], 'file:./data/svc.db');
  // `migrate diff` opens the configured adapter even for a schema-to-schema diff, so
  // authoring a migration needs a reachable PostgreSQL (any database; nothing is written).
  const pgUrl = process.env.PRISMA_DIFF_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const pgSql = prisma(['migrate', 'diff', ...fromPg, '--to-schema-datamodel', PG_SCHEMA, '--script'], pgUrl);
  mkdirSync(join(SQLITE_MIGRATIONS, folder), { recursive: true });
  mkdirSync(join(PG_MIGRATIONS, folder), { recursive: true });
  writeFileSync(join(SQLITE_MIGRATIONS, folder, 'migration.sql'), sqliteSql);
  writeFileSync(join(SQLITE_MIGRATIONS, folder, SNAPSHOT), current);
  writeFileSync(join(PG_MIGRATIONS, folder, 'migration.sql'), pgSql);
  process.stderr.write(`prisma: wrote migration ${folder} for SQLite and PostgreSQL\n`);
}

const [command, arg] = process.argv.slice(2);
if (command === 'generate') generate(process.argv.includes('--if-changed'));
else if (command === 'migration') migration(arg);
else if (command !== undefined) {
  process.stderr.write('usage: node scripts/prisma.mjs generate | migration <name>\n');
  process.exit(2);
}
