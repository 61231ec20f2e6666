// MCP over Streamable HTTP (interface 4.9, src/mcp/http.ts), answered by the API front
// (src/api-front.ts). The production server hands /mcp to the front before SvelteKit sees it;
// this route serves `vite dev`.
import { answerApiRoute } from '../../api-front';
import type { RequestHandler } from './$types';

export const fallback: RequestHandler = (event) => answerApiRoute(event);
