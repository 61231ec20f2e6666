/**
 * Strategist entry points: provider selection per STRATEGIST_PROVIDER, the strategist
 * response (interface 2.2), generate-coil's answer, and the provider status (interface 4.2). Callable
 * without HTTP (the MCP server uses the same functions).
 */
import { SvcError } from '../errors';
import { scoreCoil, type CoilHealth } from '../coil/health';
import type { Coil, ExecutionMode } from '../coil/manifest';
import { assembleResponse, coilFromDraft, STRATEGIST_DISCLAIMERS } from './build';
import { mockDraft } from './mock';
import { partnerConfigured, partnerDraft, PARTNER_FAILURE_CODES, type PartnerClientOptions } from './partner';
import { loadThesisNlp } from './nlp';
import { planThesis, type ThesisPlan } from './plan';
import {
  THESIS_PRESENT,
  type Corrections,
  type ProviderMeta,
  type StrategistConfig,
  type StrategistRequest,
  type StrategistResponse,
  type ThesisReading,
} from './types';

export * from './types';
export { readThesisWords } from './reader';
export { planThesis } from './plan';
export { allocateWeights } from './allocate';
export { loadThesisNlp, type ThesisNlp } from './nlp';
export { composePartnerPrompt, parsePartnerAnswer, askPartner, PARTNER_FAILURE_CODES } from './partner';

export interface StrategistDeps {
  config: StrategistConfig;
  now: Date;
  /** Overrides for the partner HTTP client (tests). */
  partnerClient?: Partial<PartnerClientOptions>;
  /**
   * Why this call may not ask the partner, when it may not (an MCP tool call transmits
   * nothing): the local strategist answers, and `providerMeta` gives this as the reason.
   */
  partnerNotAllowed?: string;
}

const PARTNER_FAILURES: ReadonlySet<string> = new Set(PARTNER_FAILURE_CODES);

/** The strategist failure body of interface 4.2: `{ error, code, prompt }` with the prompt echoed. */
export function strategistFailure(error: SvcError, prompt: string): SvcError {
  return new SvcError(error.code, error.message, {
    issues: error.issues,
    body: { error: error.message, code: error.code, prompt },
    cause: error,
  });
}

function mockResponse(request: StrategistRequest, plan: ThesisPlan, now: Date, meta: ProviderMeta): StrategistResponse {
  const draft = mockDraft(request, plan);
  return assembleResponse(coilFromDraft(draft, request, 'mock', now), draft, meta, plan.reading);
}

/**
 * Answers a strategist request. `mock` answers locally; `partner` asks the partner and
 * returns its failure (with the prompt echoed); `partner_or_mock` falls back to the mock on
 * any partner failure and says why. A call that may not ask the partner (`partnerNotAllowed`)
 * is answered locally whatever was requested, and says why.
 */
export async function runStrategist(request: StrategistRequest, deps: StrategistDeps): Promise<StrategistResponse> {
  if (!THESIS_PRESENT.test(request.prompt)) {
    throw new SvcError('PROMPT_REQUIRED', 'The thesis is empty: describe the market view the basket should express', {
      issues: [{ code: 'PROMPT_REQUIRED', message: 'the thesis is empty or only whitespace', path: 'prompt' }],
    });
  }
  // The thesis is read once, before any provider: both are held to the same reading, and a
  // thesis nothing can express is refused without asking the partner.
  const plan = planThesis(request, await loadThesisNlp());
  const requested = deps.config.strategistProvider;
  if (requested === 'mock') return mockResponse(request, plan, deps.now, { provider: 'mock', requested, usedFallback: false });
  if (deps.partnerNotAllowed !== undefined)
    return mockResponse(request, plan, deps.now, {
      provider: 'mock',
      requested,
      usedFallback: true,
      fallbackReason: deps.partnerNotAllowed,
    });
  try {
    const draft = await partnerDraft(request, plan, { ...deps.config.partner, ...deps.partnerClient });
    const coil = coilFromDraft(draft, request, 'partner', deps.now);
    return assembleResponse(coil, draft, { provider: 'partner', requested, usedFallback: false }, plan.reading);
  } catch (error) {
    if (!(error instanceof SvcError) || !PARTNER_FAILURES.has(error.code)) throw error;
    if (requested === 'partner') throw strategistFailure(error, request.prompt);
    return mockResponse(request, plan, deps.now, {
      provider: 'mock',
      requested,
      usedFallback: true,
      fallbackReason: `${error.code}: ${error.message}`,
    });
  }
}

export interface GeneratedCoil {
  coil: Coil;
  health: CoilHealth;
  providerMeta: ProviderMeta;
  disclaimers: string[];
  reading: ThesisReading;
}

/** generate-coil (interface 4.3): a thesis and an optional execution mode → a Coil that validates. */
export async function generateCoil(
  input: { prompt: string; executionMode?: ExecutionMode; corrections?: Corrections },
  deps: StrategistDeps,
): Promise<GeneratedCoil> {
  const response = await runStrategist({ prompt: input.prompt, executionMode: input.executionMode, corrections: input.corrections }, deps);
  return {
    coil: response.manifest,
    health: scoreCoil(response.manifest),
    providerMeta: response.providerMeta,
    disclaimers: response.disclaimers,
    reading: response.reading,
  };
}

export interface StrategistStatus {
  aiProvider: 'mock' | 'partner';
  requested: StrategistConfig['strategistProvider'];
  partnerConfigured: boolean;
  planningOnly: true;
  fallbackToMock: boolean;
  disclaimers: string[];
}

/** GET /api/agent/svc: which provider answers, whether the partner is configured, planning only. */
export function strategistStatus(config: StrategistConfig): StrategistStatus {
  const configured = partnerConfigured(config.partner);
  const aiProvider =
    config.strategistProvider === 'mock' ? 'mock' : config.strategistProvider === 'partner' ? 'partner' : configured ? 'partner' : 'mock';
  return {
    aiProvider,
    requested: config.strategistProvider,
    partnerConfigured: configured,
    planningOnly: true,
    fallbackToMock: config.strategistProvider === 'partner_or_mock',
    disclaimers: STRATEGIST_DISCLAIMERS,
  };
}
