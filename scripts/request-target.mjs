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

/**
 * The answer to a request Node's HTTP parser refused before any handler saw it (a request line
 * and headers over Node's 16 KB limit, bytes that are not HTTP, a head that never completed):
 * the same JSON envelope as every other refusal, instead of Node's bare status line. Written to
 * the socket, which is then closed: nothing more of such a connection can be trusted.
 * @param {{ code?: string }} error the parser's error
 * @returns {string} the whole HTTP answer
 */
export function clientErrorAnswer(error) {
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'REQUEST_HEAD_TOO_LARGE', 'the request line and headers together must stay under 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'the request did not arrive in time']
        : [400, 'Bad Request', 'REQUEST_MALFORMED', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ error: { code, message: 'The request was refused before it was read', issues: [{ code, message }] } });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
