// Every REST path of the spec, generated from the tRPC procedures (trpc-to-openapi).
import type { RequestHandler } from './$types';
import { handleRest } from '$lib/server/trpc/http';

export const GET: RequestHandler = (event) => handleRest(event);
export const POST: RequestHandler = (event) => handleRest(event);
export const fallback: RequestHandler = (event) => handleRest(event);

// A trailing slash is the caller's path as sent: answered (404 or the route) in the API's own
// envelope, never redirected with the query repeated in a Location header.
export const trailingSlash = 'ignore';
