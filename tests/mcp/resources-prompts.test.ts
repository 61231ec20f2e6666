/**
 * The MCP resources and prompts through the SDK's own `Client`, over stdio and over
 * Streamable HTTP: the canonical registry is the REST registry's JSON, the oracle policy the
 * policy svc_explain_oracle_policy answers, and the Coil and receipt schemas accept what the
 * service itself takes and issues (checked with the JSON Schema validator the SDK's client
 * uses for tool output). The "thesis to Coil" prompt checks its thesis as svc_generate_coil
 * does and refuses in the service's codes, with the invariants.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { connectHttp, connectStdio, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';
import { NOW_ISO } from '../support/tool-vectors';

let server: TestServer;
const clients: Record<'stdio' | 'http', McpTestClient> = {} as never;

beforeAll(async () => {
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  [clients.stdio, clients.http] = await Promise.all([connectStdio(server), connectHttp(server)]);
});
afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close()));
  await server?.stop();
});

const RESOURCE_URIS = [
  'svc://registry/canonical',
  'svc://oracle/policy',
  'svc://schemas/coil.schema.json',
  'svc://schemas/receipt.schema.json',
  'svc://schemas/artifact-receipt.schema.json',
];

async function readJson(client: McpTestClient, uri: string): Promise<any> {
  const { contents } = await client.client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]!.uri).toBe(uri);
  return JSON.parse((contents[0] as { text: string }).text);
}

/** A validator of the schema (the SDK client's Ajv, as for tool output; it takes no `$schema` dialect key). */
function validatorOf(schema: Record<string, unknown>) {
  const { $schema, ...rest } = schema;
  expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
  return new AjvJsonSchemaValidator().getValidator(rest);
}

describe.each(['stdio', 'http'] as const)('over %s', (door) => {
  it('initialize announces tools, resources and prompts, and names the toolset hash of GET /api/mcp/toolset', async () => {
    expect(clients[door].client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const { toolsetHash } = (await server.get('/api/mcp/toolset')).json;
    expect(clients[door].client.getServerVersion()?.description).toContain(`sha256:${toolsetHash}`);
    expect(clients[door].client.getInstructions()).toContain(`sha256:${toolsetHash}`);
    expect((await clients[door].client.listTools())._meta).toEqual({ 'svc/toolsetHash': toolsetHash });
  });

  it('lists the resources, each with a title, a description and a MIME type', async () => {
    const { resources } = await clients[door].client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(RESOURCE_URIS);
    for (const r of resources) {
      expect(r, r.uri).toMatchObject({ name: expect.any(String), title: expect.any(String), description: expect.any(String) });
      expect(['application/json', 'application/schema+json']).toContain(r.mimeType);
    }
  });

  it('the registry resource is the JSON of GET /api/stocks/registry', async () => {
    const rest = await server.get('/api/stocks/registry');
    expect(await readJson(clients[door], 'svc://registry/canonical')).toEqual(rest.json);
  });

  it('the oracle policy resource is the policy svc_explain_oracle_policy answers', async () => {
    const tool = await clients[door].call('svc_explain_oracle_policy', { nowIso: NOW_ISO });
    expect(await readJson(clients[door], 'svc://oracle/policy')).toEqual(tool.body.policy);
  });

  it('the Coil schema accepts a Coil the service validates and refuses what is no Coil', async () => {
    const validate = validatorOf(await readJson(clients[door], 'svc://schemas/coil.schema.json'));
    const coil = rawCoil();
    expect((await clients[door].call('svc_validate_coil', { coil, nowIso: NOW_ISO })).isError).toBe(false);
    expect(validate(coil).valid, validate(coil).errorMessage).toBe(true);
    expect(validate({ ...coil, assets: 'NVDA' }).valid).toBe(false);
    expect(validate({ name: 'no slug, no assets' }).valid).toBe(false);
  });

  it('the receipt schemas accept the receipts the service issues', async () => {
    const receiptValidator = validatorOf(await readJson(clients[door], 'svc://schemas/receipt.schema.json'));
    const issued = await clients[door].call('svc_create_receipt', { coil: rawCoil(), nowIso: NOW_ISO });
    expect(receiptValidator(issued.body.receipt).valid, receiptValidator(issued.body.receipt).errorMessage).toBe(true);
    expect(receiptValidator({ ...issued.body.receipt, liveOrderSent: true }).valid).toBe(false);

    const artifactValidator = validatorOf(await readJson(clients[door], 'svc://schemas/artifact-receipt.schema.json'));
    const policy = await clients[door].call('svc_explain_oracle_policy', { nowIso: NOW_ISO });
    expect(artifactValidator(policy.body.receipt).valid, artifactValidator(policy.body.receipt).errorMessage).toBe(true);
  });

  it('an unknown resource is a JSON-RPC error (-32002, the URI not echoed)', async () => {
    const error = await clients[door].client.readResource({ uri: 'svc://nothing/here-7f1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    expect((error as McpError).message).not.toContain('here-7f1');
    expect((error as McpError).data).toMatchObject({
      error: { code: 'NOT_FOUND', issues: [{ code: 'RESOURCE_UNKNOWN' }] },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
  });

  it('lists the thesis_to_coil prompt, which walks the Coil tools with the thesis and the truth rules', async () => {
    const { prompts } = await clients[door].client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'thesis_to_coil',
        title: 'Thesis to Coil',
        arguments: [expect.objectContaining({ name: 'thesis', required: true })],
      }),
    ]);
    const thesis = 'AI chips and data centers, no more than 40% in one name';
    const got = await clients[door].client.getPrompt({ name: 'thesis_to_coil', arguments: { thesis } });
    expect(got.messages).toHaveLength(1);
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(got.messages[0]!.role).toBe('user');
    expect(text).toContain(thesis);
    for (const tool of ['svc_generate_coil', 'svc_validate_coil', 'svc_score_coil', 'svc_risk_audit', 'svc_create_receipt'])
      expect(text).toContain(tool);
    expect(text).toMatch(/not investment advice/i);
    expect(text).toContain('notInvestmentAdvice: true and liveOrderSent: false');
  });

  it('refuses a blank or over-long thesis with the codes of svc_generate_coil and the invariants, and an unknown prompt', async () => {
    for (const [thesis, code] of [
      ['   ', 'PROMPT_REQUIRED'],
      ['x'.repeat(5000), 'PROMPT_TOO_LONG'],
    ] as const) {
      const error = await clients[door].client.getPrompt({ name: 'thesis_to_coil', arguments: { thesis } }).catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).data).toMatchObject({
        error: { code, issues: [{ path: 'thesis' }] },
        notInvestmentAdvice: true,
        liveOrderSent: false,
      });
      const viaTool = await clients[door].call('svc_generate_coil', { prompt: thesis, nowIso: NOW_ISO });
      expect(viaTool.body.error.code).toBe(code);
    }
    const unknown = await clients[door].client.getPrompt({ name: 'place_order' }).catch((e: unknown) => e);
    expect((unknown as McpError).code).toBe(-32602);
    expect((unknown as McpError).data).toMatchObject({
      error: { issues: [{ code: 'PROMPT_UNKNOWN' }] },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
  });

  it('refuses a credential among the prompt arguments without echoing it, and keeps serving', async () => {
    const secret = 'svc-mcp-prompt-credential-4e';
    const error = await clients[door].client
      .getPrompt({ name: 'thesis_to_coil', arguments: { thesis: 'chips', privateKey: secret } })
      .catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toMatchObject({ error: { code: 'CREDENTIAL_FIELD_REJECTED' } });
    expect(JSON.stringify((error as McpError).data) + (error as McpError).message).not.toContain(secret);
    await clients[door].client.ping();
  });
});
