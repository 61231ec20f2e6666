/**
 * The key set signature checks read (db/receipt-log-repository.ts `signingKeysToCheck`): a set
 * read a moment ago serves the next checks instead of a query per verification (issue 27), but
 * a key id the kept set lacks is always read again, and the published set is always the
 * database's own.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readServerClock } from '../../src/lib/server/clock';
import { publishedKey } from '../../src/lib/server/receipts/signature';
import { loadSigner } from '../../src/lib/server/signing-key';

const dir = mkdtempSync(join(tmpdir(), 'svc-key-set-'));
const url = `file:${join(dir, 'svc.db')}`;

beforeAll(async () => {
  process.env.DATABASE_URL = url;
  const { applyMigrations } = await import('../../src/lib/server/db/migrate');
  await applyMigrations(url);
});
afterAll(async () => {
  const { closeDb } = await import('../../src/lib/server/db/client');
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

/** A key another instance registers straight in the table, as its own registration would. */
async function registeredElsewhere(): Promise<string> {
  const { getDb } = await import('../../src/lib/server/db/client');
  const key = publishedKey(generateKeyPairSync('ed25519').publicKey, new Date().toISOString(), null);
  await getDb().signingKey.create({ data: { keyId: key.kid, algorithm: 'Ed25519', publicKey: key.x, validFrom: new Date() } });
  return key.kid;
}

it('reuses a recent read for a key it holds, reads again for a key it lacks, and publishes what the table holds', async () => {
  const repository = await import('../../src/lib/server/db/receipt-log-repository');
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const own = loadSigner({ databaseUrl: url, signingKey: pem, signingKeyFile: undefined });
  await (await import('../../src/lib/server/db/signing-key-repository')).takeGivenKey(own, readServerClock(), { shared: false });
  expect((await repository.signingKeysToCheck(own.keyId)).map((k) => k.kid)).toEqual([own.keyId]);

  const other = await registeredElsewhere();
  // The set read a moment ago still serves a check by the key it holds...
  expect((await repository.signingKeysToCheck(own.keyId)).map((k) => k.kid)).toEqual([own.keyId]);
  expect((await repository.signingKeysToCheck(null)).map((k) => k.kid)).toEqual([own.keyId]);
  // ...but a receipt by a key it does not hold is checked against the table's set now.
  expect((await repository.signingKeysToCheck(other)).map((k) => k.kid)).toEqual([own.keyId, other]);

  const third = await registeredElsewhere();
  expect((await repository.publishedSigningKeys()).map((k) => k.kid)).toEqual([own.keyId, other, third]);
});

it('reads again once the kept set is older than a second', async () => {
  const repository = await import('../../src/lib/server/db/receipt-log-repository');
  const before = (await repository.signingKeysToCheck(null)).length;
  await registeredElsewhere();
  expect((await repository.signingKeysToCheck(null)).length).toBe(before);
  await new Promise((r) => setTimeout(r, 1_100));
  expect((await repository.signingKeysToCheck(null)).length).toBe(before + 1);
});
