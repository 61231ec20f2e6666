/**
 * The service's signing key (issue 26, docs/trust-model.md#the-signing-key): where it comes
 * from, in this order:
 *
 * 1. `SVC_SIGNING_KEY`: a PKCS#8 PEM Ed25519 private key given by value (`\n` may be written
 *    as the two characters backslash and n, as env files often do);
 * 2. `SVC_SIGNING_KEY_FILE`: the path of such a PEM file;
 * 3. neither: the file `svc-signing-key.pem` beside the SQLite database (on PostgreSQL, in
 *    ./data), made on first start with mode 0600 if absent.
 *
 * Several instances that start together on one key file do not race: the file is created with
 * O_EXCL and an instance that loses reads the winner's. The key never leaves the process: it
 * is neither answered nor logged (`SVC_SIGNING_KEY` is one of the configuration's secrets,
 * scrubbed from every answer and log line like the others), and only its public half is
 * published (GET /api/receipts/keys).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ServiceConfig } from './config';
import { providerOf, sqlitePath } from './db/client';
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

/** The signer the configuration names (see the file comment for the order). */
export function loadSigner(cfg: Pick<ServiceConfig, 'signingKey' | 'signingKeyFile' | 'databaseUrl'>): Signer {
  const privateKey = cfg.signingKey
    ? privateKeyOf(cfg.signingKey, 'SVC_SIGNING_KEY')
    : cfg.signingKeyFile
      ? privateKeyOf(readFileSync(cfg.signingKeyFile, 'utf8'), 'SVC_SIGNING_KEY_FILE')
      : privateKeyOf(readOrCreateKeyFile(defaultKeyFile(cfg.databaseUrl)), 'the default signing key file');
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

const signers = new WeakMap<object, Signer>();

/** The process's signer for a configuration, loaded once. */
export function serviceSigner(cfg: ServiceConfig): Signer {
  let signer = signers.get(cfg);
  if (!signer) {
    signer = loadSigner(cfg);
    signers.set(cfg, signer);
  }
  return signer;
}
