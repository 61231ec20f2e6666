/**
 * Interface 1: tool payloads carry `notInvestmentAdvice: true` and `liveOrderSent: false`
 * on every payload, errors included. Walks every one of the 34 tools with two failing
 * inputs (a malformed `nowIso`, refused by the procedure-call layer, and a credential field,
 * refused before the procedure) over stdio, over Streamable HTTP and on its REST route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/lib/server/registry/agents';
import { toolProcedures } from '../../src/lib/server/trpc/mcp-tools';
import '../../src/lib/server/trpc/router';
import { connectHttp, connectStdio, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';
import { makeFixtures, restCall, TOOL_INPUTS, type ToolFixtures } from '../support/tool-vectors';

let server: TestServer;
let stdio: McpTestClient;
let http: McpTestClient;
let fixtures: ToolFixtures;
const endpointOf = new Map(toolProcedures().map((t) => [t.tool, t.endpoint!]));

beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
  [stdio, http] = await Promise.all([connectStdio(server), connectHttp(server)]);
  fixtures = await makeFixtures(server);
});
afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await server?.stop();
});

const FAILING_INPUTS: { name: string; code: string; input: (valid: Record<string, unknown>) => Record<string, unknown> }[] = [
  { name: 'a malformed nowIso', code: 'NOW_ISO_INVALID', input: (valid) => ({ ...valid, nowIso: 'not a time' }) },
  { name: 'a credential field', code: 'CREDENTIAL_FIELD_REJECTED', input: (valid) => ({ ...valid, apiKey: 'svc-invariants-test-key' }) },
];

describe('every tool error carries the invariants', () => {
  for (const failing of FAILING_INPUTS) {
    it(`with ${failing.name}: over stdio, over HTTP and on the REST route`, async () => {
      const missing: string[] = [];
      for (const name of MCP_TOOL_NAMES) {
        const input = failing.input(TOOL_INPUTS[name](fixtures));
        const answers = {
          stdio: (await stdio.call(name, input)).body,
          http: (await http.call(name, input)).body,
          rest: (await restCall(server, endpointOf.get(name)!, input)).json,
        };
        for (const [door, body] of Object.entries(answers)) {
          expect(body?.error?.code, `${name} ${door}`).toBe(failing.code);
          if (body.notInvestmentAdvice !== true || body.liveOrderSent !== false) missing.push(`${name} (${door})`);
        }
      }
      expect(missing).toEqual([]);
    });
  }
});
