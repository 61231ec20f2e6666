/**
 * The two calls Mode B makes to the external partner's agent API (spec 4.5):
 * `POST {partner_api_url}/agent/prompt` with `X-API-Key` and `{ prompt }` → `{ jobId }`, and
 * `GET {partner_api_url}/agent/job/{jobId}` → the job. The key and the URL never appear in
 * an error message; failures map to the strategist's partner codes (502).
 */
import { SvcError } from '../errors';

export interface PartnerApiSettings {
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export type PartnerJobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
const STATUSES: ReadonlySet<string> = new Set(['pending', 'processing', 'completed', 'failed', 'cancelled']);

export interface PartnerJob {
  status: PartnerJobStatus;
  /** The agent's free text answer; never shown, only searched for transaction hashes. */
  response?: string;
}

async function call(settings: PartnerApiSettings, path: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(new URL(path, settings.apiUrl.endsWith('/') ? settings.apiUrl : `${settings.apiUrl}/`), {
      ...init,
      headers: { 'content-type': 'application/json', 'X-API-Key': settings.apiKey },
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new SvcError('PARTNER_TIMEOUT', 'The partner API did not answer in time');
    throw new SvcError('PARTNER_HTTP_ERROR', 'The partner API could not be reached');
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new SvcError('PARTNER_HTTP_ERROR', `The partner API answered HTTP ${res.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new SvcError('PARTNER_INVALID_OUTPUT', 'The partner API answered with a body that is not JSON');
  }
}

export async function submitPartnerPrompt(settings: PartnerApiSettings, prompt: string): Promise<{ jobId: string }> {
  const body = (await call(settings, 'agent/prompt', { method: 'POST', body: JSON.stringify({ prompt }) })) as { jobId?: unknown };
  if (typeof body?.jobId !== 'string' || !/^[A-Za-z0-9._:-]{1,128}$/.test(body.jobId)) {
    throw new SvcError('PARTNER_INVALID_OUTPUT', 'The partner API accepted the prompt but returned no usable job id');
  }
  return { jobId: body.jobId };
}

export async function getPartnerJob(settings: PartnerApiSettings, jobId: string): Promise<PartnerJob> {
  const body = (await call(settings, `agent/job/${encodeURIComponent(jobId)}`, { method: 'GET' })) as { status?: unknown; response?: unknown };
  if (typeof body?.status !== 'string' || !STATUSES.has(body.status)) {
    throw new SvcError('PARTNER_INVALID_OUTPUT', 'The partner API returned a job without a known status');
  }
  return { status: body.status as PartnerJobStatus, response: typeof body.response === 'string' ? body.response : undefined };
}

/** Transaction hashes mentioned in a text (candidates to verify on chain, never proof by themselves). */
export function extractTxHashes(text: string | undefined): `0x${string}`[] {
  if (!text) return [];
  const found = text.match(/(?<![0-9a-zA-Z])0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/g) ?? [];
  return [...new Set(found.map((h) => h.toLowerCase() as `0x${string}`))];
}
