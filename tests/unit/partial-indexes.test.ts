/**
 * The indexes over nullable columns hold only rows where the column is set (migration
 * 20261127100000_fewer_index_writes_per_call), and every query shape the repositories send on
 * those columns still searches its index instead of scanning the table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { applyMigrations } from '../../src/lib/server/db/migrate';

const dir = mkdtempSync(join(tmpdir(), 'svc-partial-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUERIES: Array<[string, string]> = [
  ['SELECT * FROM "Coil" WHERE "ownerAddress" = ? ORDER BY "createdAt" DESC', 'Coil_ownerAddress_createdAt_idx'],
  ['SELECT * FROM "Coil" WHERE "parentManifestHash" IN (?, ?)', 'Coil_parentManifestHash_idx'],
  ['SELECT count(*) FROM "Coil" WHERE "agentId" = ?', 'Coil_agentId_idx'],
  ['SELECT * FROM "Receipt" WHERE "ownerAddress" = ? ORDER BY "createdAt" DESC', 'Receipt_ownerAddress_createdAt_idx'],
  [
    'SELECT * FROM "Receipt" WHERE "parentManifestHash" IN (?, ?) AND ("ownerAddress" IS NULL OR "ownerAddress" = ?)',
    'Receipt_parentManifestHash_idx',
  ],
  ['SELECT * FROM "ReceiptLogEntry" WHERE "leafHash" IN (?, ?) ORDER BY "index" ASC', 'ReceiptLogEntry_leafHash_key'],
];

it('keeps NULLs out of the nullable columns’ indexes, and the queries on them still use those indexes', async () => {
  const file = join(dir, 'svc.db');
  await applyMigrations(`file:${file}`);
  const db = new Database(file, { readonly: true });
  const partial = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%IS NOT NULL%' ORDER BY name")
    .all()
    .map((r) => (r as { name: string }).name);
  expect(partial).toEqual([
    'Coil_agentId_idx',
    'Coil_ownerAddress_createdAt_idx',
    'Coil_parentManifestHash_idx',
    'Receipt_ownerAddress_createdAt_idx',
    'Receipt_parentManifestHash_idx',
  ]);
  for (const [query, index] of QUERIES) {
    const params = Array.from({ length: (query.match(/\?/g) ?? []).length }, () => 'x');
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${query}`)
      .all(...params)
      .map((r) => (r as { detail: string }).detail)
      .join('; ');
    expect(plan, query).toContain(`INDEX ${index}`);
  }
  db.close();
});
