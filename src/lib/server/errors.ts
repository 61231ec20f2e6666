/**
 * The one error type domain code throws. It names a stable machine-readable `code` and
 * field-level `issues`; it knows nothing about HTTP. The HTTP layer maps codes to statuses
 * (src/lib/server/trpc/error-map.ts) and renders the spec's envelopes.
 */
export interface ErrorIssue {
  code: string;
  message: string;
  /** Dotted field path, when the issue is about one field. */
  path?: string;
}

export interface SvcErrorOptions {
  issues?: ErrorIssue[];
  /**
   * A complete response body that replaces the standard envelope. Only the strategist
   * failures use it (interface 4.2: `{ error, code, prompt }`).
   */
  body?: Record<string, unknown>;
  /** Response headers the error needs, e.g. `retry-after`. */
  headers?: Record<string, string>;
  /**
   * The error answers a tool or autonomy call, so every rendering of it carries the two
   * invariants of interface 1. Set at the procedure-call layer (`errorOfCall` in
   * trpc/init.ts) from the procedure's meta, never by domain code.
   */
  invariants?: boolean;
  cause?: unknown;
}

/**
 * A refusal is an answer, not a fault: it carries no stack trace. Nothing reads one (only
 * failures that are not SvcErrors are logged with their frames), and capturing it, then
 * formatting it when tRPC copies `stack` onto its own error, was a tenth of the CPU of an x402
 * 402 challenge (docs/performance.md).
 */
export class SvcError extends Error {
  readonly code: string;
  readonly issues: ErrorIssue[];
  readonly body?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly invariants: boolean;

  constructor(code: string, message: string, options: SvcErrorOptions = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'SvcError';
    this.code = code;
    this.issues = options.issues ?? [];
    this.body = options.body;
    this.headers = options.headers;
    this.invariants = options.invariants === true;
  }
}

/** Finds a SvcError in an error's cause chain (tRPC wraps thrown errors). */
export function findSvcError(error: unknown): SvcError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof SvcError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
