// The tRPC endpoint the typed client (and the Svelte pages) call.
import type { RequestHandler } from './$types';
import { handleTrpc } from '$lib/server/trpc/http';

export const GET: RequestHandler = (event) => handleTrpc(event);
export const POST: RequestHandler = (event) => handleTrpc(event);

// A trailing slash is the caller's path as sent: answered (404 or the route) in the API's own
// envelope, never redirected with the query repeated in a Location header.
export const trailingSlash = 'ignore';
