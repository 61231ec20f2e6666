/**
 * The API front's web face: SvelteKit's API routes (src/routes/api, /trpc, /mcp) hand it their
 * web `Request`. In production the Node face answers the API before SvelteKit sees it, so these
 * routes serve only `vite dev` and the pages' server-side loads (SvelteKit's `fetch` of a
 * same-origin path runs the route in process). SvelteKit built the `Request` from a resolved
 * URL, so the target handed over never holds a dot segment (http/request-target.ts).
 */
import type { ApiFront } from './front';
import type { BodySource } from './body';

export function bodySourceOf(request: Request): BodySource {
  return {
    contentType: request.headers.get('content-type'),
    contentLength: request.headers.get('content-length'),
    chunks: request.body,
  };
}

export async function answerApiFetch(front: ApiFront, request: Request, clientAddress: string): Promise<Response> {
  const url = new URL(request.url);
  const answer = await front.answer({
    method: request.method,
    target: url.pathname + url.search,
    headers: request.headers,
    webHeaders: () => request.headers,
    clientAddress,
    body: bodySourceOf(request),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const line of value) headers.append(name, line);
    else headers.set(name, value);
  }
  // A web `Response` refuses any body, even an empty one, with a null-body status (the payment
  // routes' preflight is a 204); Node leaves a HEAD answer's body out itself.
  const noBody = request.method === 'HEAD' || answer.status === 204 || answer.status === 304;
  return new Response(noBody ? null : (answer.body as BodyInit), { status: answer.status, headers });
}
