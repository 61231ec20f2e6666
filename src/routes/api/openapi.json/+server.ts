// The generated OpenAPI 3.1 document of every REST route.
import type { RequestHandler } from './$types';
import { config } from '$lib/server/config';
import { openApiDocument } from '$lib/server/trpc/http';

export const GET: RequestHandler = () =>
  new Response(JSON.stringify(openApiDocument(config().origin)), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
  });

// A trailing slash is the caller's path as sent: answered (404 or the route) in the API's own
// envelope, never redirected with the query repeated in a Location header.
export const trailingSlash = 'ignore';
