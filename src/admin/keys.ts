/**
 * `npm run keys -- <command>`: the signing keys' lifecycle, run beside the service against its
 * database (DATABASE_URL, as the service reads it; docs/trust-model.md#the-signing-key).
 *
 *   list                                        the keys with their period, status and revocation
 *   rotate [--key-file <pem>]                   a new active key from now; the one before retires
 *   revoke <keyId> --reason <text> [--at <iso>] revoke a key from --at (default now)
 *
 * `rotate` without --key-file makes the new key itself: on SQLite it replaces the key file
 * beside the database (the old file is kept as svc-signing-key.<keyId>.retired.pem), on
 * PostgreSQL without a configured key it is kept in the database. With --key-file, the key the
 * instances are about to be configured with is registered. Either way, restart the instances:
 * one that still holds the old key signs receipts that fail as outside its period. Prints JSON
 * on stdout; never prints a private key.
 */
// stdout carries the command's JSON answer only.
import '../mcp/logs-to-stderr';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '$lib/server/config';
import { readServerClock, parseIsoInstant } from '$lib/server/clock';
import { closeDb, providerOf } from '$lib/server/db/client';
import { applyMigrations } from '$lib/server/db/migrate';
import { publishedSigningKeys } from '$lib/server/db/receipt-log-repository';
import { revokeKey, rotateTo, signerOfPem, SigningKeyConflict } from '$lib/server/db/signing-key-repository';
import { defaultKeyFile, keyKeptInDatabase } from '$lib/server/signing-key';

const USAGE = 'usage: npm run keys -- list | rotate [--key-file <pem>] | revoke <keyId> --reason <text> [--at <iso>]';

class Usage extends Error {}

async function main(argv: string[]): Promise<unknown> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'key-file': { type: 'string' }, reason: { type: 'string' }, at: { type: 'string' } },
  });
  const [command, ...rest] = positionals;
  const cfg = config();
  await applyMigrations(cfg.databaseUrl, { connectTimeoutMs: cfg.databaseTimeouts.connectMs });
  const now = readServerClock();
  switch (command) {
    case 'list':
      return { keys: await publishedSigningKeys() };
    case 'rotate': {
      if (rest.length) throw new Usage(USAGE);
      if (values['key-file']) return rotateTo(readFileSync(values['key-file'], 'utf8'), now, false);
      const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      if (keyKeptInDatabase(cfg)) return rotateTo(pem, now, true);
      if (cfg.signingKey || cfg.signingKeyFile || providerOf(cfg.databaseUrl) !== 'sqlite')
        throw new Usage('the instances are configured with their key: make a new one and pass it with --key-file, then configure it');
      const file = defaultKeyFile(cfg.databaseUrl);
      const rotated = await rotateTo(pem, now, false);
      const old = signerOfPem(readFileSync(file, 'utf8'));
      renameSync(file, join(dirname(file), `svc-signing-key.${old.keyId}.retired.pem`));
      writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
      return rotated;
    }
    case 'revoke': {
      const [keyId] = rest;
      if (!keyId || rest.length > 1 || !values.reason?.trim()) throw new Usage(USAGE);
      const at = values.at === undefined ? now : parseIsoInstant(values.at);
      if (!at) throw new Usage('--at must be an ISO 8601 instant with its zone');
      await revokeKey(keyId, at, values.reason.trim());
      return { revoked: keyId, revokedAt: at.toISOString(), reason: values.reason.trim() };
    }
    default:
      throw new Usage(USAGE);
  }
}

try {
  const result = await main(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify({ ok: true, ...(result as object) }, null, 2)}\n`);
  process.exitCode = 0;
} catch (error) {
  const known = error instanceof Usage || error instanceof SigningKeyConflict;
  process.stderr.write(`${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exitCode = error instanceof Usage ? 2 : 1;
} finally {
  await closeDb();
}
