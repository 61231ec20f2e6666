/**
 * The service's signing key (issue 26, docs/trust-model.md#the-signing-key): where it comes
 * from, in this order:
 *
 * 1. `SVC_SIGNING_KEY`: a PKCS#8 PEM Ed25519 private key given by value (`\n` may be written
 *    as the two characters backslash and n, as env files often do);
 * 2. `SVC_SIGNING_KEY_FILE`: the path of such a PEM file;
 * 3. neither, on SQLite: the file `svc-signing-key.pem` beside the database, made on first
 *    start with mode 0600 if absent (instances that start together on one file do not race: it
 *    is created with O_EXCL and an instance that loses reads the winner's);
 * 4. neither, on PostgreSQL: the key kept in the database, shared by every instance, minted by
 *    the first one under an advisory lock (db/signing-key-repository.ts).
 *
 * Before the first request the instance takes its key (`readySigner`): a key the database has
 * retired or revoked, or on PostgreSQL a second key beside the active one, stops the start with
 * the reason (issue 36 item 3). The key never leaves the process: it
 * is neither answered nor logged (`SVC_SIGNING_KEY` is one of the configuration's secrets,
 * scrubbed from every answer and log line like the others), and only its public half is
 * published (GET /api/receipts/keys).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ServerTime } from './clock';
import type { ServiceConfig } from './config';
import { providerOf, sqlitePath } from './db/client';
import { forgetKeySet } from './db/receipt-log-repository';
import { takeGivenKey, takeKeptKey } from './db/signing-key-repository';
import { keyIdOf, type Signer } from './receipts/signature';

export const DEFAULT_KEY_FILE_NAME = 'svc-signing-key.pem';

/** Where the key file is when no key is configured: beside the SQLite file, or ./data on PostgreSQL. */
export function defaultKeyFile(databaseUrl: string): string {
  return providerOf(databaseUrl) === 'postgresql'
    ? resolve('data', DEFAULT_KEY_FILE_NAME)
    : join(dirname(resolve(sqlitePath(databaseUrl))), DEFAULT_KEY_FILE_NAME);
}

/** A configuration error that names the variable, never its value. */
export class SigningKeyError extends Error {}

function privateKeyOf(pem: string, source: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem, format: 'pem' });
  } catch {
    throw new SigningKeyError(`${source} is not a PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${source} must be an Ed25519 key`);
  return key;
}

function readOrCreateKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    writeFileSync(path, pem, { flag: 'wx', mode: 0o600 });
    return pem;
  } catch (error) {
    // Another instance made it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8');
    throw error;
  }
}

type KeyConfig = Pick<ServiceConfig, 'signingKey' | 'signingKeyFile' | 'databaseUrl'>;

/** Whether the key is kept in the database: PostgreSQL without a configured key. */
export function keyKeptInDatabase(cfg: KeyConfig): boolean {
  return !cfg.signingKey && !cfg.signingKeyFile && providerOf(cfg.databaseUrl) === 'postgresql';
}

/** The signer the configuration names (see the file comment for the order; not the key kept in a PostgreSQL database). */
export function loadSigner(cfg: KeyConfig): Signer {
  const privateKey = cfg.signingKey
    ? privateKeyOf(cfg.signingKey, 'SVC_SIGNING_KEY')
    : cfg.signingKeyFile
      ? privateKeyOf(readFileSync(cfg.signingKeyFile, 'utf8'), 'SVC_SIGNING_KEY_FILE')
      : privateKeyOf(readOrCreateKeyFile(defaultKeyFile(cfg.databaseUrl)), 'the default signing key file');
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

const signers = new WeakMap<object, Signer>();
const ready = new WeakMap<object, Promise<Signer>>();

/** The key file an instance on PostgreSQL used before keys were kept in the database, if it is there. */
function legacyPostgresKeyFile(cfg: KeyConfig): string | undefined {
  try {
    return readFileSync(defaultKeyFile(cfg.databaseUrl), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The instance's signer, taken once per configuration against the database's key set (see the
 * file comment): throws `SigningKeyConflict` with the reason when this instance must not sign.
 */
export function readySigner(cfg: ServiceConfig, at: ServerTime): Promise<Signer> {
  let taking = ready.get(cfg);
  if (!taking) {
    taking = (async () => {
      let signer: Signer;
      if (keyKeptInDatabase(cfg)) signer = await takeKeptKey(at, legacyPostgresKeyFile(cfg));
      else {
        signer = loadSigner(cfg);
        await takeGivenKey(signer, at, { shared: providerOf(cfg.databaseUrl) === 'postgresql' });
      }
      signers.set(cfg, signer);
      forgetKeySet();
      return signer;
    })();
    taking.catch(() => ready.delete(cfg));
    ready.set(cfg, taking);
  }
  return taking;
}

/**
 * The process's signer for a configuration: the one `readySigner` took at start. Before that
 * (a server-side caller in a test that skipped the start), the configured key or the key file,
 * loaded once; a key kept in a PostgreSQL database is only ever taken by `readySigner`.
 */
export function serviceSigner(cfg: ServiceConfig): Signer {
  let signer = signers.get(cfg);
  if (!signer) {
    if (keyKeptInDatabase(cfg)) throw new SigningKeyError('the signing key kept in the database has not been taken yet');
    signer = loadSigner(cfg);
    signers.set(cfg, signer);
  }
  return signer;
}
