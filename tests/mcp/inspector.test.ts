/**
 * The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector --cli`, a devDependency),
 * run as its own process the way a developer runs it, against the stdio server (the inspector
 * starts `node scripts/mcp.mjs` itself) and against `POST /mcp` of the running server:
 * tools/list, tools/call (an answer and a refusal), resources/list, resources/read,
 * prompts/list and prompts/get. Nothing here needs the network.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/lib/server/registry/agents';
import { ROOT, startServer, type TestServer } from '../support/server';
import { NOW_ISO } from '../support/tool-vectors';

const run = promisify(execFile);
const INSPECTOR_DIR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector');
const INSPECTOR_BIN = join(
  INSPECTOR_DIR,
  (JSON.parse(readFileSync(join(INSPECTOR_DIR, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mcp-inspector']!,
);

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

type Door = 'stdio' | 'http';

/** The target arguments of the inspector for one door: it starts the stdio server itself, with the test server's database. */
function target(door: Door): string[] {
  if (door === 'http') return [`${server.url}/mcp`, '--transport', 'http'];
  return ['-e', `DATABASE_URL=${server.env.DATABASE_URL}`, process.execPath, join(ROOT, 'scripts', 'mcp.mjs'), '--no-build'];
}

/** Runs `mcp-inspector --cli <target> <args>` and parses the JSON it prints. */
async function inspector(door: Door, args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [INSPECTOR_BIN, '--cli', ...target(door), ...args], {
    cwd: ROOT,
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  });
  server.assertNoSecrets(stdout, `inspector ${args.join(' ')}`);
  return JSON.parse(stdout);
}

describe.each(['stdio', 'http'] as const)('mcp-inspector --cli over %s', (door) => {
  it('tools/list: the 34 tools, each with its annotations, and the toolset hash', async () => {
    const listed = await inspector(door, ['--method', 'tools/list']);
    expect(listed.tools.map((t: { name: string }) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of listed.tools)
      expect(Object.keys(tool.annotations).sort(), tool.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
        'title',
      ]);
    const route = await server.get('/api/mcp/toolset');
    expect(listed._meta['svc/toolsetHash']).toBe(route.json.toolsetHash);
  });

  it('tools/call: an answer with the invariants, and a refusal that carries them too', async () => {
    const answer = await inspector(door, [
      '--method',
      'tools/call',
      '--tool-name',
      'svc_explain_oracle_policy',
      '--tool-arg',
      `nowIso=${NOW_ISO}`,
    ]);
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent).toMatchObject({ tool: 'oracle-policy', notInvestmentAdvice: true, liveOrderSent: false });
    const refused = await inspector(door, [
      '--method',
      'tools/call',
      '--tool-name',
      'svc_explain_oracle_policy',
      '--tool-arg',
      'nowIso=yesterday',
    ]);
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text)).toMatchObject({
      error: { code: expect.any(String) },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
  });

  it('resources/list and resources/read', async () => {
    const { resources } = await inspector(door, ['--method', 'resources/list']);
    expect(resources.map((r: { uri: string }) => r.uri)).toContain('svc://registry/canonical');
    const read = await inspector(door, ['--method', 'resources/read', '--uri', 'svc://registry/canonical']);
    expect(JSON.parse(read.contents[0].text)).toEqual((await server.get('/api/stocks/registry')).json);
  });

  it('prompts/list and prompts/get', async () => {
    const { prompts } = await inspector(door, ['--method', 'prompts/list']);
    expect(prompts.map((p: { name: string }) => p.name)).toEqual(['thesis_to_coil']);
    const got = await inspector(door, [
      '--method',
      'prompts/get',
      '--prompt-name',
      'thesis_to_coil',
      '--prompt-args',
      'thesis=Semiconductors without NVDA',
    ]);
    expect(got.messages[0].content.text).toContain('Semiconductors without NVDA');
  });
});
