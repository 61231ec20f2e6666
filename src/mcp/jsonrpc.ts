/**
 * JSON-RPC 2.0 error answers of `POST /mcp` written outside the MCP SDK's transport: the API
 * front's refusals (size, rate, method, content type, a body that is not JSON) and the
 * door's own checks of a body's shape (src/mcp/http.ts). An MCP client reads a JSON-RPC
 * error; the REST envelope stays available to it, with its stable code, as the error's `data`.
 * No SDK import: the front loads this module with the server, the SDK only on the first
 * `/mcp` request.
 */
import type { SvcError } from '$lib/server/errors';
import { jsonAnswer, type ApiAnswer } from '$lib/server/http/answer';
import { statusForCode } from '$lib/server/trpc/error-map';
import { restErrorBody } from '$lib/server/http/dispatch';
import { stampedError } from '$lib/server/trpc/init';

/** JSON-RPC 2.0 error codes (jsonrpc.org/specification#error_object). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** The implementation-defined server error the MCP SDK's transport also answers its HTTP-level refusals with. */
export const SERVER_ERROR = -32000;

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Null when the request's id could not be read (a parse error, an invalid request). */
  id: null;
  error: { code: number; message: string; data?: unknown };
}

export function jsonRpcError(code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id: null, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The JSON-RPC code of a refusal by the API front. */
function codeOfRefusal(code: string): number {
  if (code === 'BODY_MALFORMED_JSON') return PARSE_ERROR;
  if (code === 'BODY_NOT_OBJECT') return INVALID_REQUEST;
  return SERVER_ERROR;
}

/**
 * A refusal of the API front as a JSON-RPC error, `id: null` (the body was not read as a
 * message), with the HTTP status and headers (`retry-after`, `allow`) the REST answer has.
 */
export function mcpRefusalAnswer(error: SvcError): ApiAnswer {
  const code = codeOfRefusal(error.code);
  const message = code === PARSE_ERROR ? `Parse error: ${error.message}` : error.message;
  // Stamped: every service envelope MCP answers carries the invariants, whatever refused.
  return jsonAnswer(statusForCode(error.code), JSON.stringify(jsonRpcError(code, message, restErrorBody(stampedError(error)))), {
    ...error.headers,
  });
}
