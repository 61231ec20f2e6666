// Prisma CLI configuration. The provider is fixed per generated client, so the
// schema is chosen from DATABASE_URL: SQLite by default, PostgreSQL for a
// postgres:// URL. Both clients are generated at install (scripts/prisma-generate.mjs).
import { mkdirSync } from 'node:fs';
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL ?? 'file:./data/svc.db';
process.env.DATABASE_URL = url;
const isPostgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: isPostgres ? 'prisma/postgres/schema.prisma' : 'prisma/schema.prisma',
  async adapter() {
    if (isPostgres) {
      const { PrismaPg } = await import('@prisma/adapter-pg');
      return new PrismaPg({ connectionString: url });
    }
    mkdirSync('data', { recursive: true });
    const { PrismaBetterSQLite3 } = await import('@prisma/adapter-better-sqlite3');
    return new PrismaBetterSQLite3({ url });
  },
});
