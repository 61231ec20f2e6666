/**
 * The facilitator's HTTP API as this service uses it: `POST {url}/settle` and
 * `GET {url}/supported`, both with the server-only bearer key. The verify route is not used
 * (interface 4.8). Every answer is classified so that a lost or unreadable answer is never
 * mistaken for a refusal (the buyer may have paid) nor for a success (nothing proves it).
 *
 * The key is passed in per call and is never put in a returned value or an error message.
 */
import { getAddress, isAddress } from 'viem';

export interface FacilitatorEndpoint {
  url: string;
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface SettleRequestBody {
  x402Version: 1 | 2;
  paymentPayload: Record<string, unknown>;
  paymentRequirements: Record<string, unknown>;
}

/** What the facilitator said it did, as far as this service can tell. */
export type SettleOutcome =
  | {
      kind: 'success';
      transaction: string;
      network: string;
      payer: string | null;
      /** The recipient the facilitator reports, when it reports one. */
      reportedPayTo: string | null;
      /** The amount as the facilitator wrote it (a JSON number or a string); null when it reports none. */
      reportedAmount: unknown;
      raw: Record<string, unknown>;
    }
  | { kind: 'refused'; reason: string; message: string | null; httpStatus: number; raw: Record<string, unknown> }
  /** The facilitator refused the call itself (4xx without a settlement answer): nothing was settled. */
  | { kind: 'call_rejected'; httpStatus: number }
  /** No trustworthy answer: the transfer may or may not have happened. */
  | { kind: 'unknown'; cause: 'timeout' | 'network_error' | 'server_error' | 'unreadable_answer'; httpStatus: number | null };

function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function reportedPayTo(raw: Record<string, unknown>): string | null {
  const extra = isRecord(raw.extra) ? raw.extra : {};
  const candidate = raw.payTo ?? extra.payTo ?? raw.recipient ?? extra.recipient;
  if (typeof candidate !== 'string') return null;
  // A recipient that is not even an address cannot match the pinned one: keep it as given.
  return isAddress(candidate, { strict: false }) ? getAddress(candidate) : candidate;
}

async function timedFetch(ep: FacilitatorEndpoint, path: string, init: RequestInit): Promise<Response> {
  const doFetch = ep.fetch ?? fetch;
  return doFetch(endpoint(ep.url, path), {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${ep.apiKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout(ep.timeoutMs),
    redirect: 'error',
  });
}

function isTimeout(error: unknown): boolean {
  const name = (error as Error)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

export async function settlePayment(ep: FacilitatorEndpoint, body: SettleRequestBody): Promise<SettleOutcome> {
  let res: Response;
  let text: string;
  try {
    res = await timedFetch(ep, '/settle', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    text = await res.text();
  } catch (error) {
    return { kind: 'unknown', cause: isTimeout(error) ? 'timeout' : 'network_error', httpStatus: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const raw = isRecord(parsed) ? parsed : undefined;
  // `success: false` is a refusal whatever the status, 200 included.
  if (raw && raw.success === false) {
    return {
      kind: 'refused',
      reason: typeof raw.errorReason === 'string' && raw.errorReason ? raw.errorReason : 'unspecified',
      message: typeof raw.errorMessage === 'string' ? raw.errorMessage : null,
      httpStatus: res.status,
      raw,
    };
  }
  if (res.status >= 500) return { kind: 'unknown', cause: 'server_error', httpStatus: res.status };
  if (res.status >= 400) return { kind: 'call_rejected', httpStatus: res.status };
  if (!raw || raw.success !== true || typeof raw.transaction !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(raw.transaction)) {
    return { kind: 'unknown', cause: 'unreadable_answer', httpStatus: res.status };
  }
  return {
    kind: 'success',
    transaction: raw.transaction.toLowerCase(),
    network: typeof raw.network === 'string' ? raw.network : '',
    payer:
      typeof raw.payer === 'string' && isAddress(raw.payer, { strict: false })
        ? getAddress(raw.payer)
        : typeof raw.payer === 'string'
          ? raw.payer
          : null,
    reportedPayTo: reportedPayTo(raw),
    reportedAmount: raw.amount ?? null,
    raw,
  };
}

export type SupportedCheck =
  | { state: 'reachable'; kinds: Array<{ x402Version: number; scheme: string; network: string; payTo: string | null }>; signers: string[] }
  | { state: 'unauthorized' | 'http_error'; httpStatus: number }
  | { state: 'timeout' | 'unreachable' | 'invalid_answer' };

/**
 * The facilitator as the x402 flow sees it: passed in, so the flow is tested with a fake and
 * every answer arrives already classified (where the fetch failed or the status came back),
 * never re-read from an error's words.
 */
export interface FacilitatorClient {
  settle(body: SettleRequestBody): Promise<SettleOutcome>;
  supported(): Promise<SupportedCheck>;
}

export function facilitatorClient(ep: FacilitatorEndpoint): FacilitatorClient {
  return { settle: (body) => settlePayment(ep, body), supported: () => checkSupported(ep) };
}

/** The live reachability check of the facilitator's supported-networks route. */
export async function checkSupported(ep: FacilitatorEndpoint): Promise<SupportedCheck> {
  let res: Response;
  let text: string;
  try {
    res = await timedFetch(ep, '/supported', { method: 'GET' });
    text = await res.text();
  } catch (error) {
    return { state: isTimeout(error) ? 'timeout' : 'unreachable' };
  }
  if (res.status === 401 || res.status === 403) return { state: 'unauthorized', httpStatus: res.status };
  if (!res.ok) return { state: 'http_error', httpStatus: res.status };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: 'invalid_answer' };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.kinds)) return { state: 'invalid_answer' };
  const kinds = parsed.kinds.filter(isRecord).map((k) => ({
    x402Version: typeof k.x402Version === 'number' ? k.x402Version : 0,
    scheme: typeof k.scheme === 'string' ? k.scheme : '',
    network: typeof k.network === 'string' ? k.network : '',
    payTo: isRecord(k.extra) ? reportedPayTo(k.extra) : null,
  }));
  const signers: string[] = [];
  if (isRecord(parsed.signers)) {
    for (const list of Object.values(parsed.signers)) {
      if (Array.isArray(list))
        for (const s of list) if (typeof s === 'string' && isAddress(s, { strict: false })) signers.push(getAddress(s));
    }
  }
  return { state: 'reachable', kinds, signers: [...new Set(signers)] };
}
