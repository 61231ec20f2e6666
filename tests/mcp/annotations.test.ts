/**
 * The tool annotations are true: each tool is called over stdio (the SDK's `Client`) on a
 * real SQLite database, with chain 4663 a real local node (the V1 vault placed and open for
 * deposits, so the chain-reading tools reach their answers) behind a proxy that records every
 * JSON-RPC call, and the partner API a recording fake; what the call did is compared with
 * what its annotations say:
 * - `readOnlyHint: true`: no stored row appears, changes or goes; false: a row appears;
 * - `destructiveHint: false`: no row stored before the call changes or goes;
 * - `idempotentHint: true`: the same call again changes no row;
 * - `openWorldHint: false`: neither the chain RPC nor the partner receives a request; true:
 *   one of them does, for the tool's vector or its `OPEN_WORLD_INPUTS`.
 * Every tool is annotated with all four hints and a title, over both transports alike.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES, type McpToolName } from '../../src/lib/server/registry/agents';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault } from '../support/chain/vaults';
import { connectHttp, connectStdio, type McpTestClient } from '../support/mcp';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { freshNowIso, intent } from '../support/stock-intents';
import { makeFixtures, NOW_ISO, TOOL_INPUTS, UNKNOWN_TX, type ToolFixtures } from '../support/tool-vectors';

const partnerKey = secretMarker('PARTNER_API_KEY');

let chain: LocalChain;
let rpc: RecordingProxy;
let partner: FakePartner;
let server: TestServer;
let stdio: McpTestClient;
let http: McpTestClient;
let fixtures: ToolFixtures;

/** Inputs that reach the outside party a tool may read, where its plain vector does not (a transaction to look up). */
const OPEN_WORLD_INPUTS: Partial<Record<McpToolName, (f: ToolFixtures) => Record<string, unknown>>> = {
  svc_generate_vault_receipt: () => ({ txHash: UNKNOWN_TX, nowIso: NOW_ISO }),
};

/**
 * Inputs that reach the write a tool may make, where its plain vector finds nothing to write:
 * a stock plan submitted to the (fake) partner through REST, whose job the partner reports
 * completed, so reconciliation advances the stored receipt.
 */
const WRITE_INPUTS: Partial<Record<McpToolName, () => Promise<Record<string, unknown>>>> = {
  svc_reconcile_partner_stock_token_job: async () => {
    const nowIso = freshNowIso();
    const body = intent({ inputAmount: '37' });
    const prep = await server.post('/api/stocks/prepare-partner-command', { intent: body, nowIso });
    const sub = await server.post('/api/stocks/submit-partner-intent', { intent: body, userConfirmedPlanHash: prep.json.planHash, nowIso });
    expect(sub.status, sub.text).toBe(200);
    partner.setJob(sub.json.jobId, { statuses: ['completed'], reads: 0 });
    return { planHash: prep.json.planHash, nowIso };
  },
};

/**
 * Writes no vector here can reach, each proven through the same procedure's REST route by the
 * test named: the tool is still held to everything else (no write here, the outside read).
 */
const WRITE_PROVEN_ELSEWHERE: Partial<Record<McpToolName, string>> = {
  // Records the transaction hashes a Mode B job's partner reports, binding the proof: needs a
  // Mode B job submitted to the partner (tests/api/vault-mode-b.test.ts).
  svc_reconcile_partnerbot_deposit_receipt: 'tests/api/vault-mode-b.test.ts',
};

/**
 * The tool's vector at an answer time of its own: stored receipts are content-addressed
 * (their id hashes the answer time with the content), so a vector another tool or a fixture
 * already stored at NOW_ISO would store nothing new and hide the write.
 */
function freshInput(name: McpToolName): Record<string, unknown> {
  // The submit preview confirms the plan hash of the fixture's plan, prepared at NOW_ISO.
  if (name === 'svc_submit_partner_stock_token_intent') return TOOL_INPUTS[name](fixtures);
  const at = new Date(Date.parse(NOW_ISO) + (MCP_TOOL_NAMES.indexOf(name) + 1) * 60_000).toISOString();
  return { ...TOOL_INPUTS[name](fixtures), nowIso: at };
}

/** Forwards every request to the chain node and records the JSON-RPC methods asked. */
class RecordingProxy {
  readonly methods: string[] = [];
  url = '';
  private server?: Server;

  async start(target: string): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        try {
          for (const call of [JSON.parse(body)].flat() as Array<{ method?: string }>) this.methods.push(String(call.method));
        } catch {
          this.methods.push('(unparsed)');
        }
        void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          async (answer) => {
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(await answer.text());
          },
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

beforeAll(async () => {
  [chain, partner] = await Promise.all([startLocalChain(), startFakePartner({ apiKey: partnerKey })]);
  await placeV1Vault(chain, { depositReady: true });
  rpc = await new RecordingProxy().start(chain.rpcUrl);
  server = await startServer({
    allowPostgres: false,
    env: {
      STRATEGIST_PROVIDER: 'mock',
      BROKER_CHAIN_RPC_URL: rpc.url,
      PARTNER_API_URL: partner.url,
      PARTNER_API_KEY: partnerKey,
      PARTNER_AGENT_API_ENABLED: 'true',
      PARTNER_TIMEOUT_MS: '2000',
    },
  });
  [stdio, http] = await Promise.all([connectStdio(server), connectHttp(server)]);
  fixtures = await makeFixtures(server);
});
afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await server?.stop();
  await Promise.all([rpc?.stop(), partner?.stop()]);
  await chain?.stop();
});

/** Every stored row of every table (migrations aside), as text, counted. */
function snapshot(): Map<string, number> {
  const db = new Database(server.env.DATABASE_URL!.replace(/^file:/, ''), { readonly: true, fileMustExist: true });
  try {
    const rows = new Map<string, number>();
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'")
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) {
        const key = `${name} ${JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`;
        rows.set(key, (rows.get(key) ?? 0) + 1);
      }
    }
    return rows;
  } finally {
    db.close();
  }
}

/** Rows of `after` not in `before`, and rows of `before` no longer in `after`. */
function diff(before: Map<string, number>, after: Map<string, number>): { added: string[]; gone: string[] } {
  const minus = (a: Map<string, number>, b: Map<string, number>) =>
    [...a].flatMap(([row, n]) => Array.from({ length: Math.max(0, n - (b.get(row) ?? 0)) }, () => row));
  return { added: minus(after, before), gone: minus(before, after) };
}

const outsideRequests = () => rpc.methods.length + partner.requests.length;

describe('every tool carries all four hints and a title, the same over both transports', () => {
  it('tools/list over stdio and over HTTP', async () => {
    const [viaStdio, viaHttp] = await Promise.all([stdio.client.listTools(), http.client.listTools()]);
    expect(viaHttp.tools).toEqual(viaStdio.tools);
    for (const tool of viaStdio.tools) {
      expect(tool.annotations, tool.name).toEqual({
        title: tool.title,
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
      expect(tool.title, tool.name).toEqual(expect.any(String));
    }
  });
});

describe('each annotation says what the tool really does', () => {
  it.each([...MCP_TOOL_NAMES])('%s', async (name) => {
    const { tools } = await stdio.client.listTools();
    const hints = tools.find((t) => t.name === name)!.annotations!;
    const input = WRITE_INPUTS[name] ? await WRITE_INPUTS[name]!() : freshInput(name);

    const before = snapshot();
    const outsideBefore = outsideRequests();
    const first = await stdio.call(name, input);
    const afterFirst = snapshot();
    const second = await stdio.call(name, input);
    expect(second.isError, name).toBe(first.isError);
    const afterSecond = snapshot();
    const openWorldInput = OPEN_WORLD_INPUTS[name]?.(fixtures);
    if (openWorldInput) await stdio.call(name, openWorldInput);
    const afterAll = snapshot();
    const reachedOutside = outsideRequests() > outsideBefore;

    const once = diff(before, afterFirst);
    const again = diff(afterFirst, afterSecond);
    const seen = {
      first: first.isError ? `error ${first.body.error.code}` : 'ok',
      added: once.added.length,
      gone: once.gone.length,
      addedAgain: again.added.length,
      goneAgain: again.gone.length,
      reachedOutside,
    };
    if (process.env.ANNOTATIONS_REPORT) console.log(name, JSON.stringify(seen));
    if (hints.readOnlyHint) {
      expect(once, `${name} ${JSON.stringify(seen)}`).toEqual({ added: [], gone: [] });
      expect(again, `${name} ${JSON.stringify(seen)}`).toEqual({ added: [], gone: [] });
      expect(diff(afterSecond, afterAll), name).toEqual({ added: [], gone: [] });
    } else if (!WRITE_PROVEN_ELSEWHERE[name]) {
      expect(once.added.length + once.gone.length, `${name} stores nothing: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    }
    if (hints.destructiveHint && !WRITE_PROVEN_ELSEWHERE[name])
      expect(once.gone.length, `${name} changes no stored row: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    if (!hints.destructiveHint) {
      expect(once.gone, `${name} ${JSON.stringify(seen)}`).toEqual([]);
      expect(again.gone, `${name} ${JSON.stringify(seen)}`).toEqual([]);
    }
    if (hints.idempotentHint) expect(again, `${name} ${JSON.stringify(seen)}`).toEqual({ added: [], gone: [] });
    else expect(again.added.length + again.gone.length, `${name} is idempotent: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    expect(reachedOutside, `${name} openWorldHint ${hints.openWorldHint}: ${JSON.stringify(seen)}`).toBe(hints.openWorldHint);
  });
});
