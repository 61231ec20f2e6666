/**
 * The partner strategist: the external trading-agent provider's API (`POST /agent/prompt`
 * with `X-API-Key` → `jobId`; poll `GET /agent/job/{jobId}` until completed, failed or
 * cancelled). It is asked for a basket in a stated JSON shape; the answer is parsed and
 * checked here, and nothing it says reaches a response unchecked:
 *   - any execution claim, or a performance claim           → GUARDRAIL_REJECTED
 *   - any asset that is not canonical                       → GUARDRAIL_REJECTED
 *   - anything that is not the stated shape or breaks rules → PARTNER_INVALID_OUTPUT
 * Transport (src/lib/server/partner/agent-api.ts): non-2xx, network errors, failed or cancelled
 * jobs → PARTNER_HTTP_ERROR; the whole exchange is bounded by PARTNER_TIMEOUT_MS → PARTNER_TIMEOUT.
 */
import { z } from 'zod';
import { SvcError } from '../errors';
import {
  PARTNER_ERROR,
  PartnerHttpError,
  readPartnerJob,
  submitPartnerPrompt,
  type PartnerEndpoint,
  type PartnerJob,
} from '../partner/agent-api';
import { findExecutionClaim } from '../guards/output-guard';
import { findPerformanceClaim } from '../coil/share-card';
import { HEX_ADDRESS } from '../coil/manifest';
import { ALL_ASSETS, checkCanonical, findAssetByAddress } from '../registry';
import { planThesis, type ThesisPlan } from './plan';
import type { BasketDraft, StrategistRequest } from './types';

export const PARTNER_FAILURE_CODES = [
  'PARTNER_NOT_CONFIGURED',
  'PARTNER_HTTP_ERROR',
  'PARTNER_TIMEOUT',
  'PARTNER_INVALID_OUTPUT',
  'GUARDRAIL_REJECTED',
] as const;

export interface PartnerClientOptions {
  apiUrl?: string;
  apiKey?: string;
  /** The overall budget of one strategist exchange: submission and every poll (PARTNER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Monotonic milliseconds; injectable for tests. */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  firstPollDelayMs?: number;
  maxPollDelayMs?: number;
}

const partnerAnswerSchema = z.object({
  name: z.string().min(1).max(120),
  memo: z.object({ title: z.string().min(1).max(200), body: z.string().min(1).max(4000) }),
  assets: z
    .array(
      z.object({
        ticker: z.string().min(1).max(16),
        tokenAddress: z.string().regex(HEX_ADDRESS),
        weightBps: z.number(),
        rationale: z.string().max(1000),
      }),
    )
    .min(1)
    .max(17),
  riskNotes: z.array(z.string().max(500)).max(10).optional(),
});

export type PartnerAnswer = z.output<typeof partnerAnswerSchema>;

const fail = (
  code: (typeof PARTNER_FAILURE_CODES)[number],
  message: string,
  issues?: Array<{ code: string; message: string; path?: string }>,
) => new SvcError(code, message, { issues });

export function partnerConfigured(options: Pick<PartnerClientOptions, 'apiUrl' | 'apiKey'>): boolean {
  return Boolean(options.apiUrl && options.apiKey);
}

/** The instruction the partner receives: the thesis, the rules it was read into, and the exact answer shape. */
export function composePartnerPrompt(request: StrategistRequest, plan: ThesisPlan = planThesis(request)): string {
  const { tolerance, cap } = plan;
  const registry = ALL_ASSETS.filter((a) => a.kind === 'stock' || a.kind === 'etf')
    .map((a) => `${a.ticker} ${a.address}`)
    .join('\n');
  const context = request.basketContext?.assets?.length
    ? `\nRefine this existing basket rather than replacing it:\n${request.basketContext.assets.map((a) => `${a.ticker ?? '?'} ${a.tokenAddress} ${a.weightBps ?? '?'} bps`).join('\n')}\n`
    : '';
  return [
    'Propose a paper basket (planning only). Do not trade, do not place or simulate orders, and do not claim that anything was executed.',
    `Thesis:\n<<<\n${request.prompt}\n>>>`,
    `Risk tolerance: ${tolerance}. Single-asset cap: ${cap} bps.${context}`,
    ...(plan.excluded.size
      ? [
          `The basket is long-only and must not hold: ${[...plan.excluded.keys()].join(', ')} (the thesis excludes them or is bearish on them).`,
        ]
      : []),
    ...(plan.pins.some((p) => p.keptBps > 0)
      ? [
          `Keep these weights exactly: ${plan.pins
            .filter((p) => p.keptBps > 0)
            .map((p) => `${p.tickers.join('+')} ${p.keptBps} bps`)
            .join(', ')}.`,
        ]
      : []),
    `Use only these canonical token addresses on chain 4663 (ticker address):\n${registry}`,
    'Answer with JSON only, exactly this shape:',
    '{"name": string, "memo": {"title": string, "body": string}, "assets": [{"ticker": string, "tokenAddress": string, "weightBps": integer, "rationale": string}], "riskNotes": [string]}',
    `Weights are positive integers that sum to exactly 10000, each at most ${cap}.`,
  ].join('\n\n');
}

/** Extracts the JSON object of an answer (bare, fenced, or embedded in prose). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidate = fenced ? fenced[1]!.trim() : text.trim();
  try {
    return JSON.parse(candidate);
  } catch {
    const start = candidate.indexOf('{');
    const end = candidate.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(candidate.slice(start, end + 1));
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}

function allStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => allStrings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => allStrings(v, out));
  return out;
}

/** Parses and checks the partner's answer text into a basket draft, or throws the right failure. */
export function parsePartnerAnswer(answer: string, request: StrategistRequest, plan: ThesisPlan = planThesis(request)): BasketDraft {
  const parsed = extractJson(answer);
  // The prose around the JSON counts as much as the JSON's own strings.
  const texts = parsed === undefined ? [answer] : [answer, ...allStrings(parsed)];
  if (texts.some((t) => findExecutionClaim(t))) {
    throw fail('GUARDRAIL_REJECTED', 'The partner answer reads as a claim that an execution happened; it was discarded', [
      { code: 'EXECUTION_CLAIM', message: 'no order is placed by this service or on its behalf' },
    ]);
  }
  if (texts.some((t) => findPerformanceClaim(t))) {
    throw fail('GUARDRAIL_REJECTED', 'The partner answer makes a performance claim; it was discarded', [
      { code: 'PERFORMANCE_CLAIM', message: 'a basket is a thesis, never a promise of returns' },
    ]);
  }
  if (parsed === undefined) throw fail('PARTNER_INVALID_OUTPUT', 'The partner answer is not JSON in the requested shape');
  const shaped = partnerAnswerSchema.safeParse(parsed);
  if (!shaped.success) {
    throw fail(
      'PARTNER_INVALID_OUTPUT',
      'The partner answer does not match the requested basket shape',
      shaped.error.issues.slice(0, 10).map((i) => ({ code: i.code.toUpperCase(), message: i.message, path: i.path.join('.') })),
    );
  }
  const basket = shaped.data;
  const nonCanonical = basket.assets
    .map((a, i) => ({ i, check: checkCanonical(a.ticker, a.tokenAddress) }))
    .filter(({ check }) => check.status !== 'canonical');
  if (nonCanonical.length) {
    throw fail(
      'GUARDRAIL_REJECTED',
      'The partner answer names assets outside the canonical registry; it was discarded',
      nonCanonical.map(({ i, check }) => ({
        code: check.status === 'ticker_address_mismatch' ? 'TICKER_ADDRESS_MISMATCH' : 'NONCANONICAL_ASSET',
        message: 'not a canonical registry asset',
        path: `assets.${i}`,
      })),
    );
  }
  const { tolerance, cap } = plan;
  const problems: Array<{ code: string; message: string; path?: string }> = [];
  const seen = new Set<string>();
  let sum = 0;
  basket.assets.forEach((a, i) => {
    if (!Number.isInteger(a.weightBps) || a.weightBps <= 0)
      problems.push({ code: 'WEIGHTS_SUM', message: 'weight must be a positive integer', path: `assets.${i}.weightBps` });
    else if (a.weightBps > cap)
      problems.push({ code: 'WEIGHTS_SUM', message: `weight above the ${cap} bps cap`, path: `assets.${i}.weightBps` });
    const key = a.tokenAddress.toLowerCase();
    if (seen.has(key)) problems.push({ code: 'DUPLICATE_ASSET', message: 'asset listed twice', path: `assets.${i}` });
    seen.add(key);
    sum += a.weightBps;
  });
  if (sum !== 10_000) problems.push({ code: 'WEIGHTS_SUM', message: `weights sum to ${sum}, not 10000` });
  if (problems.length) throw fail('PARTNER_INVALID_OUTPUT', 'The partner basket breaks the weight rules', problems);
  heldToTheReading(basket.assets, plan);

  return {
    name: basket.name.trim(),
    memoTitle: basket.memo.title.trim(),
    memoBody: basket.memo.body.trim(),
    assets: basket.assets.map((a) => ({
      // The address is the identity: the display ticker comes from the registry entry.
      ticker: findAssetByAddress(a.tokenAddress)!.ticker,
      weightBps: a.weightBps,
      rationale: a.rationale.trim() || `${a.ticker}: proposed by the partner strategist.`,
    })),
    notes: [
      ...(basket.riskNotes ?? []).map((n) => n.trim()).filter(Boolean),
      `Proposed by the partner strategist; single-asset cap ${cap} bps.`,
    ],
    capBps: cap,
    riskTolerance: tolerance,
    isDefaultBasket: false,
  };
}

/**
 * The partner is held to the same reading as the local strategist: a basket that holds an
 * asset the thesis excludes (or is bearish on), or moves a weight the thesis pinned, is not
 * passed off as the answer (GUARDRAIL_REJECTED; with partner_or_mock the local basket answers
 * instead and providerMeta says why).
 */
function heldToTheReading(assets: PartnerAnswer['assets'], plan: ThesisPlan): void {
  const weightOf = new Map(assets.map((a) => [findAssetByAddress(a.tokenAddress)!.ticker, a.weightBps]));
  const held = [...weightOf.keys()].filter((t) => plan.excluded.has(t));
  const moved = plan.pins.filter((p) => p.keptBps > 0 && p.tickers.reduce((s, t) => s + (weightOf.get(t) ?? 0), 0) !== p.keptBps);
  if (held.length === 0 && moved.length === 0) return;
  const what = [
    ...(held.length ? [`holds ${held.join(', ')}, which the thesis excludes`] : []),
    ...(moved.length ? [`does not keep the pinned weight of ${moved.map((p) => `${p.target} (${p.keptBps} bps)`).join(', ')}`] : []),
  ];
  throw fail('GUARDRAIL_REJECTED', `The partner basket ${what.join(' and ')}; it was discarded`, [
    ...held.map((t) => ({ code: 'EXCLUDED_ASSET', message: `${t} is excluded by the thesis`, path: 'assets' })),
    ...moved.map((p) => ({ code: 'PINNED_WEIGHT_MOVED', message: `${p.target} is pinned at ${p.keptBps} bps`, path: 'assets' })),
  ]);
}

/** Runs one prompt through the partner API and returns its answer text. */
export async function askPartner(prompt: string, options: PartnerClientOptions): Promise<string> {
  if (!partnerConfigured(options)) {
    throw fail('PARTNER_NOT_CONFIGURED', 'The partner strategist is not configured (PARTNER_API_URL and PARTNER_API_KEY)');
  }
  const clock = options.clock ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = clock() + options.timeoutMs;
  const endpoint: PartnerEndpoint = { apiUrl: options.apiUrl!, apiKey: options.apiKey!, timeoutMs: options.timeoutMs };
  const remaining = () => Math.max(0, Math.floor(deadline - clock()));
  const timedOut = () => fail('PARTNER_TIMEOUT', `The partner did not finish within ${options.timeoutMs} ms`);

  /** One call within what is left of the overall budget, with the strategist's failure codes. */
  async function within<T>(run: (callOptions: { timeoutMs: number }) => Promise<T>): Promise<T> {
    const budget = remaining();
    if (budget <= 0) throw timedOut();
    try {
      return await run({ timeoutMs: budget });
    } catch (error) {
      const code = (error as SvcError).code;
      if (code === PARTNER_ERROR.TIMEOUT || remaining() <= 0) throw timedOut();
      // The strategist answers only its own five codes (interface 4.2).
      if (code === PARTNER_ERROR.EXTERNAL_VERIFICATION_REQUIRED)
        throw fail('PARTNER_HTTP_ERROR', 'The partner refused the prompt and asks for verification in its own console');
      throw error;
    }
  }

  const { jobId } = await within((o) => submitPartnerPrompt(endpoint, prompt, o));

  let delay = options.firstPollDelayMs ?? 200;
  const maxDelay = options.maxPollDelayMs ?? 2000;
  let transientFailures = 0;
  for (;;) {
    if (remaining() <= delay) throw timedOut();
    await sleep(delay);
    delay = Math.min(maxDelay, Math.round(delay * 1.6));
    let job: PartnerJob;
    try {
      job = await within((o) => readPartnerJob(endpoint, jobId, o));
    } catch (error) {
      // A job read is idempotent: one transient 5xx is retried with the same backoff.
      if (error instanceof PartnerHttpError && error.httpStatus >= 500 && transientFailures++ < 1) continue;
      throw error;
    }
    switch (job.partnerStatus) {
      case 'pending':
      case 'processing':
        continue;
      case 'completed':
        if (job.response !== undefined) return job.response;
        throw fail('PARTNER_INVALID_OUTPUT', 'The partner reports the job as completed but gave no answer');
      case 'failed':
        throw fail('PARTNER_HTTP_ERROR', 'The partner reports the job as failed');
      case 'cancelled':
        throw fail('PARTNER_HTTP_ERROR', 'The partner reports the job as cancelled');
    }
  }
}

/** The partner's basket draft for a request, checked against the thesis plan. */
export async function partnerDraft(request: StrategistRequest, plan: ThesisPlan, options: PartnerClientOptions): Promise<BasketDraft> {
  const answer = await askPartner(composePartnerPrompt(request, plan), options);
  return parsePartnerAnswer(answer, request, plan);
}
