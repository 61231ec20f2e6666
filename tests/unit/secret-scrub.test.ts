import { describe, expect, it } from 'vitest';
import { loadConfig, secretValues } from '../../src/lib/server/config';
import { containsSecret, scrubSecrets } from '../../src/lib/server/guards/secret-scrub';

describe('secret scrub', () => {
  it('finds and removes raw and JSON-escaped secrets', () => {
    const secret = 'http://user:p"ss@rpc.example/key';
    const json = JSON.stringify({ url: secret });
    expect(containsSecret(json, [secret])).toBe(true);
    expect(scrubSecrets(json, [secret])).not.toContain('p\\"ss');
    expect(scrubSecrets(`x ${secret} y`, [secret])).toBe('x [redacted] y');
  });

  it('lists the four server-only values from configuration', () => {
    const cfg = loadConfig({
      PARTNER_API_KEY: 'partner-key-123',
      FACILITATOR_API_KEY: 'facilitator-key-1',
      BROKER_CHAIN_RPC_URL: 'http://127.0.0.1:8545/x',
    });
    expect(secretValues(cfg)).toEqual(expect.arrayContaining(['partner-key-123', 'facilitator-key-1', 'http://127.0.0.1:8545/x']));
  });

  it('lists the Redis and database URLs whole, any configured URL that carries credentials, and each password alone', () => {
    const cfg = loadConfig({
      REDIS_URL: 'redis://:redis-pass-1@127.0.0.1:6379/0',
      DATABASE_URL: 'postgresql://svc:db-pass%2F1@127.0.0.1:5432/svc',
      PARTNER_API_URL: 'https://agent:partner-pass-1@partner.example/api',
      FACILITATOR_URL: 'https://facilitator.example',
    });
    expect(secretValues(cfg)).toEqual(
      expect.arrayContaining([
        'redis://:redis-pass-1@127.0.0.1:6379/0',
        'redis-pass-1',
        'postgresql://svc:db-pass%2F1@127.0.0.1:5432/svc',
        'db-pass/1',
        'https://agent:partner-pass-1@partner.example/api',
        'partner-pass-1',
      ]),
    );
    // A URL without credentials is not a secret: the partner's address may appear in a pack.
    expect(secretValues(cfg)).not.toContain('https://facilitator.example');
    expect(secretValues(loadConfig({ PARTNER_API_URL: 'https://partner.example/api' }))).not.toContain('https://partner.example/api');
  });

  it('rejects malformed numeric configuration instead of guessing', () => {
    expect(() => loadConfig({ RATE_LIMIT_MAX: 'ten' })).toThrow();
    expect(loadConfig({}).rateLimit).toEqual({ max: 30, windowSeconds: 300, namespace: 'default' });
  });
});
