/**
 * The vault family and the x402 family state the same facts the same way: the architecture
 * object of spec 2.11 is one object in both schemas.
 */
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

const FACILITATOR_ADDRESS = getAddress('0x000000000000000000000000000000000000fac1');
const NOW = '2026-11-22T10:00:00.000Z';

let plain: TestServer;
let withAddress: TestServer;

beforeAll(async () => {
  [plain, withAddress] = await Promise.all([
    startServer({ allowPostgres: false }),
    // A lower-case address: both schemas must show the same checksummed form.
    startServer({ allowPostgres: false, env: { FACILITATOR_ADDRESS: FACILITATOR_ADDRESS.toLowerCase() } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), withAddress?.stop()]);
});

describe('architecture object (spec 2.11)', () => {
  it('is value by value the same object in GET /api/x402/schema and GET /api/vaults/schema', async () => {
    for (const server of [plain, withAddress]) {
      const x402 = await server.get(`/api/x402/schema?nowIso=${NOW}`);
      const vaults = await server.get(`/api/vaults/schema?nowIso=${NOW}`);
      expect(x402.status).toBe(200);
      expect(vaults.status).toBe(200);
      expect(vaults.json.architecture).toEqual(x402.json.architecture);
      expect(JSON.stringify(vaults.json.architecture)).toBe(JSON.stringify(x402.json.architecture));
    }
    expect((await plain.get('/api/vaults/schema')).json.architecture.x402Providers.facilitator.facilitator).toBeNull();
    expect((await withAddress.get('/api/vaults/schema')).json.architecture.x402Providers.facilitator.facilitator).toBe(FACILITATOR_ADDRESS);
  });
});
