// What the Node server (scripts/start.mjs) answers itself, before any handler of the app sees
// the request. (A raw target with a dot segment is the API front's to refuse:
// src/lib/server/http/request-target.ts.)

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
