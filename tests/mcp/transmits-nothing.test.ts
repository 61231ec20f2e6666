/**
 * Interface 4.9: the MCP tools transmit nothing. With the partner lane, the partner
 * strategist, Mode B and the facilitator lane all configured (so REST would talk to the fake
 * partner), every one of the 34 tools is called over stdio and over Streamable HTTP, and
 * neither the fake partner nor the fake facilitator receives a single request.
 * `svc_generate_coil` answers with the local strategist and says why in `providerMeta`.
 */
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { MCP_TOOL_NAMES } from '../../src/lib/server/registry/agents';
import { FakeFacilitator } from '../support/fake-facilitator';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { connectHttp, connectStdio, type McpTestClient } from '../support/mcp';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { makeFixtures, TOOL_INPUTS, type ToolFixtures } from '../support/tool-vectors';

const partnerKey = secretMarker('PARTNER_API_KEY');
const facilitatorKey = secretMarker('FACILITATOR_API_KEY');

let partner: FakePartner;
let facilitator: FakeFacilitator;
let server: TestServer;
let stdio: McpTestClient;
let http: McpTestClient;
let fixtures: ToolFixtures;

beforeAll(async () => {
  partner = await startFakePartner({ apiKey: partnerKey });
  facilitator = await new FakeFacilitator({
    apiKey: facilitatorKey,
    orgPayTo: getAddress('0x00000000000000000000000000000000000a11ce'),
  }).start();
  server = await startServer({
    allowPostgres: false,
    env: {
      STRATEGIST_PROVIDER: 'partner',
      PARTNER_API_URL: partner.url,
      PARTNER_API_KEY: partnerKey,
      PARTNER_AGENT_API_ENABLED: 'true',
      PARTNER_TIMEOUT_MS: '2000',
      PARTNERBOT_DEPOSIT_EXECUTION_ENABLED: 'true',
      OWNER_APPROVED_PARTNER_WALLET_DEPOSIT: 'true',
      PARTNER_WALLET_ADDRESS: getAddress('0x00000000000000000000000000000000000b0b01'),
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_API_KEY: facilitatorKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_PAYTO_ADDRESS: getAddress('0x00000000000000000000000000000000000a11ce'),
      FACILITATOR_ADDRESS: getAddress('0x000000000000000000000000000000000000fac1'),
      FACILITATOR_NETWORK: 'broker',
      FACILITATOR_CHAIN_ID: '4663',
      FACILITATOR_USDG_ADDRESS: USDG.address,
    },
  });
  [stdio, http] = await Promise.all([connectStdio(server), connectHttp(server)]);
  fixtures = await makeFixtures(server);
});
afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await server?.stop();
  await Promise.all([partner?.stop(), facilitator?.stop()]);
});

describe('over MCP, no tool sends anything to an outside party', () => {
  for (const door of ['stdio', 'http'] as const) {
    it(`every tool over ${door}: the fake partner and the fake facilitator receive nothing`, async () => {
      const client = door === 'stdio' ? stdio : http;
      partner.requests.length = 0;
      facilitator.requests.length = 0;
      for (const name of MCP_TOOL_NAMES) await client.call(name, TOOL_INPUTS[name](fixtures));
      expect(partner.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(facilitator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    });
  }

  it('svc_generate_coil answers with the local strategist, labelled, while REST asks the partner', async () => {
    partner.requests.length = 0;
    const input = TOOL_INPUTS.svc_generate_coil(fixtures);
    for (const client of [stdio, http]) {
      const answer = await client.call('svc_generate_coil', input);
      expect(answer.isError, answer.text.slice(0, 300)).toBe(false);
      expect(answer.body.providerMeta).toEqual({
        provider: 'mock',
        requested: 'partner',
        usedFallback: true,
        fallbackReason: expect.stringMatching(/^MCP_TRANSMITS_NOTHING: /),
      });
      expect(answer.body.coil.assets.length).toBeGreaterThan(0);
    }
    expect(partner.requests).toEqual([]);

    // The same configuration does reach the partner over REST: the lane is really on.
    await server.post('/api/tools/generate-coil', input);
    expect(partner.submissions().length).toBeGreaterThan(0);
  });
});
