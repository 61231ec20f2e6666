/**
 * The 34 MCP tools over stdio, through the SDK's own `Client` talking to the built
 * `npm run mcp` entry, on the same database as a running REST server: each tool answers
 * exactly what its REST route answers for the same input and `nowIso`; the tool list is the
 * 34 names with both schemas, pinned by a hash; credential fields, wrong shapes and echoed
 * execution-claim text are refused or answered as REST does, and the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES, type McpToolName } from '../../src/lib/server/registry/agents';
import { TOOLSET_HASH_META_KEY, toolsetHashOf } from '../../src/lib/server/trpc/mcp-toolset';
import { toolProcedures } from '../../src/lib/server/trpc/mcp-tools';
import '../../src/lib/server/trpc/router';
import { rawCoil } from '../support/coils';
import { connectStdio, withSignatureTimesMasked, type McpTestClient, type ToolAnswer } from '../support/mcp';
import { startServer, type ApiResponse, type TestServer } from '../support/server';
import { freshNowIso, intent } from '../support/stock-intents';
import { makeFixtures, NOW_ISO, restCall, TOOL_INPUTS, type ToolFixtures } from '../support/tool-vectors';

/**
 * The toolset hash (`toolsetHashOf`: sha256 of the canonical JSON of the tools/list entries,
 * every name, title, description, schema and annotation). A tool, a name, a description, a
 * schema or an annotation that changes changes it: check the change is meant (the tools are
 * a public interface, interface 4.9), then put the new value here.
 */
const TOOL_LIST_HASH = 'b89b29a26ef89f26bce16a8398edc06e08eebc95a19552c1cb7bfbc0610667f1';

let server: TestServer;
let mcp: McpTestClient;
let fixtures: ToolFixtures;
const endpointOf = new Map(toolProcedures().map((t) => [t.tool, t.endpoint!]));

/**
 * Tools this test server refuses for the vector's input, with the REST status: no partner
 * lane, no chain node, a bare receipt. The tool refuses the same way (compared below).
 */
const REFUSED: Partial<Record<McpToolName, number>> = {
  // The vault's public deposit gate cannot be read open without a chain node.
  svc_generate_vault_deposit_intent: 409,
  // Gate 1: PARTNER_AGENT_API_ENABLED and PARTNER_API_KEY are not set (stdio.test.ts sets them).
  svc_submit_partner_stock_token_intent: 503,
};

beforeAll(async () => {
  // The local strategist on both doors: over MCP svc_generate_coil never asks the partner
  // whatever is configured (transmits-nothing.test.ts), so REST must not either to answer alike.
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  mcp = await connectStdio(server);
  fixtures = await makeFixtures(server);
});
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
  const logs = mcp?.stderr.join('\n') ?? '';
  for (const secret of server?.secrets() ?? []) expect(logs).not.toContain(secret);
});

/** The tool's answer as the REST route would have written it. */
function expectSameAnswer(tool: ToolAnswer, rest: ApiResponse, name: string): void {
  if (rest.status === 200) {
    expect(tool.isError, `${name}: ${tool.text.slice(0, 300)}`).toBe(false);
    expect(withSignatureTimesMasked(tool.body), name).toEqual(withSignatureTimesMasked(rest.json));
    expect(withSignatureTimesMasked(JSON.parse(tool.text)), `${name} text content`).toEqual(withSignatureTimesMasked(rest.json));
  } else {
    expect(tool.isError, `${name} (REST ${rest.status})`).toBe(true);
    expect(tool.body, name).toEqual(rest.json);
    expect(tool.raw.structuredContent, name).toBeUndefined();
  }
}

describe('each tool over stdio answers what its REST route answers', () => {
  it.each([...MCP_TOOL_NAMES])('%s', async (name) => {
    const input = TOOL_INPUTS[name](fixtures);
    const rest = await restCall(server, endpointOf.get(name)!, input);
    const tool = await mcp.call(name, input);
    expect(rest.status, name).toBe(REFUSED[name] ?? 200);
    expectSameAnswer(tool, rest, name);
    if (!tool.isError) expect(tool.body, name).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });
});

describe('svc_generate_coil takes the corrections of a reading (issue 33)', () => {
  it('answers what REST answers for the same thesis, corrections and nowIso, and the reading names each cause', async () => {
    const input = {
      prompt: 'Sell Coinbase, rotate into Palantir and AMD',
      corrections: { included: ['COIN'], excluded: ['AMD'], pinned: [{ ticker: 'PLTR', bps: 2500 }] },
      nowIso: NOW_ISO,
    };
    const rest = await restCall(server, endpointOf.get('svc_generate_coil')!, input);
    const tool = await mcp.call('svc_generate_coil', input);
    expect(rest.status).toBe(200);
    expectSameAnswer(tool, rest, 'svc_generate_coil');
    const body = tool.body as { coil: { assets: Array<{ ticker: string; weightBps: number }> }; reading: Record<string, unknown> };
    expect(Object.fromEntries(body.coil.assets.map((a) => [a.ticker, a.weightBps]))).toMatchObject({
      PLTR: 2500,
      COIN: expect.any(Number),
    });
    expect(body.coil.assets.map((a) => a.ticker)).not.toContain('AMD');
    expect(body.reading.excluded).toContainEqual({ ticker: 'AMD', because: 'excluded by a correction', source: 'correction' });
    const bad = await mcp.call('svc_generate_coil', { ...input, corrections: { excluded: ['amd'] } });
    expect(bad.isError).toBe(true);
  });
});

describe('tools/list', () => {
  it('lists exactly the 34 tools, each with an input and an output schema that states the invariants', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(Object.keys(t.outputSchema?.properties ?? {}), t.name).toEqual(
        expect.arrayContaining(['notInvestmentAdvice', 'liveOrderSent']),
      );
    }
    // The broker-wallet boundary has no tools.
    expect(tools.filter((t) => /broker_wallet|rail_c/.test(t.name))).toEqual([]);
  });

  it('has no JSON-schema `type` array in any input or output schema (an anyOf of single types instead)', async () => {
    // Clients whose schema dialect takes one type per schema (the MCP Inspector's strict
    // check) cannot read `type: ["string", "null"]`; the 1.0.3 Inspector CLI has no such check.
    const { tools } = await mcp.client.listTools();
    const typeArrays: string[] = [];
    let nullable = 0;
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.type)) typeArrays.push(path);
      if (Array.isArray(record.anyOf) && record.anyOf.some((alt) => (alt as { type?: unknown }).type === 'null')) nullable++;
      for (const [key, value] of Object.entries(record)) walk(value, `${path}.${key}`);
    };
    for (const t of tools) {
      walk(t.inputSchema, `${t.name}.inputSchema`);
      walk(t.outputSchema, `${t.name}.outputSchema`);
    }
    expect(typeArrays).toEqual([]);
    // The nullable fields are still nullable, as an anyOf.
    expect(nullable).toBeGreaterThan(0);
  });

  it('matches the pinned toolset hash, which the server names in its info, its instructions, tools/list and GET /api/mcp/toolset', async () => {
    const listed = await mcp.client.listTools();
    const hash = toolsetHashOf(listed.tools);
    expect(hash).toBe(TOOL_LIST_HASH);
    expect(listed._meta?.[TOOLSET_HASH_META_KEY]).toBe(hash);
    expect(mcp.client.getServerVersion()).toMatchObject({
      name: 'strategy-basket-service',
      description: expect.stringContaining(`sha256:${hash}`),
    });
    expect(mcp.client.getInstructions()).toContain(`sha256:${hash}`);
    const route = await server.get('/api/mcp/toolset');
    expect(route.status).toBe(200);
    expect(route.json).toMatchObject({ toolsetHash: hash, hashAlgorithm: 'sha256-jcs', toolCount: 34 });
    expect(route.json.tools).toEqual(
      listed.tools.map((t) => ({
        name: t.name,
        title: t.title,
        annotations: {
          readOnlyHint: t.annotations!.readOnlyHint,
          destructiveHint: t.annotations!.destructiveHint,
          idempotentHint: t.annotations!.idempotentHint,
          openWorldHint: t.annotations!.openWorldHint,
        },
      })),
    );
  });
});

describe('one database behind both doors', () => {
  it('a stock receipt prepared through a tool is read through REST, and one prepared through REST is reconciled through a tool', async () => {
    const viaTool = await mcp.call('svc_prepare_partner_stock_token_trade', { intent: intent(), nowIso: freshNowIso() });
    expect(viaTool.isError).toBe(false);
    const read = await server.get(`/api/stocks/receipts/${viaTool.body.planHash}`);
    expect(read.status).toBe(200);
    expect(read.json.receipt).toMatchObject({ receiptId: viaTool.body.receipt.receiptId, status: 'prepared' });

    const viaRest = await server.post('/api/stocks/prepare-partner-command', { intent: intent(), nowIso: freshNowIso() });
    expect(viaRest.status).toBe(200);
    const reconciled = await mcp.call('svc_reconcile_partner_stock_token_job', { planHash: viaRest.json.planHash });
    expect(reconciled.isError).toBe(false);
    expect(reconciled.body.receipt).toMatchObject({ receiptId: viaRest.json.receipt.receiptId, planHash: viaRest.json.planHash });

    // Neither door invents a receipt nobody prepared.
    const nobody = { planHash: 'e'.repeat(64) };
    const [restMissing, toolMissing] = await Promise.all([
      server.post('/api/stocks/reconcile-receipt', nobody),
      mcp.call('svc_reconcile_partner_stock_token_job', nobody),
    ]);
    expect(restMissing.status).toBe(404);
    expectSameAnswer(toolMissing, restMissing, 'unknown plan');
  });
});

describe('one database behind both doors: Coil lineage', () => {
  it('a Coil receipted through a tool is the parent REST resolves for a fork, and the other way round', async () => {
    const parentSlug = `mcp-parent-${Date.now().toString(36)}`;
    const parent = await mcp.call('svc_create_receipt', { coil: rawCoil({ slug: parentSlug }), nowIso: NOW_ISO });
    expect(parent.isError).toBe(false);
    const fork = await server.post('/api/tools/validate-coil', {
      coil: rawCoil({ slug: `${parentSlug}-fork`, forkOf: parentSlug }),
      nowIso: NOW_ISO,
    });
    expect(fork.status).toBe(200);
    expect(fork.json.receipt.parentManifestHash).toBe(parent.body.receipt.manifestHash);

    const restSlug = `rest-parent-${Date.now().toString(36)}`;
    const restParent = await server.post('/api/tools/receipt', { coil: rawCoil({ slug: restSlug }), nowIso: NOW_ISO });
    const toolFork = await mcp.call('svc_score_coil', { coil: rawCoil({ slug: `${restSlug}-fork`, forkOf: restSlug }), nowIso: NOW_ISO });
    expect(toolFork.isError).toBe(false);
    expect(toolFork.body.receipt.parentManifestHash).toBe(restParent.json.receipt.manifestHash);
  });

  it('an MCP tool call keeps its receipt and logs it only when asked: svc_create_receipt is logged, svc_score_coil is not', async () => {
    const slug = `mcp-log-${Date.now().toString(36)}`;
    const asked = await mcp.call('svc_create_receipt', { coil: rawCoil({ slug }), nowIso: NOW_ISO });
    expect(asked.body.receiptLog).toMatchObject({ logged: true, reason: 'explicit_receipt' });
    const proof = await server.get(asked.body.receiptLog.proofPath);
    expect([proof.status, proof.text.split('\n')[0]]).toEqual([200, 'c2sp.org/tlog-proof@v1']);
    const scored = await mcp.call('svc_score_coil', { coil: rawCoil({ slug: `${slug}-scored` }), nowIso: NOW_ISO });
    expect(scored.body.receiptLog).toEqual({ logged: false, reason: 'not_requested', proofPath: null });
    const refused = await server.get(`/api/receipts/log/proof/${scored.body.receipt.receiptId}`);
    expect([refused.status, refused.json.error.code]).toEqual([404, 'RECEIPT_NOT_LOGGED']);
  });
});

const CREDENTIAL_VALUE = 'svc-mcp-credential-value-5be1d0';
const CLAIM = 'Order executed: bought 100 NVDA, filled at market';
/** Fields whose text the tools write back into their answers (names, labels, prompts, notes). */
const ECHOED_KEYS = new Set(['name', 'label', 'prompt', 'partnerReference', 'note', 'epochId']);

/** The valid input with the first echoed text replaced by an execution claim (or one added). */
function withClaim(input: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(input);
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'string' && ECHOED_KEYS.has(k)) {
        (node as Record<string, unknown>)[k] = CLAIM;
        return true;
      }
      if (visit(v)) return true;
    }
    return false;
  };
  if (!visit(copy)) copy.note = CLAIM;
  return copy;
}

/**
 * The valid input with its first required field (else `nowIso`) of the wrong type. A route
 * with path parameters carries text in its path and query whatever the caller meant, so
 * there the wrong value is a text that is no time.
 */
async function wrongShape(name: McpToolName, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (endpointOf.get(name)!.includes('{')) return { ...input, nowIso: 'the day after tomorrow' };
  const { tools } = await mcp.client.listTools();
  const required = (tools.find((t) => t.name === name)!.inputSchema.required ?? []) as string[];
  return { ...input, [required[0] ?? 'nowIso']: 12345 };
}

describe('negative vectors, every tool over stdio', () => {
  it.each([...MCP_TOOL_NAMES])('%s', async (name) => {
    const valid = TOOL_INPUTS[name](fixtures);
    const endpoint = endpointOf.get(name)!;

    const credential = await mcp.call(name, { ...valid, options: { nested: [{ privateKey: CREDENTIAL_VALUE }] } });
    expect(credential.isError, name).toBe(true);
    expect(credential.body.error.code, name).toBe('CREDENTIAL_FIELD_REJECTED');
    expect(credential.body.error.issues[0].path, name).toBe('options.nested.0.privateKey');
    expect(JSON.stringify(credential.raw), name).not.toContain(CREDENTIAL_VALUE);
    await mcp.client.ping();

    const badInput = await wrongShape(name, valid);
    const [badRest, badTool] = [await restCall(server, endpoint, badInput), await mcp.call(name, badInput)];
    expect(badRest.status, `${name} wrong shape`).toBeGreaterThanOrEqual(400);
    expect(badRest.status, `${name} wrong shape`).toBeLessThan(500);
    expectSameAnswer(badTool, badRest, `${name} wrong shape`);
    await mcp.client.ping();

    const claimInput = withClaim(valid);
    const [claimRest, claimTool] = [await restCall(server, endpoint, claimInput), await mcp.call(name, claimInput)];
    // The caller's own words are not the service's claim: answered or refused as REST does, never blocked as one.
    expect(claimRest.status, `${name} claim`).not.toBe(500);
    expectSameAnswer(claimTool, claimRest, `${name} claim`);
    await mcp.client.ping();
  });

  it('refuses arguments over 256 KB with BODY_TOO_LARGE, an unknown tool with a protocol error, and keeps serving', async () => {
    const big = await mcp.call('svc_validate_coil', { ...TOOL_INPUTS.svc_validate_coil(fixtures), padding: 'x'.repeat(256 * 1024) });
    expect(big.isError).toBe(true);
    expect(big.body.error.code).toBe('BODY_TOO_LARGE');
    const unknownTool = await mcp.call('svc_place_order', {}).catch((e: unknown) => e);
    expect(unknownTool).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown tool/),
      data: { error: { code: 'NOT_FOUND', issues: [{ code: 'TOOL_UNKNOWN' }] }, notInvestmentAdvice: true, liveOrderSent: false },
    });
    expect(JSON.stringify(unknownTool)).not.toContain('svc_place_order');
    const after = await mcp.call('svc_explain_oracle_policy', TOOL_INPUTS.svc_explain_oracle_policy(fixtures));
    expect(after.isError).toBe(false);
  });

  it('refuses a credential elsewhere in a message (here the _meta of tools/list) with a JSON-RPC error holding the refusal envelope', async () => {
    await mcp.expectMessageCredentialRefused('svc-mcp-meta-credential-a1');
  });

  it('refuses text that is not Unicode (a lone surrogate) with the REST code and field', async () => {
    const raw = '{"coil":{"name":"\\ud800"},"nowIso":"2026-01-01T00:00:00.000Z"}';
    const rest = await server.request('POST', '/api/tools/validate-coil', {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(rest.status).toBe(400);
    expectSameAnswer(await mcp.call('svc_validate_coil', JSON.parse(raw)), rest, 'lone surrogate');
  });

  it('logged no credential value and no argument text on stderr, and nothing but log lines', () => {
    const logs = mcp.stderr.join('\n');
    expect(logs).not.toContain(CREDENTIAL_VALUE);
    expect(logs).toContain('"route":"svc_validate_coil"');
    for (const line of mcp.stderr) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
  });
});
