// The generated OpenAPI 3.1 document of every REST route.
import type { RequestHandler } from './$types';
import { config } from '$lib/server/config';
import { openApiDocument } from '$lib/server/trpc/http';

export const GET: RequestHandler = () =>
  new Response(JSON.stringify(openApiDocument(config().origin)), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
  });
