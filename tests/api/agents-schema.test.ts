/**
 * The agent workflow index (`GET /api/agents/schema`) against the routes that exist: every
 * endpoint it lists is in the OpenAPI document with that method and path, and every route of
 * the workflow families is listed by some workflow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

async function openApiRoutes(): Promise<Set<string>> {
  const doc = (await server.get('/api/openapi.json')).json;
  const routes = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of METHODS) if (item[method]) routes.add(`${method.toUpperCase()} /api${path}`);
  }
  return routes;
}

interface Workflow {
  id: string;
  railId: string | null;
  endpoints: string[];
  envGates: string[];
}

describe('agent workflow index', () => {
  it('every endpoint listed in the agents schema exists in the OpenAPI document (method and path)', async () => {
    const routes = await openApiRoutes();
    expect(routes.size).toBeGreaterThan(40);
    const schema = await server.get('/api/agents/schema');
    expect(schema.status).toBe(200);
    const workflows: Workflow[] = schema.json.workflows;
    const missing: string[] = [];
    for (const w of workflows) {
      for (const endpoint of w.endpoints) {
        expect(endpoint, `${w.id}: ${endpoint}`).toMatch(/^(GET|POST) \/api\//);
        if (!routes.has(endpoint)) missing.push(`${w.id}: ${endpoint}`);
      }
      expect(new Set(w.endpoints).size, w.id).toBe(w.endpoints.length);
    }
    expect(missing).toEqual([]);
  });

  it('lists every route of the workflow families somewhere (vaults, x402, stocks, coil tooling)', async () => {
    const routes = await openApiRoutes();
    const listed = new Set(((await server.get('/api/agents/schema')).json.workflows as Workflow[]).flatMap((w) => w.endpoints));
    // Service-level routes that belong to no single agent workflow.
    const serviceLevel = new Set(['GET /api/health', 'GET /api/readiness', 'GET /api/agents/schema', 'GET /api/mcp/toolset']);
    const unlisted = [...routes].filter((r) => !listed.has(r) && !serviceLevel.has(r));
    expect(unlisted).toEqual([]);
  });

  it('places the vault family on rail A, x402 in its own workflow with gate names only, and stock receipts on rail B', async () => {
    const workflows: Workflow[] = (await server.get('/api/agents/schema')).json.workflows;
    const byId = new Map(workflows.map((w) => [w.id, w]));
    const railA = byId.get('usdg_vault_deposit')!;
    expect(railA.railId).toBe('rail_a_vault_deposit');
    for (const e of [
      'GET /api/vaults/schema',
      'POST /api/vaults/manifests/create',
      'POST /api/vaults/fees/calculate',
      'POST /api/partnerbot/vault-deposit/prepare-command',
    ]) {
      expect(railA.endpoints).toContain(e);
    }
    const x402 = byId.get('x402_paid_vault_services')!;
    expect(x402.endpoints).toContain('POST /api/vaults/x402/{serviceName}');
    expect(x402.envGates).toContain('FACILITATOR_API_KEY');
    expect(byId.get('partner_stock_token')!.endpoints).toContain('GET /api/stocks/receipts/{planHash}');
    expect(byId.get('coil_tooling')!.endpoints).toContain('GET /api/coil/provenance/{manifestHash}');
    expect(byId.get('broker_wallet_external')!.endpoints).toEqual([]);
  });

  it('points the autonomy workflow at its own routes and tools, and lists each of the 34 MCP tools where its route is', async () => {
    const schema = (await server.get('/api/agents/schema')).json;
    const workflows: Array<Workflow & { mcpTools: string[] }> = schema.workflows;
    const autonomy = workflows.find((w) => w.id === 'partner_autonomy_path')!;
    for (const route of [
      'validate-autonomy',
      'compile-broker-path',
      'generate-command-pack',
      'broker-mcp-instructions',
      'post-run-audit',
    ]) {
      expect(autonomy.endpoints).toContain(`POST /api/partnerbot/${route}`);
    }
    expect(autonomy.mcpTools.sort()).toEqual([
      'svc_compile_partnerbot_broker_path',
      'svc_generate_broker_mcp_instructions',
      'svc_generate_partnerbot_command_pack',
      'svc_post_run_audit',
      'svc_validate_autonomy_fuses',
    ]);
    expect(autonomy.endpoints).not.toContain('GET /api/x402/providers');
    const tools = new Set(workflows.flatMap((w) => w.mcpTools));
    expect(tools.size).toBe(34);
    expect(schema.mcpToolCount).toBe(34);
    expect(workflows.find((w) => w.id === 'broker_wallet_external')!.mcpTools).toEqual([]);
  });
});
