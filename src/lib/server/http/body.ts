/**
 * Reads a POST body with a hard byte cap, counted as the bytes stream in: a missing or
 * false content-length, or a chunked body, is still cut off at the cap (interface 8).
 */
import { SvcError } from '../errors';

export const MAX_BODY_BYTES = 256 * 1024;
/**
 * After the cap is passed the rest is read and discarded (never buffered) up to this bound,
 * so that the client receives the 413 instead of a reset connection; past it the stream
 * is cancelled.
 */
const DRAIN_BYTES = 8 * 1024 * 1024;

export interface ParsedBody {
  text: string;
  value: Record<string, unknown>;
}

function tooLarge(limit: number, closeConnection = false): SvcError {
  return new SvcError('BODY_TOO_LARGE', `The request body exceeds ${limit} bytes`, {
    issues: [{ code: 'BODY_TOO_LARGE', message: `limit is ${limit} bytes (256 KB)` }],
    // An unread body would otherwise sit in a kept-alive connection.
    headers: closeConnection ? { connection: 'close' } : undefined,
  });
}

/** The cap for a body that arrived already parsed (an MCP tool's arguments): its JSON byte size. */
export function requireWithinBodyCap(value: unknown, limit = MAX_BODY_BYTES): void {
  if (Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') > limit) throw tooLarge(limit);
}

/**
 * A request body as the HTTP front sees it, whichever server received it: a Node request is
 * an async iterable of Buffers, and so is a web `ReadableStream`.
 */
export interface BodySource {
  contentType: string | null;
  contentLength: string | null;
  /** The bytes as they arrive; null when the request has no body. */
  chunks: AsyncIterable<Uint8Array> | null;
}

/** Collects the body bytes, stopping as soon as the cap is passed (see DRAIN_BYTES for the rest). */
export async function readBodyCapped(source: BodySource, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = source.contentLength;
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > DRAIN_BYTES) throw tooLarge(limit, true);
  if (!source.chunks) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let overCap = false;
  // Leaving the loop early (past DRAIN_BYTES) ends the source: a web stream is cancelled, a
  // Node request destroyed with its connection.
  for await (const chunk of source.chunks) {
    total += chunk.byteLength;
    if (total > limit) overCap = true;
    if (overCap) {
      if (total > DRAIN_BYTES) break;
      continue;
    }
    chunks.push(chunk);
  }
  if (overCap) throw tooLarge(limit);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/**
 * Reads and discards a body nobody read (the request was refused before its body mattered),
 * up to the same bound as after the cap. Without it a refused request's body would sit unread
 * in a kept-alive connection and stall the next request on it.
 */
export async function discardBody(source: BodySource): Promise<void> {
  if (!source.chunks) return;
  let total = 0;
  try {
    for await (const chunk of source.chunks) {
      total += chunk.byteLength;
      if (total > DRAIN_BYTES) break;
    }
  } catch {
    // The client went away: nothing left to discard.
  }
}

// Decoders keep no state between whole-buffer decodes, so one of each serves every request.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LENIENT_UTF8 = new TextDecoder('utf-8');

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

export interface ReadBodyOptions {
  limit?: number;
  /**
   * Runs on every non-empty body once it is within the cap and before any other check reads
   * it, whatever its content type: the parsed JSON value when the bytes parse, else the
   * decoded text. The credential guard goes here, so a credential is refused (and never
   * echoed) even in a body that would be refused for its content type.
   */
  inspect?: (value: unknown) => void;
}

function contentTypeRefused(): SvcError {
  return new SvcError('BODY_CONTENT_TYPE', 'POST bodies must be JSON (content-type: application/json)', {
    issues: [{ code: 'BODY_CONTENT_TYPE', message: 'send content-type: application/json' }],
  });
}

/**
 * Reads and parses a JSON body of any JSON value (the MCP door takes a batch, an array, and
 * answers a body that is no JSON-RPC message in the protocol's own words). An empty body
 * stands for `{}` (a POST that takes no input) when it declares no content type or a JSON
 * one: a declared content type that is not JSON is refused with or without a body, so the
 * rule never depends on whether bytes came. A non-empty body must be `application/json` and
 * valid UTF-8 JSON. No error message quotes the body.
 */
export async function readJsonBody(source: BodySource, options: ReadBodyOptions = {}): Promise<{ text: string; value: unknown }> {
  const bytes = await readBodyCapped(source, options.limit ?? MAX_BODY_BYTES);
  if (bytes.byteLength === 0) {
    if (source.contentType !== null && !isJsonContentType(source.contentType)) throw contentTypeRefused();
    return { text: '{}', value: {} };
  }
  let wellFormed = true;
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    wellFormed = false;
    text = LENIENT_UTF8.decode(bytes);
  }
  let parsed: { ok: true; value: unknown } | { ok: false };
  try {
    parsed = { ok: true, value: JSON.parse(text) };
  } catch {
    // The parser's own message quotes the body around the error: never passed on.
    parsed = { ok: false };
  }
  options.inspect?.(parsed.ok ? parsed.value : text);

  if (!isJsonContentType(source.contentType)) throw contentTypeRefused();
  if (!wellFormed) {
    throw new SvcError('BODY_MALFORMED_JSON', 'The request body is not valid UTF-8', {
      issues: [{ code: 'BODY_ENCODING', message: 'the body must be UTF-8 encoded JSON' }],
    });
  }
  if (!parsed.ok) {
    throw new SvcError('BODY_MALFORMED_JSON', 'The request body is not valid JSON', {
      issues: [{ code: 'BODY_MALFORMED_JSON', message: 'the body does not parse as JSON' }],
    });
  }
  return { text, value: parsed.value };
}

/** Reads and parses a JSON body (`readJsonBody`) that must be an object. */
export async function readJsonObjectBody(source: BodySource, options: ReadBodyOptions = {}): Promise<ParsedBody> {
  const { text, value } = await readJsonBody(source, options);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SvcError('BODY_NOT_OBJECT', 'The request body must be a JSON object', {
      issues: [
        {
          code: 'BODY_NOT_OBJECT',
          message: `expected an object, received ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
        },
      ],
    });
  }
  return { text, value: value as Record<string, unknown> };
}
