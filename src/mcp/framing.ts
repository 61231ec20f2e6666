/**
 * The JSON-RPC framing rules of both MCP doors, checked before the SDK's transports see a
 * message, because they do not (checked against @modelcontextprotocol/sdk 1.32.2):
 * - valid JSON that is no JSON-RPC 2.0 message is `-32600 Invalid Request` with `id: null`
 *   (the HTTP transport says `-32700 Parse error` for it, which JSON-RPC keeps for text that
 *   is not JSON; the stdio transport answers nothing);
 * - a batch (a JSON array) is taken only under the protocol version that has batches,
 *   2025-03-26: 2025-06-18 removed them, and the HTTP transport takes a batch under any
 *   version (the stdio transport under none). An initialize request may not be part of a
 *   batch (2025-03-26, lifecycle). A batch holds 1 to MAX_BATCH_CALLS (50) messages, the cap of
 *   a /trpc batch (the HTTP transport's own bound, 100, is not ours to choose); a larger one is
 *   refused whole, none of it run, with the BATCH_TOO_LARGE envelope and the invariants as
 *   the error's `data`. Each member that is no message gets its own `-32600` in the batch's
 *   answer, and the answer to a batch is an array (JSON-RPC 2.0, batch).
 */
import { isInitializeRequest, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { batchTooLargeError, MAX_BATCH_CALLS, restErrorBody } from '$lib/server/http/dispatch';
import { stampedError } from '$lib/server/trpc/init';
import { INVALID_REQUEST, jsonRpcError, type JsonRpcErrorResponse } from './jsonrpc';

/** The MCP protocol versions whose JSON-RPC layer has batches. */
export const BATCH_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26']);

export type Framed =
  /** One message, to hand to the transport. */
  | { kind: 'message'; message: JSONRPCMessage }
  /** The whole body refused with one error. */
  | { kind: 'refused'; error: JsonRpcErrorResponse }
  /** A batch taken: its messages, and the errors of its members that are no message. */
  | { kind: 'batch'; messages: JSONRPCMessage[]; refused: JsonRpcErrorResponse[] };

const invalidRequest = (why: string) => jsonRpcError(INVALID_REQUEST, `Invalid Request: ${why}`);
const NOT_A_MESSAGE = 'not a JSON-RPC 2.0 request, notification or response';

const isMessage = (value: unknown): value is JSONRPCMessage => JSONRPCMessageSchema.safeParse(value).success;

/**
 * What a parsed body (HTTP) or line (stdio) is. `protocolVersion` is the version the request
 * is under, undefined before one is negotiated.
 */
export function frame(value: unknown, protocolVersion: string | undefined): Framed {
  if (!Array.isArray(value))
    return isMessage(value) ? { kind: 'message', message: value } : { kind: 'refused', error: invalidRequest(NOT_A_MESSAGE) };
  if (protocolVersion === undefined)
    return {
      kind: 'refused',
      error: invalidRequest('no protocol version is negotiated yet, and the initialize request must not be part of a batch'),
    };
  if (!BATCH_PROTOCOL_VERSIONS.has(protocolVersion))
    return {
      kind: 'refused',
      error: invalidRequest(
        `MCP protocol version ${protocolVersion} has no JSON-RPC batches (only 2025-03-26 has them); send one message at a time`,
      ),
    };
  if (value.length === 0) return { kind: 'refused', error: invalidRequest('an empty batch') };
  if (value.length > MAX_BATCH_CALLS) {
    const refusal = batchTooLargeError(value.length);
    return {
      kind: 'refused',
      error: jsonRpcError(INVALID_REQUEST, `Invalid Request: ${refusal.message}`, restErrorBody(stampedError(refusal))),
    };
  }
  if (value.some((m) => isInitializeRequest(m)))
    return { kind: 'refused', error: invalidRequest('the initialize request must not be part of a batch') };
  const messages: JSONRPCMessage[] = [];
  const refused: JsonRpcErrorResponse[] = [];
  for (const member of value) {
    if (isMessage(member)) messages.push(member);
    else refused.push(invalidRequest(NOT_A_MESSAGE));
  }
  return { kind: 'batch', messages, refused };
}
