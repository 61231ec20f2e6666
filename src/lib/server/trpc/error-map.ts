/**
 * Maps errors to the spec's statuses and envelopes (spec 7). Domain code throws SvcError
 * with a stable code; this table is the only place that knows which HTTP status it gets.
 */
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { findSvcError, SvcError, type ErrorIssue } from '../errors';
import type { SvcMeta } from './init';

/** Status of each code. A code not listed here falls back on its tRPC error class. */
export const STATUS_BY_CODE: Record<string, number> = {
  // 400
  BODY_MALFORMED_JSON: 400,
  BODY_NOT_OBJECT: 400,
  BODY_CONTENT_TYPE: 400,
  INPUT_INVALID: 400,
  NOW_ISO_INVALID: 400,
  INPUT_TEXT_INVALID: 400,
  PATH_MALFORMED: 400,
  CREDENTIAL_FIELD_REJECTED: 400,
  COIL_SHAPE: 400,
  SYMBOL_SPACE_CONFUSION: 400,
  PROMPT_REQUIRED: 400,
  // 401 / 403 / 404 / 405 / 409
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  // 413 / 422 / 429
  BODY_TOO_LARGE: 413,
  COIL_INVALID: 422,
  CAPSULE_COMPILE: 422,
  RATE_LIMITED: 429,
  // 5xx
  OUTPUT_GUARD: 500,
  INTERNAL: 500,
  PARTNER_HTTP_ERROR: 502,
  PARTNER_TIMEOUT: 502,
  PARTNER_INVALID_OUTPUT: 502,
  GUARDRAIL_REJECTED: 502,
  PARTNER_NOT_CONFIGURED: 503,
  LANE_NOT_ENABLED: 503,
  FACILITATOR_NOT_CONFIGURED: 503,
};

/** Lets a later capability register the statuses of its own codes, once, at import time. */
export function registerErrorStatuses(statuses: Record<string, number>): void {
  for (const [code, status] of Object.entries(statuses)) {
    if (STATUS_BY_CODE[code] !== undefined && STATUS_BY_CODE[code] !== status) {
      throw new Error(`error code ${code} is already mapped to ${STATUS_BY_CODE[code]}`);
    }
    STATUS_BY_CODE[code] = status;
  }
}

const TRPC_FALLBACK: Record<string, { status: number; code: string }> = {
  PARSE_ERROR: { status: 400, code: 'BODY_MALFORMED_JSON' },
  BAD_REQUEST: { status: 400, code: 'INPUT_INVALID' },
  UNAUTHORIZED: { status: 401, code: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, code: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  METHOD_NOT_SUPPORTED: { status: 405, code: 'METHOD_NOT_ALLOWED' },
  CONFLICT: { status: 409, code: 'CONFLICT' },
  PAYLOAD_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, code: 'BODY_CONTENT_TYPE' },
  UNPROCESSABLE_CONTENT: { status: 422, code: 'UNPROCESSABLE' },
  TOO_MANY_REQUESTS: { status: 429, code: 'RATE_LIMITED' },
};

export function statusForCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}

/** The tRPC error class for a status, so the /trpc endpoint answers the same status as REST. */
export function trpcCodeForStatus(status: number): TRPCError['code'] {
  switch (status) {
    // tRPC errors cannot be 2xx. The one 202 answer (an x402 settlement whose outcome is
    // unknown because the facilitator did not answer) is an upstream timeout on /trpc; its
    // code, X402_SETTLEMENT_UNKNOWN, still says "do not pay again".
    case 202:
      return 'GATEWAY_TIMEOUT';
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 402:
      return 'PAYMENT_REQUIRED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_SUPPORTED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 422:
      return 'UNPROCESSABLE_CONTENT';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 502:
      return 'BAD_GATEWAY';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    case 504:
      return 'GATEWAY_TIMEOUT';
    default:
      return 'INTERNAL_SERVER_ERROR';
  }
}

/** A custom zod issue may name its own stable code in `params.code` (e.g. `COIL_EXECUTION_MODE`). */
function issueCode(issue: ZodError['issues'][number]): string {
  const own = issue.code === 'custom' ? (issue.params as { code?: unknown } | undefined)?.code : undefined;
  return typeof own === 'string' ? own : issue.code.toUpperCase();
}

/**
 * Field names the caller chose (record keys, unknown keys) are shown only when they read as
 * names: a key that is a sentence is the caller's text, and an error must not relay it.
 */
const NAME_LIKE = /^[A-Za-z_$][\w$-]{0,63}$/;
const shownKey = (key: PropertyKey) => (typeof key === 'number' || NAME_LIKE.test(String(key)) ? String(key) : '(unnamed)');

/**
 * Field-level issues of a zod failure. An unknown key is named by its path, one issue per
 * key: zod's own message would quote the key inside a sentence, and no error message quotes
 * the request.
 */
export function zodIssues(error: Pick<ZodError, 'issues'>): ErrorIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(shownKey);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ code: 'UNRECOGNIZED_KEYS', message: 'unknown field', path: [...path, shownKey(key)].join('.') }));
    }
    return [{ code: issueCode(issue), message: issue.message, path: path.join('.') }];
  });
}

function inputErrorCode(meta: SvcMeta | undefined, issues: ErrorIssue[]): string {
  const rule = meta?.inputErrorCode;
  if (!rule) return 'INPUT_INVALID';
  return typeof rule === 'string' ? rule : rule(issues[0]?.path ?? '', issues[0]);
}

/**
 * Normalises anything thrown while answering into a SvcError: our own errors keep their
 * code; zod input failures become 400 with field-level issues; tRPC's own errors map by
 * class; anything else is an internal error whose details are not disclosed.
 */
export function toSvcError(error: unknown, meta: SvcMeta | undefined): SvcError {
  const own = findSvcError(error);
  if (own) return own;
  if (error instanceof TRPCError) {
    const cause = error.cause;
    if (error.code === 'BAD_REQUEST' && cause instanceof ZodError) {
      const issues = zodIssues(cause);
      return new SvcError(inputErrorCode(meta, issues), 'The request did not match the expected shape', { issues });
    }
    if (error.code === 'BAD_REQUEST' && cause && (cause as Error).name === 'ZodError') {
      const issues = zodIssues(cause as ZodError);
      return new SvcError(inputErrorCode(meta, issues), 'The request did not match the expected shape', { issues });
    }
    const fallback = TRPC_FALLBACK[error.code];
    if (fallback) {
      const message = error.code === 'NOT_FOUND' ? 'No such route' : error.message;
      return new SvcError(fallback.code, message);
    }
  }
  return new SvcError('INTERNAL', 'Internal error');
}

/** Re-throws a SvcError as the tRPC error of its status so /trpc answers the same status. */
export function asTrpcError(error: SvcError): TRPCError {
  return new TRPCError({ code: trpcCodeForStatus(statusForCode(error.code)), message: error.message, cause: error });
}

/**
 * An `inputErrorCode` that answers SYMBOL_SPACE_CONFUSION when a ticker and a chain address
 * traded places (the first failing field says so), and `code` for any other shape problem.
 */
export function symbolSpaceAware(code: string): (path: string, issue?: ErrorIssue) => string {
  return (_path, issue) => (issue?.code === 'SYMBOL_SPACE_CONFUSION' ? 'SYMBOL_SPACE_CONFUSION' : code);
}
