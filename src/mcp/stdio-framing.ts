/**
 * The stdio door's JSON-RPC framing. The SDK's stdio transport (1.32.2) reads one message per
 * line and, for a line that is not JSON or no message, calls `onerror` and answers nothing,
 * and it has no batches. JSON-RPC 2.0 answers both (`-32700` Parse error, `-32600` Invalid
 * Request, each with `id: null`), and MCP 2025-03-26 has batches. So the lines are read
 * here first: a line that is not JSON or no message is answered here; a batch is framed by
 * the rules both doors share (src/mcp/framing.ts) under the version this session negotiated,
 * its messages go to the SDK's transport one per line, and their responses are gathered into
 * one array line. Everything else (the messages themselves, the answers, the lifecycle) stays
 * the SDK's transport's.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { frame } from './framing';
import { PARSE_ERROR, jsonRpcError, type JsonRpcErrorResponse } from './jsonrpc';

interface PendingBatch {
  awaiting: Set<RequestId>;
  answers: unknown[];
}

/** A stdio transport of the SDK behind the framing of `frame`, reading `input` and writing `output`. */
export function framedStdioTransport(input: Readable = process.stdin, output: Writable = process.stdout): StdioServerTransport {
  const lines = new PassThrough();
  const transport = new StdioServerTransport(lines, output);
  const writeLine = (value: unknown) => output.write(JSON.stringify(value) + '\n');
  /** The version initialize negotiated (the SDK server answers the requested one when it supports it, else the latest). */
  let protocolVersion: string | undefined;
  const batchOf = new Map<RequestId, PendingBatch>();

  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    const batch = id === undefined ? undefined : batchOf.get(id);
    if (!batch || id === undefined) return send(message);
    batchOf.delete(id);
    batch.awaiting.delete(id);
    batch.answers.push(message);
    if (batch.awaiting.size === 0) writeLine(batch.answers);
  };

  function deliver(message: JSONRPCMessage): void {
    if (isInitializeRequest(message)) {
      const requested = message.params.protocolVersion;
      protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    }
    lines.write(JSON.stringify(message) + '\n');
  }

  function readLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      writeLine(jsonRpcError(PARSE_ERROR, 'Parse error: the line is not valid JSON'));
      return;
    }
    const framed = frame(value, protocolVersion);
    if (framed.kind === 'refused') return void writeLine(framed.error);
    if (framed.kind === 'message') return deliver(framed.message);
    const requests = framed.messages.filter(isJSONRPCRequest);
    const refused: JsonRpcErrorResponse[] = framed.refused;
    if (requests.length === 0) {
      // Notifications and responses alone are answered with nothing, but a member that is no message is.
      if (refused.length) writeLine(refused);
    } else {
      const batch: PendingBatch = { awaiting: new Set(requests.map((r) => r.id)), answers: [...refused] };
      for (const r of requests) batchOf.set(r.id, batch);
    }
    for (const message of framed.messages) deliver(message);
  }

  let buffered = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      // The SDK's own bound on an unfinished line: past it, the line is dropped as it would be there.
      buffered = '';
      writeLine(jsonRpcError(PARSE_ERROR, 'Parse error: a line longer than the transport reads'));
      return;
    }
    let end: number;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      readLine(line);
    }
  });
  input.on('end', () => lines.end());
  return transport;
}
