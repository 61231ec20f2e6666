/**
 * Maps errors to the spec's statuses and envelopes (interface 7). Domain code throws SvcError
 * with a stable code; this table is the only place that knows which HTTP status it gets.
 */
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { databaseUnavailable, isDatabaseUnavailable } from '../db/unavailable';
import { findSvcError, SvcError, type ErrorIssue } from '../errors';
import type { SvcMeta } from './meta';

/**
 * The HTTP status of every code the service throws: one explicit table, read by nothing
 * but `statusForCode`. A new code gets its line here (tests/unit/error-map.test.ts fails for a
 * thrown code that has none); a code not listed answers 500.
 */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  // --- shared HTTP layer and input (400) ---
  BODY_MALFORMED_JSON: 400,
  BODY_NOT_OBJECT: 400,
  BODY_CONTENT_TYPE: 400,
  INPUT_INVALID: 400,
  NOW_ISO_INVALID: 400,
  INPUT_TEXT_INVALID: 400,
  INPUT_NUMBER_INVALID: 400,
  PATH_MALFORMED: 400,
  BATCH_TOO_LARGE: 400,
  CREDENTIAL_FIELD_REJECTED: 400,
  UNPROCESSABLE: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  BODY_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  OUTPUT_GUARD: 500,
  INTERNAL: 500,

  // --- tools and strategist ---
  COIL_SHAPE: 400,
  SYMBOL_SPACE_CONFUSION: 400,
  PROMPT_REQUIRED: 400,
  PROMPT_TOO_LONG: 400,
  PREFERENCES_INFEASIBLE: 400,
  THESIS_NOT_EXPRESSIBLE: 422,
  RECEIPT_SHAPE: 400,
  MANIFEST_NOT_FOUND: 404,
  RECEIPT_NOT_FOUND: 404,
  RECEIPT_NOT_LOGGED: 404,
  TREE_SIZE_OUT_OF_RANGE: 422,
  TILE_NOT_FOUND: 404,
  COIL_INVALID: 422,
  CAPSULE_COMPILE: 422,
  SHARE_CARD_REJECTED: 422,
  FORK_PARENT_NOT_FOUND: 422,
  FORK_PARENT_MISMATCH: 422,
  PARTNER_HTTP_ERROR: 502,
  PARTNER_TIMEOUT: 502,
  PARTNER_INVALID_OUTPUT: 502,
  GUARDRAIL_REJECTED: 502,
  PARTNER_NOT_CONFIGURED: 503,

  // --- stocks ---
  STOCK_INTENT_SHAPE: 400,
  RECONCILE_REFERENCE_REQUIRED: 400,
  VAULT_REBALANCE_NOT_ALLOWED_HERE: 403,
  PARTNER_EXTERNAL_VERIFICATION_REQUIRED: 403,
  STOCK_JOB_UNKNOWN: 404,
  STOCK_RECEIPT_UNKNOWN: 404,
  PLAN_HASH_MISMATCH: 409,
  RECEIPT_REFERENCE_MISMATCH: 409,
  RECEIPT_NOT_SUBMITTABLE: 409,
  SUBMIT_IN_PROGRESS: 409,
  PLAN_EXPIRED: 409,
  PLAN_EXECUTOR_MISMATCH: 409,
  STOCK_INTENT_INVALID: 422,
  BASKET_INVALID: 422,
  BASKET_UNKNOWN: 404,
  BASKET_HASH_MISMATCH: 409,
  BASKET_GATES_FAILED: 409,
  COMMAND_VENUE_PHRASE_MISSING: 500,
  LANE_NOT_ENABLED: 503,

  // --- autonomy ---
  ACTIVITY_SHAPE: 400,
  AUTONOMY_GATE_BLOCKED: 422,
  COMMAND_PACK_INVALID: 422,
  AUTONOMY_RECEIPT_INVALID: 422,

  // --- vaults, deposit packs, Mode B, vault rail and analysis ---
  AMOUNT_MALFORMED: 400,
  AMOUNT_NOT_POSITIVE: 400,
  AMOUNT_TOO_MANY_DECIMALS: 400,
  AMOUNT_ABOVE_PACK_MAX: 400,
  RECEIVER_MALFORMED: 400,
  RECEIVER_ZERO_ADDRESS: 400,
  RECEIVER_IS_VAULT: 400,
  RECEIVER_IS_USDG_TOKEN: 400,
  EXPIRY_OUT_OF_BOUNDS: 400,
  PACK_GENERATED_AT_INVALID: 400,
  DEPOSIT_STATUS_ID_INVALID: 400,
  TX_HASH_MALFORMED: 400,
  SHARES_MALFORMED: 400,
  SHARES_NOT_POSITIVE: 400,
  DRIFT_THRESHOLD_INVALID: 400,
  MIN_TRADE_INVALID: 400,
  FEE_CLAIM_SHAPE: 400,
  FEE_CONFIG_SHAPE: 400,
  VAULT_COMPOSITION_SHAPE: 400,
  VAULT_COMPARISON_SHAPE: 400,
  REBALANCE_REPORT_SHAPE: 400,
  REWARD_PLAN_SHAPE: 400,
  OWNER_APPROVAL_REQUIRED: 403,
  RECEIVER_NOT_PARTNER_WALLET: 403,
  VAULT_UNKNOWN: 404,
  DEPOSIT_JOB_NOT_FOUND: 404,
  ACK_HASH_MISMATCH: 409,
  CONFIRM_PLAN_HASH_MISMATCH: 409,
  PACK_EXPIRED: 409,
  PLAN_ALREADY_SUBMITTED: 409,
  PACK_HASH_MISMATCH: 409,
  DEPOSIT_GATE_CLOSED: 409,
  VAULT_MANIFEST_INVALID: 422,
  FEE_CLAIM_INVALID: 422,
  PERF_FEE_CAP: 422,
  PROTOCOL_SHARE_CAP: 422,
  VAULT_COMPOSITION_INVALID: 422,
  VAULT_COMPARISON_INVALID: 422,
  FEE_AMOUNT_ABOVE_MAX: 422,
  VAULT_REBALANCE_MODE_REQUIRED: 422,
  ACK_PIN_UNVERIFIABLE: 503,
  MODE_B_DISABLED: 503,
  PARTNER_KEY_MISSING: 503,

  // --- x402 ---
  X402_PAYMENT_MALFORMED: 400,
  X402_PAYMENT_MISSING: 400,
  X402_PAYMENT_REQUIRED: 402,
  X402_PAYMENT_REJECTED: 402,
  X402_SETTLEMENT_REFUSED: 402,
  X402_AUTHORIZATION_EXPIRED_UNUSED: 402,
  X402_SERVICE_UNKNOWN: 404,
  X402_RECEIPT_NOT_FOUND: 404,
  X402_AUTHORIZATION_NOT_FOUND: 404,
  X402_NONCE_USED: 409,
  X402_SETTLEMENT_PENDING_RECONCILIATION: 409,
  X402_AUTHORIZATION_USED_ELSEWHERE: 409,
  // Accepted, outcome unknown: deliberately not an error status, so no client reads it as
  // "payment failed, pay again".
  X402_SETTLEMENT_UNKNOWN: 202,
  X402_FACILITATOR_CALL_REJECTED: 502,
  X402_SETTLEMENT_REPORT_MISMATCH: 502,
  FACILITATOR_NOT_CONFIGURED: 503,

  // --- auth and wallet-scoped routes ---
  SIWE_MESSAGE_MALFORMED: 400,
  CURSOR_INVALID: 400,
  SIWE_DOMAIN_MISMATCH: 401,
  SIWE_URI_MISMATCH: 401,
  SIWE_VERSION_UNSUPPORTED: 401,
  SIWE_CHAIN_UNSUPPORTED: 401,
  SIWE_ISSUED_IN_FUTURE: 401,
  SIWE_MESSAGE_EXPIRED: 401,
  SIWE_NOT_YET_VALID: 401,
  SIWE_NONCE_UNKNOWN: 401,
  SIWE_NONCE_EXPIRED: 401,
  SIWE_NONCE_REUSED: 401,
  SIWE_SIGNATURE_INVALID: 401,
  SESSION_REQUIRED: 401,
  ORIGIN_MISMATCH: 403,
  COIL_NOT_FOUND: 404,
  SIWE_SIGNATURE_CHECK_UNAVAILABLE: 503,

  // --- the database ---
  DATABASE_UNAVAILABLE: 503,
};

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
 * class; a database that did not answer is 503 DATABASE_UNAVAILABLE (db/unavailable.ts);
 * anything else is an internal error whose details are not disclosed.
 */
export function toSvcError(error: unknown, meta: SvcMeta | undefined): SvcError {
  const own = findSvcError(error);
  if (own) return own;
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
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

/**
 * Re-throws a SvcError as the tRPC error of its status so /trpc answers the same status. Like
 * the SvcError it carries (errors.ts), it captures no stack trace: it is a refusal.
 */
export function asTrpcError(error: SvcError): TRPCError {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new TRPCError({ code: trpcCodeForStatus(statusForCode(error.code)), message: error.message, cause: error });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * An `inputErrorCode` that answers SYMBOL_SPACE_CONFUSION when a ticker and a chain address
 * traded places (the first failing field says so), and `code` for any other shape problem.
 */
export function symbolSpaceAware(code: string): (path: string, issue?: ErrorIssue) => string {
  return (_path, issue) => (issue?.code === 'SYMBOL_SPACE_CONFUSION' ? 'SYMBOL_SPACE_CONFUSION' : code);
}
