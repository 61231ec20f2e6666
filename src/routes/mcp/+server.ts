// MCP over Streamable HTTP (interface 4.9), stateless: every POST gets a fresh server and
// transport, so no session lives between requests and any instance can answer any request.
// The hook (src/hooks.server.ts) has already applied the body cap, the rate limit (`POST
// /mcp`), the JSON check and the log line; it answers GET and DELETE with 405.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RequestHandler } from './$types';
import { connectGuarded, createMcpServer } from '../../mcp/server';

export const POST: RequestHandler = async (event) => {
  const state = event.locals.state;
  const server = createMcpServer({
    transport: 'http',
    factsOf: () => ({ requestId: state.requestId, clientAddress: state.clientAddress, serverTime: state.serverTime, url: event.url }),
  });
  // JSON answers rather than an event stream: the tools answer once, and a JSON body is what
  // the hook's log line and the caller's proxies handle best.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await connectGuarded(server, transport);
  // The hook read, capped and parsed the body: the transport gets exactly those bytes.
  const request = new Request(event.url, { method: 'POST', headers: event.request.headers, body: state.rawBody ?? '{}' });
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
};
