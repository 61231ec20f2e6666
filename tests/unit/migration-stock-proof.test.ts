/**
 * The migration that makes a stock receipt's transaction hash unique, applied the way the
 * runner applies it on SQLite (inside a transaction, foreign keys on), on a database that
 * already holds receipts: their history survives, and a transaction recorded for several plans
 * proves none of them afterwards.
 */
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '..', '..', 'prisma', 'migrations');
const names = readdirSync(dir)
  .filter((d) => /^\d{14}_/.test(d))
  .sort();
const target = names.findIndex((n) => n.endsWith('_stock_proof_and_receipt_order'));
const sql = (name: string) => readFileSync(join(dir, name, 'migration.sql'), 'utf8');

describe('migration stock_proof_and_receipt_order on SQLite with existing rows', () => {
  it('keeps every receipt event, backfills the new columns and resets a transaction shared by plans', () => {
    const db = new Database(':memory:');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    for (const name of names.slice(0, target)) db.transaction(() => db.exec(sql(name))).immediate();
    const at = '2026-01-01T00:00:00.000+00:00';
    const receipt = db.prepare(
      `INSERT INTO "StockReceipt" (id, "planHash", status, "intentJson", "generatedAt", "targetSymbol", "targetTokenAddress", "txHash", "blockNumber", version, "createdAt", "updatedAt") VALUES (?, ?, ?, '{}', ?, 'NVDA', '0x', ?, '9', 2, ?, ?)`,
    );
    receipt.run('shared-1', 'p1', 'onchain_confirmed', at, '0xdup', at, at);
    receipt.run('shared-2', 'p2', 'onchain_confirmed', at, '0xdup', at, at);
    receipt.run('alone', 'p3', 'onchain_confirmed', at, '0xalone', at, at);
    const event = db.prepare(
      `INSERT INTO "StockReceiptEvent" (id, "receiptId", seq, trigger, "toStatus", at) VALUES (?, ?, ?, 'prepare', 'prepared', ?)`,
    );
    for (const id of ['shared-1', 'shared-2', 'alone']) event.run(`e-${id}`, id, 1, at);
    db.prepare(
      `INSERT INTO "Receipt" (id, "receiptId", kind, "manifestHash", "weightsChecksum", "validationStatus", "coilSlug", "receiptJson", "createdAt") VALUES ('r', 'hrcpt_x', 'coil_manifest', 'm', 'w', 'valid', 's', '{}', ?)`,
    ).run(at);

    db.transaction(() => db.exec(sql(names[target]!))).immediate();

    const events = db.prepare('SELECT id, "receiptId", seq, reason FROM "StockReceiptEvent" ORDER BY id').all() as Array<{
      id: string;
      reason: string | null;
    }>;
    expect(events.map((e) => e.id)).toEqual([
      'e-alone',
      'e-shared-1',
      'e-shared-2',
      'migration-proof-reset-shared-1',
      'migration-proof-reset-shared-2',
    ]);
    const rows = db
      .prepare('SELECT id, status, "statusReason", "txHash", "firstPreparedAt", "createdAt" FROM "StockReceipt" ORDER BY id')
      .all() as Array<Record<string, unknown>>;
    expect(rows).toEqual([
      { id: 'alone', status: 'onchain_confirmed', statusReason: null, txHash: '0xalone', firstPreparedAt: at, createdAt: at },
      {
        id: 'shared-1',
        status: 'prepared',
        statusReason: 'PROOF_RESET_TX_SHARED_BY_PLANS',
        txHash: null,
        firstPreparedAt: at,
        createdAt: at,
      },
      {
        id: 'shared-2',
        status: 'prepared',
        statusReason: 'PROOF_RESET_TX_SHARED_BY_PLANS',
        txHash: null,
        firstPreparedAt: at,
        createdAt: at,
      },
    ]);
    expect(db.prepare('SELECT "storedAt" FROM "Receipt"').get()).toEqual({ storedAt: at });
    expect(() => db.prepare(`UPDATE "StockReceipt" SET "txHash" = '0xalone' WHERE id = 'shared-1'`).run()).toThrow(/UNIQUE/);
    db.close();
  });
});
