/**
 * The schema and its migrations stay in step: the snapshot stored with the newest
 * migration is the current schema (a model change without a migration fails here), and
 * both providers have the same migration folders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const folders = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((d) => /^\d{14}_/.test(d))
    .sort();

describe('prisma migrations', () => {
  it('has the same migrations for SQLite and PostgreSQL', () => {
    expect(folders('prisma/postgres/migrations')).toEqual(folders('prisma/migrations'));
  });

  it('has a migration for every schema change (the newest snapshot is the schema)', () => {
    const newest = folders('prisma/migrations').at(-1)!;
    const snapshot = readFileSync(join(root, 'prisma/migrations', newest, 'schema.snapshot.prisma'), 'utf8');
    expect(snapshot).toBe(readFileSync(join(root, 'prisma/schema.prisma'), 'utf8'));
  });
});
