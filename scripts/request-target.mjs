// The raw request target, checked before SvelteKit sees it. adapter-node parses the target
// with the WHATWG URL parser, which resolves `..` and `%2e%2e` segments (and treats `\` as
// `/`), so `/api/vaults/%2e%2e?x=1` reaches SvelteKit as `/api/?x=1` and is redirected
// (308, query repeated) before the server's own hook can refuse it. A target with a dot
// segment is never a client's honest request (browsers and HTTP clients resolve them), so
// it is marked here and routed to `/api` without its query; the hook answers it with
// 400 PATH_MALFORMED in the JSON envelope (src/hooks.server.ts).

/** The property of the Node request that carries the refusal reason to the hook. */
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
