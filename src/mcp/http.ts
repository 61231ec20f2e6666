/**
 * MCP over Streamable HTTP (interface 4.9), stateless: every POST gets a fresh server and
 * transport, so no session lives between requests and any instance can answer any request.
 * The API front (src/lib/server/http/front.ts) has already applied the body cap, the rate
 * limit (`POST /mcp`), the JSON parse and the log line, and answers its refusals as JSON-RPC
 * errors (src/mcp/jsonrpc.ts); it answers GET and DELETE with 405.
 *
 * What this door checks before the SDK's transport sees a body, because the transport does
 * not (checked against @modelcontextprotocol/sdk 1.32.2):
 * - a body that is valid JSON but no JSON-RPC 2.0 message is `-32600 Invalid Request` with
 *   `id: null` (the transport says `-32700 Parse error` for it, which JSON-RPC keeps for
 *   text that is not JSON);
 * - a batch (a JSON array) is taken only under the protocol version that has batches,
 *   2025-03-26: 2025-06-18 removed them, and the transport takes a batch under any version.
 *   The version of a request is its `MCP-Protocol-Version` header; without one, the
 *   Streamable HTTP transport spec says to assume 2025-03-26 (the header is required from
 *   2025-06-18 on). An initialize request may not be part of a batch (2025-03-26, lifecycle).
 *   Each member of a batch that is no message gets its own `-32600` in the batch's answer,
 *   and the answer to a batch is always an array (JSON-RPC 2.0, batch).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, isInitializeRequest, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { answerOfResponse, jsonAnswer, type ApiAnswer } from '$lib/server/http/answer';
import type { McpRequest } from '$lib/server/http/front';
import { INVALID_REQUEST, jsonRpcError, type JsonRpcErrorResponse } from './jsonrpc';
import { connectGuarded, createMcpServer } from './server';

/** The MCP protocol versions whose JSON-RPC layer has batches. */
export const BATCH_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26']);

function errorAnswer(status: number, body: JsonRpcErrorResponse | JsonRpcErrorResponse[]): ApiAnswer {
  return jsonAnswer(status, JSON.stringify(body));
}

const invalidRequest = (why: string) => jsonRpcError(INVALID_REQUEST, `Invalid Request: ${why}`);

const NOT_A_MESSAGE = 'not a JSON-RPC 2.0 request, notification or response';

/** Runs JSON-RPC messages through a fresh server and transport. */
async function serve(request: McpRequest, parsedBody: JSONRPCMessage | JSONRPCMessage[]): Promise<ApiAnswer> {
  const server = createMcpServer({
    transport: 'http',
    factsOf: () => ({
      requestId: request.requestId,
      clientAddress: request.clientAddress,
      serverTime: request.serverTime,
      url: request.url,
    }),
  });
  // JSON answers rather than an event stream: the tools answer once, and a JSON body is what
  // the front's log line and the caller's proxies handle best.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await connectGuarded(server, transport);
  // The front read, capped and parsed the body; the transport gets the checked messages.
  const fetchRequest = new Request(request.url, { method: 'POST', headers: request.headers, body: request.rawBody });
  try {
    return await answerOfResponse(await transport.handleRequest(fetchRequest, { parsedBody }));
  } finally {
    await server.close();
  }
}

export async function answerMcpOverHttp(request: McpRequest): Promise<ApiAnswer> {
  if (!Array.isArray(request.body)) {
    const parsed = JSONRPCMessageSchema.safeParse(request.body);
    if (!parsed.success) return errorAnswer(400, invalidRequest(NOT_A_MESSAGE));
    return serve(request, request.body as JSONRPCMessage);
  }

  const batch: unknown[] = request.body;
  const version = request.headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (!BATCH_PROTOCOL_VERSIONS.has(version))
    return errorAnswer(
      400,
      invalidRequest(
        `MCP protocol version ${version} has no JSON-RPC batches (only 2025-03-26 has them); send one message per request`,
      ),
    );
  if (batch.length === 0) return errorAnswer(400, invalidRequest('an empty batch'));
  if (batch.length > MAX_BATCH_SIZE) return errorAnswer(400, invalidRequest(`a batch holds at most ${MAX_BATCH_SIZE} messages`));
  if (batch.some((m) => isInitializeRequest(m)))
    return errorAnswer(400, invalidRequest('the initialize request must not be part of a batch'));

  const messages: JSONRPCMessage[] = [];
  const refused: JsonRpcErrorResponse[] = [];
  for (const member of batch) {
    if (JSONRPCMessageSchema.safeParse(member).success) messages.push(member as JSONRPCMessage);
    else refused.push(invalidRequest(NOT_A_MESSAGE));
  }
  if (messages.length === 0) return errorAnswer(400, refused);

  const answered = await serve(request, messages);
  if (answered.status === 202 && refused.length === 0) return answered;
  if (answered.status !== 200 && answered.status !== 202) return answered;
  const responses: unknown[] = answered.status === 202 ? [] : [JSON.parse(answered.body)].flat();
  return { ...answered, status: 200, headers: { ...answered.headers, 'content-type': 'application/json' }, body: JSON.stringify([...responses, ...refused]) };
}
