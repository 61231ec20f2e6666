/**
 * The external partner's agent API (spec 4.5): `POST {partner_api_url}/agent/prompt` with
 * `X-API-Key` and `{ prompt }` answers a `jobId`; `GET {partner_api_url}/agent/job/{jobId}`
 * reads the job. The key travels only in the `X-API-Key` header. Failures become stable 502
 * codes whose messages never carry the partner's URL, its key or its free text (which could
 * read as an execution claim the service cannot back).
 */
import { SvcError } from '../errors';
import { isPartnerJobStatus, type PartnerJobStatus } from './status';

export interface PartnerEndpoint {
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export const PARTNER_ERROR = {
  HTTP: 'PARTNER_HTTP_ERROR',
  TIMEOUT: 'PARTNER_TIMEOUT',
  INVALID_OUTPUT: 'PARTNER_INVALID_OUTPUT',
  EXTERNAL_VERIFICATION_REQUIRED: 'PARTNER_EXTERNAL_VERIFICATION_REQUIRED',
} as const;

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

function endpointUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

async function call(endpoint: PartnerEndpoint, method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(endpointUrl(endpoint.apiUrl, path), {
      method,
      headers: {
        accept: 'application/json',
        'X-API-Key': endpoint.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new SvcError(PARTNER_ERROR.TIMEOUT, `The partner did not answer the ${what} within ${endpoint.timeoutMs} ms`, {
        issues: [{ code: PARTNER_ERROR.TIMEOUT, message: 'no answer within PARTNER_TIMEOUT_MS' }],
      });
    }
    throw new SvcError(PARTNER_ERROR.HTTP, `The partner could not be reached for the ${what}`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: 'connection failed' }],
    });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new SvcError(PARTNER_ERROR.TIMEOUT, `The partner's answer to the ${what} did not arrive within ${endpoint.timeoutMs} ms`, {
        issues: [{ code: PARTNER_ERROR.TIMEOUT, message: 'the answer body did not complete in time' }],
      });
    }
    throw new SvcError(PARTNER_ERROR.HTTP, `The partner's answer to the ${what} broke off`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: 'the answer body did not complete' }],
    });
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
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
        'The partner requires verification in its own console before it accepts this job. This is the partner\'s requirement, not a gate of this service: the service collects no location, performs no verification and does not gate on jurisdiction. Complete it with the partner, then submit the same confirmed plan again.',
        { issues: [{ code: PARTNER_ERROR.EXTERNAL_VERIFICATION_REQUIRED, message: `the partner answered HTTP ${response.status} asking for verification in its console` }] },
      );
    }
    throw new SvcError(PARTNER_ERROR.HTTP, `The partner answered the ${what} with HTTP ${response.status}`, {
      issues: [{ code: PARTNER_ERROR.HTTP, message: `partner HTTP status ${response.status}` }],
    });
  }
  return { status: response.status, json };
}

/** Sends one prompt; resolves to the partner's job id. */
export async function submitPartnerPrompt(endpoint: PartnerEndpoint, prompt: string): Promise<{ jobId: string; partnerStatus: PartnerJobStatus }> {
  const { json } = await call(endpoint, 'POST', '/agent/prompt', 'job submission', { prompt });
  const jobId = (json as Record<string, unknown> | undefined)?.jobId;
  if (!isPlausibleJobId(jobId)) {
    throw new SvcError(PARTNER_ERROR.INVALID_OUTPUT, 'The partner accepted the request but returned no usable job id', {
      issues: [{ code: PARTNER_ERROR.INVALID_OUTPUT, message: 'missing or malformed jobId' }],
    });
  }
  const status = (json as Record<string, unknown>).status;
  return { jobId, partnerStatus: isPartnerJobStatus(status) ? status : 'pending' };
}

/** Reads one job; resolves to its status (one of the five documented ones). */
export async function readPartnerJob(endpoint: PartnerEndpoint, jobId: string): Promise<{ partnerStatus: PartnerJobStatus }> {
  const { json } = await call(endpoint, 'GET', `/agent/job/${encodeURIComponent(jobId)}`, 'job read');
  const status = (json as Record<string, unknown> | undefined)?.status;
  if (!isPartnerJobStatus(status)) {
    throw new SvcError(PARTNER_ERROR.INVALID_OUTPUT, 'The partner\'s job answer carried no known status', {
      issues: [{ code: PARTNER_ERROR.INVALID_OUTPUT, message: 'status is not one of pending, processing, completed, failed, cancelled' }],
    });
  }
  return { partnerStatus: status };
}
