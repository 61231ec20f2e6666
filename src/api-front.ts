/**
 * The service's API front (src/lib/server/http/front.ts) with its MCP door wired in
 * (src/mcp/http.ts): the one instance every API request passes through, whether the Node
 * server hands it over (published in src/hooks.server.ts `init`) or a SvelteKit API route does.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { answerApiFetch } from '$lib/server/http/fetch-front';
import { createApiFront } from '$lib/server/http/front';
import { mcpRefusalAnswer } from './mcp/jsonrpc';

export const apiFront = createApiFront({
  // Loaded on the first MCP request: the MCP SDK (and its JSON-schema validator) is megabytes
  // and a tenth of a second of start-up that a server nobody calls over MCP does not pay.
  answerMcp: async (request) => (await import('./mcp/http')).answerMcpOverHttp(request),
  refuseMcp: mcpRefusalAnswer,
});

/** The handler of SvelteKit's API routes (`vite dev`, and the pages' server-side loads). */
export function answerApiRoute(event: RequestEvent): Promise<Response> {
  let clientAddress: string;
  try {
    clientAddress = event.getClientAddress();
  } catch {
    clientAddress = 'unknown';
  }
  return answerApiFetch(apiFront, event.request, clientAddress);
}
