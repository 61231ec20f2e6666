/**
 * MCP over Streamable HTTP (interface 4.9), stateless: every POST gets a fresh server and
 * transport, so no session lives between requests and any instance can answer any request.
 * The API front (src/lib/server/http/front.ts) has already applied the body cap, the rate
 * limit (`POST /mcp`), the JSON check and the log line; it answers GET and DELETE with 405.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { answerOfResponse, type ApiAnswer } from '$lib/server/http/answer';
import type { McpRequest } from '$lib/server/http/front';
import { connectGuarded, createMcpServer } from './server';

export async function answerMcpOverHttp(request: McpRequest): Promise<ApiAnswer> {
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
  // The front read, capped and parsed the body: the transport gets exactly those bytes.
  const fetchRequest = new Request(request.url, { method: 'POST', headers: request.headers, body: request.rawBody });
  try {
    return await answerOfResponse(await transport.handleRequest(fetchRequest));
  } finally {
    await server.close();
  }
}
