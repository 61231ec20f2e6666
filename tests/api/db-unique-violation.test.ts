/**
 * `isUniqueViolation` against real unique violations of both databases: a duplicate primary
 * key, a duplicate compound key, an update into a taken unique column, a duplicate inside a
 * transaction and a raw insert; and a database error that is not one. The PostgreSQL case is
 * @persistence (TEST_DATABASE_URL, else the loopback PostgreSQL; under CI=true it must run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../src/lib/server/db/migrate';
import { isUniqueViolation } from '../../src/lib/server/db/unique-violation';
import { openTestDb, type TestDb } from '../support/db';
import { postgresReachable, postgresUrl, requireService } from '../support/services';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function errorOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('the write succeeded: no error to classify');
}

const at = new Date('2026-11-22T10:00:00.000Z');

function stockReceipt(id: string, txHash: string | null) {
  return {
    id,
    planHash: `plan-${id}`,
    status: 'prepared',
    intentJson: '{}',
    generatedAt: at,
    targetSymbol: 'NVDA',
    targetTokenAddress: '0x0',
    txHash,
    firstPreparedAt: at,
    version: 0,
    createdAt: at,
    updatedAt: at,
  };
}

async function exercise(db: TestDb): Promise<void> {
  const nonce = { nonce: 'n-1', createdAt: at, expiresAt: at };
  await db.authNonce.create({ data: nonce });
  expect(isUniqueViolation(await errorOf(() => db.authNonce.create({ data: nonce }))), 'duplicate primary key').toBe(true);
  expect(isUniqueViolation(await errorOf(() => db.$transaction([db.authNonce.create({ data: nonce })]))), 'in a batch transaction').toBe(
    true,
  );
  expect(
    isUniqueViolation(await errorOf(() => db.$transaction((tx) => tx.authNonce.create({ data: nonce })))),
    'in an interactive transaction',
  ).toBe(true);
  expect(
    isUniqueViolation(
      await errorOf(() =>
        db.$executeRawUnsafe(`INSERT INTO "AuthNonce" ("nonce", "createdAt", "expiresAt") VALUES ('n-1', '2026-11-22', '2026-11-22')`),
      ),
    ),
    'raw insert',
  ).toBe(true);

  const authorization = {
    id: 'xauth_1',
    network: 'eip155:4663',
    asset: '0xa',
    payer: '0xb',
    nonce: '0xc',
    serviceName: 's',
    amountUnits: '1',
    payTo: '0xd',
    x402Version: 2,
    status: 'settling',
    createdAt: at,
    updatedAt: at,
  };
  await db.x402Authorization.create({ data: authorization });
  expect(
    isUniqueViolation(await errorOf(() => db.x402Authorization.create({ data: { ...authorization, id: 'xauth_2' } }))),
    'duplicate compound key',
  ).toBe(true);

  await db.stockReceipt.create({ data: stockReceipt('r1', '0xproof') });
  await db.stockReceipt.create({ data: stockReceipt('r2', null) });
  expect(
    isUniqueViolation(await errorOf(() => db.stockReceipt.update({ where: { id: 'r2' }, data: { txHash: '0xproof' } }))),
    'update into a taken unique column',
  ).toBe(true);

  expect(
    isUniqueViolation(await errorOf(() => db.stockReceipt.update({ where: { id: 'missing' }, data: { status: 'x' } }))),
    'a missing row is not a unique violation',
  ).toBe(false);
  expect(
    isUniqueViolation(
      await errorOf(() =>
        db.stockReceiptEvent.create({ data: { id: 'e1', receiptId: 'no-such-receipt', seq: 0, trigger: 't', toStatus: 's', at } }),
      ),
    ),
    'a foreign-key violation is not a unique violation',
  ).toBe(false);
  expect(isUniqueViolation(new Error('Unique constraint failed on the fields: (`nonce`)')), 'message text alone decides nothing').toBe(
    false,
  );
  expect(isUniqueViolation(null)).toBe(false);
}

describe('unique violations', () => {
  it('are recognised on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-unique-'));
    const url = `file:${join(dir, 'svc.db')}`;
    await applyMigrations(url);
    const db = openTestDb(url);
    cleanups.push(async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    });
    await exercise(db);
  });

  it('@persistence are recognised on PostgreSQL', async (ctx) => {
    const skip = await requireService(`PostgreSQL (${postgresUrl()})`, postgresReachable);
    if (skip) return ctx.skip();
    const base = postgresUrl();
    const name = `svc_unique_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    await applyMigrations(url.toString());
    const db = openTestDb(url.toString());
    cleanups.push(async () => {
      await db.$disconnect();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    });
    await exercise(db);
  });
});
