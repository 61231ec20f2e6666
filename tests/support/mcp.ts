/**
 * MCP clients for the tests: the SDK's own `Client` over stdio (the built `npm run mcp`
 * entry, on the database of a running test server) and over Streamable HTTP (POST /mcp of
 * that server). Every tool answer read here is checked for the server's secrets.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListToolsResultSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { ROOT, type TestServer } from './server';

export interface ToolAnswer {
  isError: boolean;
  /** structuredContent on success; the parsed text (the REST error body) on an error. */
  body: any;
  text: string;
  raw: CallToolResult;
}

export class McpTestClient {
  readonly stderr: string[] = [];
  constructor(
    readonly client: Client,
    private readonly secrets: string[],
  ) {}

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const raw = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
    const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    const serialised = JSON.stringify(raw);
    for (const secret of this.secrets)
      if (serialised.includes(secret)) throw new Error(`secret configuration value leaked in tool ${name}`);
    const isError = raw.isError === true;
    return { isError, body: isError ? JSON.parse(text) : raw.structuredContent, text, raw };
  }

  /**
   * Sends `tools/list` with a credential in its `_meta` (outside any tool's arguments) and
   * returns what the client threw.
   */
  async listToolsCarrying(credential: string): Promise<McpError> {
    const error = await this.client
      .request({ method: 'tools/list', params: { _meta: { wallet: { privateKey: credential } } } }, ListToolsResultSchema)
      .then(
        () => new Error('tools/list with a credential was answered'),
        (e: unknown) => e,
      );
    if (!(error instanceof McpError)) throw error;
    return error;
  }

  /**
   * A credential in a message outside any tool's arguments is a JSON-RPC -32602 error holding
   * the refusal envelope, the value never echoed, and the session stays usable.
   */
  async expectMessageCredentialRefused(secret: string): Promise<void> {
    const refused = await this.listToolsCarrying(secret);
    expect(refused.code).toBe(-32602);
    expect(refused.data).toMatchObject({
      error: { code: 'CREDENTIAL_FIELD_REJECTED', issues: [{ path: 'params._meta.wallet.privateKey' }] },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(JSON.stringify(refused.data) + refused.message).not.toContain(secret);
    await this.client.ping();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** The stdio server of `npm run mcp` (built entry, no build step), with the test server's env. */
export async function connectStdio(server: TestServer, env: Record<string, string> = {}): Promise<McpTestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'scripts', 'mcp.mjs'), '--no-build'],
    cwd: ROOT,
    env: { ...server.env, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  const wrapped = new McpTestClient(client, server.secrets());
  transport.stderr?.on('data', (chunk: Buffer) => wrapped.stderr.push(...chunk.toString().split('\n').filter(Boolean)));
  await client.connect(transport);
  return wrapped;
}

/** A client of POST /mcp on the running server (`headers` go with every request, e.g. a client address). */
export async function connectHttp(server: TestServer, headers: Record<string, string> = {}): Promise<McpTestClient> {
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  return new McpTestClient(client, server.secrets());
}

/**
 * An answer with each receipt signature block's `signedAt` and `value` masked: a receipt is
 * signed when it is issued, at the server's clock, so two doors asked the same give the same
 * body, id, key and `logged`, and differ only there (docs/trust-model.md#the-signature-block).
 */
export function withSignatureTimesMasked<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) {
      const block = item as Record<string, unknown> | null;
      out[k] =
        k === 'signature' && block && typeof block === 'object' && 'signedAt' in block
          ? { ...block, signedAt: '(signed at issuance)', value: '(signed at issuance)' }
          : walk(item);
    }
    return out;
  };
  return walk(value) as T;
}
