/**
 * The vault and partner-rail routes behind the MCP tools through the real server: only what
 * crosses HTTP. Their logic (commands, previews, plans, claims, audits, the oracle policy,
 * artifact receipts) is tested in process, in tests/inproc/partner-rails.test.ts, and their
 * shared HTTP behaviour in tests/api/new-routes-http.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { intent } from '../support/stock-intents';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

describe('partner rails over HTTP', () => {
  it('a refusal is the stamped envelope with its status', async () => {
    const noVenue = await server.post('/api/vaults/partner-rebalance/prepare', { intent: intent({ mode: 'vault_operator_rebalance' }) });
    expect(noVenue.status).toBe(422);
    expect(noVenue.json).toMatchObject({ error: { code: 'STOCK_INTENT_INVALID' }, notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('an artifact sent back whole to be verified names a setting (apiKeyEnvVar): refused as a credential field before any procedure runs', async () => {
    const res = await server.post('/api/receipts/verify', {
      receipt: {},
      subject: { commandPack: { agentApi: { apiKeyEnvVar: 'PARTNER_API_KEY' } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('CREDENTIAL_FIELD_REJECTED');
  });
});
