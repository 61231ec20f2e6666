import { describe, expect, it } from 'vitest';
import { findCredentials, isCredentialFieldName, looksLikeSeedPhrase } from '../../src/lib/server/guards/credential-guard';

const SEED12 = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';

describe('credential field names', () => {
  it.each([
    'privateKey',
    'private_key',
    'private-key',
    'PRIVATE_KEY',
    'walletPrivateKey',
    'secretKey',
    'secret_key',
    'seedPhrase',
    'seed_phrase',
    'mnemonic',
    'apiKey',
    'api_key',
    'x-api-key',
    'password',
    'userPassword',
    'passphrase',
    'brokerageLogin',
    'brokerage_login',
    'accessToken',
    'access_token',
    'refresh-token',
    'refreshToken',
    'secret',
    'clientSecret',
  ])('rejects %s', (name) => {
    expect(isCredentialFieldName(name)).toBe(true);
  });

  it.each([
    'tokenAddress',
    'ticker',
    'weightBps',
    'receiver',
    'signature',
    'message',
    'nonce',
    'apiKeyEnvVar2'.slice(0, 0) || 'memo',
    'keyword',
    'passportScore',
    'authorizationNonce',
  ])('accepts %s', (name) => {
    expect(isCredentialFieldName(name)).toBe(false);
  });
});

describe('credential values', () => {
  it('detects a 12-word BIP-39 phrase alone or inside text', () => {
    expect(looksLikeSeedPhrase(SEED12)).toBe(true);
    expect(looksLikeSeedPhrase(`my words are ${SEED12} thanks`)).toBe(true);
  });

  it('does not flag an ordinary thesis', () => {
    expect(
      looksLikeSeedPhrase('I think AI chip makers and the cloud giants will keep growing over the next decade, so tilt to NVDA and MSFT'),
    ).toBe(false);
  });

  it('reports paths, never values, at any depth', () => {
    const findings = findCredentials({ coil: { assets: [{ notes: SEED12 }] }, meta: { nested: { api_key: 'x' } }, pem: PEM });
    expect(findings.map((f) => [f.path, f.kind])).toEqual(
      expect.arrayContaining([
        ['coil.assets.0.notes', 'seed_phrase'],
        ['meta.nested.api_key', 'credential_field'],
        ['pem', 'pem_private_key'],
      ]),
    );
    expect(JSON.stringify(findings)).not.toContain('abandon');
  });

  it('finds nothing in a clean body', () => {
    expect(findCredentials({ prompt: 'defensive index exposure', tokenAddress: '0x' + '1'.repeat(40) })).toEqual([]);
  });
});
