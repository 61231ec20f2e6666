/**
 * MCP over Streamable HTTP (interface 4.9), stateless: every POST gets a fresh server and
 * transport, so no session lives between requests and any instance can answer any request.
 * The API front (src/lib/server/http/front.ts) has already applied the body cap, the rate
 * limit (`POST /mcp`), the JSON parse and the log line, and answers its refusals as JSON-RPC
 * errors (src/mcp/jsonrpc.ts); it answers GET and DELETE with 405.
 *
 * Before the SDK's transport sees a body, the door applies the JSON-RPC framing rules
 * (src/mcp/framing.ts: invalid requests, batches under 2025-03-26 only). The version of a
 * request is its `MCP-Protocol-Version` header; without one, the Streamable HTTP transport
 * spec says to assume 2025-03-26 (the header is required from 2025-06-18 on).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerOfResponse, jsonAnswer, type ApiAnswer } from '$lib/server/http/answer';
import type { McpRequest } from '$lib/server/http/front';
import { frame } from './framing';
import { connectGuarded, createMcpServer } from './server';

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
  const framed = frame(request.body, request.headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
  if (framed.kind === 'refused') return jsonAnswer(400, JSON.stringify(framed.error));
  if (framed.kind === 'message') return serve(request, framed.message);

  const { messages, refused } = framed;
  if (messages.length === 0) return jsonAnswer(400, JSON.stringify(refused));
  const answered = await serve(request, messages);
  if (answered.status === 202 && refused.length === 0) return answered;
  // A refusal of the whole request by the transport (406, an unsupported version) stays as it is.
  if (answered.status !== 200 && answered.status !== 202) return answered;
  // The SDK answers a batch holding one request with that one response: a batch's answer is an array.
  const text = typeof answered.body === 'string' ? answered.body : new TextDecoder().decode(answered.body);
  const responses: unknown[] = answered.status === 202 ? [] : [JSON.parse(text)].flat();
  return {
    ...answered,
    status: 200,
    headers: { ...answered.headers, ...jsonAnswer(200, '').headers },
    body: JSON.stringify([...responses, ...refused]),
  };
}
