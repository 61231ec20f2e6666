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

/** Collects the body bytes, stopping (and cancelling the stream) as soon as the cap is passed. */
export async function readBodyCapped(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > DRAIN_BYTES) throw tooLarge(limit, true);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await drain(reader, total);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<void> {
  let total = seen;
  while (total <= DRAIN_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

/**
 * Reads and discards a body nobody read (the request was refused before its body mattered),
 * up to the same bound as after the cap, then cancels. Without it a refused request's body
 * would sit unread in a kept-alive connection and stall the next request on it.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  try {
    await drain(request.body.getReader(), 0);
  } catch {
    // The client went away: nothing left to discard.
  }
}

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

/**
 * Reads and parses a JSON object body. An empty body stands for `{}` (a POST that takes no
 * input); anything else must be `application/json`, valid UTF-8 JSON, and an object. No
 * error message quotes the body.
 */
export async function readJsonObjectBody(request: Request, options: ReadBodyOptions = {}): Promise<ParsedBody> {
  const bytes = await readBodyCapped(request, options.limit ?? MAX_BODY_BYTES);
  if (bytes.byteLength === 0) return { text: '{}', value: {} };
  let wellFormed = true;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    wellFormed = false;
    text = new TextDecoder('utf-8').decode(bytes);
  }
  let parsed: { ok: true; value: unknown } | { ok: false };
  try {
    parsed = { ok: true, value: JSON.parse(text) };
  } catch {
    // The parser's own message quotes the body around the error: never passed on.
    parsed = { ok: false };
  }
  options.inspect?.(parsed.ok ? parsed.value : text);

  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new SvcError('BODY_CONTENT_TYPE', 'POST bodies must be JSON (content-type: application/json)', {
      issues: [{ code: 'BODY_CONTENT_TYPE', message: 'send content-type: application/json' }],
    });
  }
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
  const value = parsed.value;
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
