// Every REST path under /api, answered by the API front (src/api-front.ts). The production
// server hands /api to the front before SvelteKit sees it; this route serves `vite dev` and
// the pages' server-side loads.
import { answerApiRoute } from '../../../api-front';
import type { RequestHandler } from './$types';

export const fallback: RequestHandler = (event) => answerApiRoute(event);

// A trailing slash is the caller's path as sent: answered (404 or the route) in the API's own
// envelope, never redirected with the query repeated in a Location header.
export const trailingSlash = 'ignore';
