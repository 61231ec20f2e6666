// The raw request target, checked before anything parses it. The WHATWG URL parser resolves
// `..` and `%2e%2e` segments (and treats `\` as `/`), so `/api/vaults/%2e%2e?x=1` would reach
// the app as `/api/?x=1` (SvelteKit even redirected it, 308 with the query repeated). A
// target with a dot segment is never a client's honest request (browsers and HTTP clients
// resolve them), so it is marked here and routed to `/api` without its query; the API front
// answers it with 400 PATH_MALFORMED in the JSON envelope (src/lib/server/http/front.ts).

/** The property of the Node request that carries the refusal reason to the API front. */
export const REFUSED_TARGET = Symbol.for('svc.refusedRequestTarget');

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Marks (and neutralises) a request whose target has a dot segment.
 * @param {{ url?: string, [REFUSED_TARGET]?: unknown }} req a Node request (only `url` is read)
 * @returns {'dot_segment' | undefined} the reason, or undefined when the target is fine
 */
export function screenRequestTarget(req) {
  const raw = typeof req.url === 'string' ? req.url : '/';
  const path = raw.split('?', 1)[0] ?? '';
  if (!path.split(/[\\/]/).some((segment) => DOT_SEGMENT.test(segment))) return undefined;
  req[REFUSED_TARGET] = 'dot_segment';
  req.url = '/api';
  return 'dot_segment';
}
