/**
 * The one MCP server factory (interface 4.9): the 34 tools, each the procedure whose meta names
 * it, called through tRPC's server-side caller. The stdio entry (src/mcp/stdio.ts) and the
 * Streamable HTTP door (src/mcp/http.ts) both build their server here, so the two
 * transports cannot drift from each other or from REST.
 *
 * What a tool shares with its REST route: the input (the REST body, same field names,
 * validated by the procedure's own zod schema), the answer (the REST JSON body as
 * `structuredContent` and as text), the error envelope and codes, the credential guard and
 * the body cap (here, because they live in the API front there), and everything the tRPC
 * middlewares do (answer finishing, invariant stamping, the `nowIso` answer clock).
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  type LoggingLevel,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { readServerClock, type ServerTime } from '$lib/server/clock';
import { SvcError } from '$lib/server/errors';
import { rejectCredentials } from '$lib/server/guards/credential-guard';
import { requireWithinBodyCap } from '$lib/server/http/body';
import { logger } from '$lib/server/logger';
import { createInnerContext } from '$lib/server/trpc/context';
import { statusForCode, toSvcError } from '$lib/server/trpc/error-map';
import { restErrorBody } from '$lib/server/http/dispatch';
import { errorOfCall, stampedError } from '$lib/server/trpc/init';
import { mcpServerInfo, mcpToolset, TOOLSET_HASH_META_KEY, type BoundTool } from '$lib/server/trpc/mcp-toolset';
import { callProcedureAt } from '$lib/server/trpc/router';
import { completeMcpPromptArgument, getMcpPrompt, mcpPrompts } from './prompts';
import { mcpResources, readMcpResource } from './resources';

/** The request facts of one tool call, supplied by the transport's entry point. */
export interface ToolCallFacts {
  requestId: string;
  clientAddress: string;
  /** The server's clock when the call arrived (never the caller's `nowIso`). */
  serverTime: ServerTime;
  url: URL;
}

export interface McpServerOptions {
  /** Which door: named in the log lines. */
  transport: 'stdio' | 'http';
  /** Facts of each call; stdio has no HTTP request, so the default invents them per call. */
  factsOf?: (tool: string) => ToolCallFacts;
}

let byName: Map<string, BoundTool> | undefined;
function toolBindings(): Map<string, BoundTool> {
  byName ??= new Map(mcpToolset().tools.map((t) => [t.tool, t]));
  return byName;
}

/** The `tools/list` entries, in the order of the tool index (by name). */
export function mcpToolDefinitions(): Tool[] {
  return mcpToolset().tools.map((b) => b.definition);
}

function stdioFacts(tool: string): ToolCallFacts {
  return { requestId: randomUUID(), clientAddress: 'stdio', serverTime: readServerClock(), url: new URL(`mcp://svc/${tool}`) };
}

function success(answer: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer as Record<string, unknown> };
}

/**
 * An error as a tool result: the REST error body, as text. Not as `structuredContent`: that
 * field must match the tool's output schema (the SDK's client checks it even on an error),
 * and an error envelope is not the answer the schema describes.
 */
function failure(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Runs one tool call with the rules every door applies, and never throws. */
/** What a tool did, as an MCP log message (`notifications/message`): never its arguments or its answer. */
export type ToolLogMessage = { level: LoggingLevel; logger: 'svc'; data: Record<string, unknown> };

/** The log message's level: a refusal is a warning, a failure of the service an error. */
function levelOfStatus(status: number): LoggingLevel {
  if (status >= 500) return 'error';
  return status >= 400 ? 'warning' : 'info';
}

export async function callTool(
  binding: BoundTool,
  args: Record<string, unknown>,
  facts: ToolCallFacts,
  transport: string,
  notify: (message: ToolLogMessage) => Promise<void> = async () => undefined,
): Promise<CallToolResult> {
  const startedAtMs = performance.now();
  let status = 200;
  let code: string | undefined;
  try {
    // The two rules of the API front that a tool call would otherwise skip: the 256 KB cap
    // (over HTTP the front already applied it to the whole message) and the credential guard,
    // both before any processing. The other rules run in the tRPC middlewares.
    requireWithinBodyCap(args);
    rejectCredentials(args, 'body');
    const ctx = createInnerContext({
      url: facts.url,
      requestId: facts.requestId,
      clientAddress: facts.clientAddress,
      serverTime: facts.serverTime,
      transmitsNothing: true,
    });
    return success(await callProcedureAt(ctx, binding.procedurePath, args));
  } catch (error) {
    const svc = errorOfCall(error instanceof SvcError ? error : toSvcError(error, binding.meta), binding.meta);
    status = statusForCode(svc.code);
    code = svc.code;
    return failure(restErrorBody(svc));
  } finally {
    const durationMs = Math.round((performance.now() - startedAtMs) * 100) / 100;
    logger.info({ requestId: facts.requestId, method: 'MCP', transport, route: binding.tool, status, code, durationMs }, 'tool call');
    // The same facts as the log line, to the client: the tool, the status its REST route would
    // have answered, the error code, the duration. Nothing the caller sent and nothing of the
    // answer, so neither a secret nor the caller's data can ride on it.
    await notify({
      level: levelOfStatus(status),
      logger: 'svc',
      data: { event: 'tool call', requestId: facts.requestId, tool: binding.tool, status, ...(code ? { code } : {}), durationMs },
    }).catch((error: unknown) =>
      logger.warn({ event: 'mcp_log_send_failed', name: (error as Error)?.name }, 'could not send an MCP log message'),
    );
  }
}

/**
 * A refusal outside a tool's own result (a prompt's bad argument): a JSON-RPC error whose
 * `data` is the service's error envelope, as for a credential in a message.
 */
function protocolRefusal(error: SvcError, code: number = ErrorCode.InvalidParams): McpError {
  return new McpError(code, error.message, restErrorBody(stampedError(error)));
}

/** -32002 is the spec's "resource not found"; an unknown tool or prompt is invalid params. */
const RESOURCE_NOT_FOUND = -32002;

/** A name or URI this server does not serve, refused without echoing it. */
function unknown(kind: 'tool' | 'prompt' | 'resource'): McpError {
  const lists = {
    tool: 'tools/list names the 34 tools',
    prompt: 'prompts/list names the prompts',
    resource: 'resources/list names the resources',
  }[kind];
  const message = `${kind === 'resource' ? 'Resource not found' : `Unknown ${kind}`}; ${lists} of this server`;
  const issue = { tool: 'TOOL_UNKNOWN', prompt: 'PROMPT_UNKNOWN', resource: 'RESOURCE_UNKNOWN' }[kind];
  return protocolRefusal(
    new SvcError('NOT_FOUND', message, {
      issues: [{ code: issue, message: lists, path: kind === 'resource' ? 'params.uri' : 'params.name' }],
    }),
    kind === 'resource' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams,
  );
}

/** A new MCP server with the 34 tools, the resources and the prompts; connect it to one transport. */
export function createMcpServer(options: McpServerOptions): Server {
  const factsOf = options.factsOf ?? stdioFacts;
  const toolsetHash = mcpToolset().hash;
  // The low-level Server, not McpServer: McpServer validates arguments with its own zod pass
  // before the handler runs, which would answer a wrong shape in the SDK's words instead of
  // the service's envelope and codes, and would read the arguments before the credential
  // guard. Here the procedure's own schema is the one validation.
  const server = new Server(mcpServerInfo(toolsetHash), {
    // `logging`: the SDK answers logging/setLevel itself and filters `sendLoggingMessage` by the
    // level set; `completions`: completion/complete below.
    capabilities: { tools: {}, resources: {}, prompts: {}, logging: {}, completions: {} },
    instructions: [
      "Strategy Basket Service tools: each is one REST route of this service (its input is that route's body). Planning and analysis only: no tool places an order, sends a transaction or holds a key. Every answer says notInvestmentAdvice: true and liveOrderSent: false.",
      "Each tool's annotations say what it does to the world (readOnlyHint false: it stores rows such as a Coil and its receipt; openWorldHint true: it may read chain 4663). Resources: the canonical registry, the oracle policy, the JSON Schemas of a Coil and of the receipts. Prompt: thesis_to_coil.",
      `Toolset sha256:${toolsetHash} (over the tools/list entries; also GET /api/mcp/toolset).`,
    ].join('\n'),
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: mcpToolDefinitions(),
    _meta: { [TOOLSET_HASH_META_KEY]: toolsetHash },
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const binding = toolBindings().get(request.params.name);
    // The name is not echoed: whatever a caller sends stays out of the answer.
    if (!binding) throw unknown('tool');
    return callTool(binding, request.params.arguments ?? {}, factsOf(binding.tool), options.transport, (message) =>
      server.sendLoggingMessage(message, extra.sessionId),
    );
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: mcpResources() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const contents = readMcpResource(request.params.uri);
    if (!contents) throw unknown('resource');
    return { contents: [contents] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: mcpPrompts() }));
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    // A resource template, or a prompt this server does not offer: no completions (prompts.ts).
    const prompt = ref.type === 'ref/prompt' ? ref.name : '';
    return { completion: completeMcpPromptArgument(prompt, argument.name, argument.value) };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      const prompt = getMcpPrompt(request.params.name, request.params.arguments);
      if (!prompt) throw unknown('prompt');
      return prompt;
    } catch (error) {
      throw error instanceof SvcError ? protocolRefusal(error) : error;
    }
  });
  return server;
}

/**
 * A credential anywhere in an MCP message other than a tool's arguments (those are refused by
 * the tool call itself, as the tool's error result): the refusal, naming fields, never values.
 */
function messageCredentialRefusal(message: JSONRPCMessage): SvcError | undefined {
  const toolCall = 'method' in message && message.method === 'tools/call' && message.params && typeof message.params === 'object';
  const inspected = toolCall ? { ...message, params: { ...message.params, arguments: undefined } } : message;
  try {
    rejectCredentials(inspected, 'body');
    return undefined;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
}

/**
 * Connects a server to its transport behind the credential guard of whole messages, the rule
 * the API front applies to every REST and /trpc body: a request carrying a credential (in its params, its
 * `_meta`, the client's info) is answered with a JSON-RPC error holding the API's envelope and
 * never reaches the server; such a notification is dropped. The SDK offers no hook before
 * its own dispatch, so the dispatcher it installs on `connect` is wrapped.
 */
export async function connectGuarded(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('the MCP transport has no message handler after connect');
  transport.onmessage = (message, extra) => {
    const refusal = messageCredentialRefusal(message);
    if (!refusal) return deliver(message, extra);
    logger.warn(
      { event: 'mcp_credential_rejected', paths: refusal.issues.map((i) => i.path) },
      'MCP message with a credential field refused',
    );
    if (!('id' in message) || !('method' in message)) return;
    void transport
      .send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCode.InvalidParams, message: refusal.message, data: restErrorBody(stampedError(refusal)) },
      })
      .catch((error: unknown) =>
        logger.error({ event: 'mcp_send_failed', name: (error as Error)?.name }, 'could not answer a refused MCP message'),
      );
  };
}
