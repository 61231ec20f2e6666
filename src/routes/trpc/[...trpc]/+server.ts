// The tRPC endpoint the typed client (and the Svelte pages) call.
import type { RequestHandler } from './$types';
import { handleTrpc } from '$lib/server/trpc/http';

export const GET: RequestHandler = (event) => handleTrpc(event);
export const POST: RequestHandler = (event) => handleTrpc(event);
