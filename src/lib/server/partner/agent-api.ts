/**
 * The external partner's agent API (interface 4.5), the one client every capability uses (the
 * partner strategist, the stock lane and vault Mode B):
 *   POST {partner_api_url}/agent/prompt   with X-API-Key and { prompt }  → { jobId }
 *   GET  {partner_api_url}/agent/job/{id} with X-API-Key                 → the job
 * The key travels only in the X-API-Key header. Failures become stable 502 codes whose
 * messages never carry the partner's URL, its key or its free text.
 */
import { getAddress, isAddress } from 'viem';
import { SvcError } from '../errors';

export const PARTNER_JOB_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type PartnerJobStatus = (typeof PARTNER_JOB_STATUSES)[number];

export function isPartnerJobStatus(value: unknown): value is PartnerJobStatus {
  return typeof value === 'string' && (PARTNER_JOB_STATUSES as readonly string[]).includes(value);
}

export interface PartnerEndpoint {
  apiUrl: string;
  apiKey: string;
  /** Upper bound of one call (PARTNER_TIMEOUT_MS). */
  timeoutMs: number;
}

export const PARTNER_ERROR = {
  HTTP: 'PARTNER_HTTP_ERROR',
  TIMEOUT: 'PARTNER_TIMEOUT',
  INVALID_OUTPUT: 'PARTNER_INVALID_OUTPUT',
  EXTERNAL_VERIFICATION_REQUIRED: 'PARTNER_EXTERNAL_VERIFICATION_REQUIRED',
} as const;

/** A non-2xx answer of the partner, with its status (a caller may retry an idempotent read on 5xx). */
export class PartnerHttpError extends SvcError {
  constructor(
    readonly httpStatus: number,
    what: string,
  ) {
    super(PARTNER_ERROR.HTTP, `The partner answered the ${what} with HTTP ${httpStatus}`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: `partner HTTP status ${httpStatus}` }],
    });
  }
}

const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isPlausibleJobId(value: unknown): value is string {
  return typeof value === 'string' && JOB_ID.test(value);
}

/**
 * Whether a refusal asks for verification in the partner's own console (identity or
 * location). The partner states this requirement; the service neither performs it nor gates
 * on jurisdiction, it only passes it through.
 */
export function asksForExternalVerification(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const fields = ['error', 'message', 'code', 'reason'].map((k) => (body as Record<string, unknown>)[k]);
  const text = fields.filter((v): v is string => typeof v === 'string').join(' ');
  return /verif(y|ication)/i.test(text);
}

const isAbort = (error: unknown) => ['TimeoutError', 'AbortError'].includes((error as Error)?.name);

/** Per-call options: a caller with an overall deadline passes the time it has left. */
export interface PartnerCallOptions {
  timeoutMs?: number;
}

async function call(
  endpoint: PartnerEndpoint,
  method: 'GET' | 'POST',
  path: string,
  what: string,
  body: unknown,
  options: PartnerCallOptions,
): Promise<unknown> {
  const timeoutMs = Math.max(1, Math.min(endpoint.timeoutMs, options.timeoutMs ?? endpoint.timeoutMs));
  const timedOut = (detail: string) =>
    new SvcError(PARTNER_ERROR.TIMEOUT, `The partner did not answer the ${what} within ${timeoutMs} ms`, {
      issues: [{ code: PARTNER_ERROR.TIMEOUT, message: detail }],
    });
  let response: Response;
  try {
    response = await fetch(`${endpoint.apiUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'X-API-Key': endpoint.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (isAbort(error)) throw timedOut('no answer within PARTNER_TIMEOUT_MS');
    throw new SvcError(PARTNER_ERROR.HTTP, `The partner could not be reached for the ${what}`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: 'connection failed' }],
    });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (isAbort(error)) throw timedOut('the answer body did not complete in time');
    throw new SvcError(PARTNER_ERROR.HTTP, `The partner's answer to the ${what} broke off`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: 'the answer body did not complete' }],
    });
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) {
      throw new SvcError(PARTNER_ERROR.INVALID_OUTPUT, `The partner's answer to the ${what} was not JSON`, {
        issues: [{ code: PARTNER_ERROR.INVALID_OUTPUT, message: 'malformed JSON' }],
      });
    }
  }
  if (!response.ok) {
    if (response.status >= 400 && response.status < 500 && asksForExternalVerification(json)) {
      throw new SvcError(
        PARTNER_ERROR.EXTERNAL_VERIFICATION_REQUIRED,
        "The partner requires verification in its own console before it accepts this job. This is the partner's requirement, not a gate of this service: the service collects no location, performs no verification and does not gate on jurisdiction. Complete it with the partner, then submit the same confirmed plan again.",
        {
          issues: [
            {
              code: PARTNER_ERROR.EXTERNAL_VERIFICATION_REQUIRED,
              message: `the partner answered HTTP ${response.status} asking for verification in its console`,
            },
          ],
        },
      );
    }
    throw new PartnerHttpError(response.status, what);
  }
  return json;
}

/** What a reachability check of the partner's API found (readiness and the status page). */
export type PartnerReachability = { state: 'answered'; httpStatus: number } | { state: 'timeout' | 'unreachable' };

/**
 * Whether the partner's API answers at all: one GET of its base URL that carries no key, no
 * body and nothing of any caller. Any answer is an answer; what it says is not read.
 */
export async function checkPartnerReachable(apiUrl: string, timeoutMs: number): Promise<PartnerReachability> {
  try {
    const response = await fetch(apiUrl, {
      method: 'GET',
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { state: 'answered', httpStatus: response.status };
  } catch (error) {
    return { state: isAbort(error) ? 'timeout' : 'unreachable' };
  }
}

/** Sends one prompt; resolves to the partner's job id. */
export async function submitPartnerPrompt(
  endpoint: PartnerEndpoint,
  prompt: string,
  options: PartnerCallOptions = {},
): Promise<{ jobId: string; partnerStatus: PartnerJobStatus }> {
  const json = (await call(endpoint, 'POST', '/agent/prompt', 'job submission', { prompt }, options)) as
    Record<string, unknown> | undefined;
  const jobId = json?.jobId;
  if (!isPlausibleJobId(jobId)) {
    throw new SvcError(PARTNER_ERROR.INVALID_OUTPUT, 'The partner accepted the request but returned no usable job id', {
      issues: [{ code: PARTNER_ERROR.INVALID_OUTPUT, message: 'missing or malformed jobId' }],
    });
  }
  return { jobId, partnerStatus: isPartnerJobStatus(json?.status) ? json.status : 'pending' };
}

export interface PartnerJob {
  partnerStatus: PartnerJobStatus;
  /**
   * The agent's answer of a completed job, as text (an object answer is serialised). It is
   * the partner's word: callers parse or search it, never relay it as a statement.
   */
  response?: string;
  /** The partner's error text of a failed job (its word, searched, never relayed). */
  error?: string;
  /** Hashes the job lists in `transactions[].hash` (the partner's word: candidates to verify on chain, never proof). */
  transactionHashes: string[];
  /**
   * The wallet the job reports as trading for it (`walletAddress`, checksummed): the plan's
   * executor on the partner's word. A trade is still proven only by the chain.
   */
  walletAddress?: string;
}

const TX_HASH_TEXT = /^0x[0-9a-fA-F]{64}$/;

/** Reads one job; resolves to its status (one of the five documented ones) and its answer. */
export async function readPartnerJob(endpoint: PartnerEndpoint, jobId: string, options: PartnerCallOptions = {}): Promise<PartnerJob> {
  const json = (await call(endpoint, 'GET', `/agent/job/${encodeURIComponent(jobId)}`, 'job read', undefined, options)) as
    Record<string, unknown> | undefined;
  const status = json?.status;
  if (!isPartnerJobStatus(status)) {
    throw new SvcError(PARTNER_ERROR.INVALID_OUTPUT, "The partner's job answer carried no known status", {
      issues: [{ code: PARTNER_ERROR.INVALID_OUTPUT, message: 'status is not one of pending, processing, completed, failed, cancelled' }],
    });
  }
  const answer = json?.response ?? json?.result;
  const response = typeof answer === 'string' ? answer : answer && typeof answer === 'object' ? JSON.stringify(answer) : undefined;
  const error = typeof json?.error === 'string' ? json.error : undefined;
  const listed = Array.isArray(json?.transactions) ? json.transactions : [];
  const transactionHashes = listed
    .map((t) => (t && typeof t === 'object' ? (t as Record<string, unknown>).hash : undefined))
    .filter((h): h is string => typeof h === 'string' && TX_HASH_TEXT.test(h))
    .map((h) => h.toLowerCase());
  const wallet = json?.walletAddress;
  const walletAddress = typeof wallet === 'string' && isAddress(wallet, { strict: false }) ? getAddress(wallet) : undefined;
  return { partnerStatus: status, response, error, transactionHashes, ...(walletAddress ? { walletAddress } : {}) };
}
