/**
 * Where the signing key comes from (src/lib/server/signing-key.ts): by value, by file, or made
 * once beside the SQLite file; a key that is not Ed25519 or not a key at all is refused with
 * the variable's name, never its value.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKeyFile, loadSigner, SigningKeyError } from '../../src/lib/server/signing-key';

const pem = (type: 'ed25519' | 'rsa') =>
  (type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 1024 }) : generateKeyPairSync('ed25519')).privateKey
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();

describe('the signing key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-key-'));
  const databaseUrl = `file:${join(dir, 'svc.db')}`;

  it('is read from SVC_SIGNING_KEY (escaped newlines too) and from SVC_SIGNING_KEY_FILE, the same key either way', () => {
    const key = pem('ed25519');
    const file = join(dir, 'given.pem');
    writeFileSync(file, key);
    const byValue = loadSigner({ databaseUrl, signingKey: key, signingKeyFile: undefined });
    const escaped = loadSigner({ databaseUrl, signingKey: key.replaceAll('\n', '\\n'), signingKeyFile: undefined });
    const byFile = loadSigner({ databaseUrl, signingKey: undefined, signingKeyFile: file });
    expect(escaped.keyId).toBe(byValue.keyId);
    expect(byFile.keyId).toBe(byValue.keyId);
  });

  it('is made once beside the SQLite file with mode 0600 when none is configured', () => {
    const first = loadSigner({ databaseUrl, signingKey: undefined, signingKeyFile: undefined });
    const path = defaultKeyFile(databaseUrl);
    expect(path).toBe(join(dir, 'svc-signing-key.pem'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(loadSigner({ databaseUrl, signingKey: undefined, signingKeyFile: undefined }).keyId).toBe(first.keyId);
  });

  it('refuses a key that is not Ed25519, or not a key, naming the variable and never the value', () => {
    const rsa = pem('rsa');
    expect(() => loadSigner({ databaseUrl, signingKey: rsa, signingKeyFile: undefined })).toThrow(SigningKeyError);
    expect(() => loadSigner({ databaseUrl, signingKey: rsa, signingKeyFile: undefined })).toThrow('SVC_SIGNING_KEY must be an Ed25519 key');
    const junk = 'not-a-key-but-a-secret-value';
    let message = '';
    try {
      loadSigner({ databaseUrl, signingKey: junk, signingKeyFile: undefined });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('SVC_SIGNING_KEY is not a PEM private key');
  });
});
