/**
 * Turns a provider's basket draft into the Coil and the strategist response: the same
 * shape whichever provider answered (interface 2.2), with the service's own risk settings, fuses,
 * memo disclaimer, risk summary, score and disclaimers.
 */
import { SvcError } from '../errors';
import { brokeragePlanSteps } from '../coil/capsule';
import { scoreCoil, strategistScore } from '../coil/health';
import { COIL_SCHEMA_VERSION, type Coil, type ExecutionMode } from '../coil/manifest';
import { validateCoil } from '../coil/validate';
import { hashCanonical } from '../canonical';
import { findAssetByTicker, ORACLE_POLICY } from '../registry';
import type { BasketDraft, ProviderMeta, RiskTolerance, StrategistRequest, StrategistResponse, ThesisReading } from './types';

export const MEMO_DISCLAIMER = 'Not investment advice. A thesis for paper planning and readiness checks only: no order is placed.';

export const STRATEGIST_DISCLAIMERS = [
  'Not investment advice.',
  'Planning only: no order is placed, no transaction is sent and no credential is held.',
  'Weights express a thesis; they are not a forecast of returns or prices.',
  'Tokenized stocks and ETFs are tokens on chain 4663, not direct ownership of the underlying shares.',
];

const DRIFT_THRESHOLD_BY_TOLERANCE: Record<RiskTolerance, number> = { low: 300, medium: 500, high: 800 };

/** The fuses every strategist Coil carries, so a capsule never needs a default. */
const STRATEGIST_FUSES: Coil['fuses'] = [
  { kind: 'maxTotalNotional', limit: 500 },
  { kind: 'maxSingleOrderNotional', limit: 500 },
  { kind: 'humanConfirmation', limit: 0 },
  { kind: 'noOptions', limit: null },
  { kind: 'noMargin', limit: null },
  { kind: 'marketHoursOnly', limit: null },
  { kind: 'stopIfOracleUnhealthy', limit: null },
  { kind: 'stopIfReceiptMismatch', limit: null },
];

export function slugify(text: string): string {
  const base = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return base || 'coil';
}

function coilModeOf(request: StrategistRequest): Coil['mode'] {
  if (request.mode === 'paper') return 'paper';
  if (request.mode === 'brokerage-mcp-plan') return 'brokerage-mcp-plan';
  return 'readiness-check';
}

function executionModeOf(request: StrategistRequest): ExecutionMode {
  if (request.mode === 'paper') return 'paper_only';
  if (request.executionMode) return request.executionMode;
  return request.mode === 'brokerage-mcp-plan' ? 'human_confirm' : 'paper_only';
}

function riskSummaryOf(coil: Coil, draft: BasketDraft): string {
  const largest = coil.assets.reduce((m, a) => (a.weightBps > m.weightBps ? a : m), coil.assets[0]!);
  return [
    `${coil.assets.length} canonical asset(s) on chain 4663 for a ${draft.riskTolerance} risk tolerance; the largest weight is ${largest.ticker} at ${largest.weightBps} bps under a ${draft.capBps} bps single-asset cap.`,
    `Prices older than ${coil.risk.oracleStalenessSeconds} seconds count as stale; drift of ${coil.rebalancePolicy.driftThresholdBps} bps or more prompts a preview for your review.`,
    `Execution mode ${coil.executionMode}: every order needs your own confirmation and no order is placed by this service.`,
  ].join(' ');
}

/** Builds the Coil of a draft. Every asset must resolve in the registry (providers check that first). */
export function coilFromDraft(draft: BasketDraft, request: StrategistRequest, providerKey: string, now: Date): Coil {
  const mode = coilModeOf(request);
  const assets = draft.assets.map((a) => {
    const asset = findAssetByTicker(a.ticker);
    if (!asset) throw new SvcError('INTERNAL', `draft names a ticker outside the registry`);
    return { ticker: asset.ticker, tokenAddress: asset.address, weightBps: a.weightBps, rationale: a.rationale };
  });
  const fingerprint = hashCanonical({
    providerKey,
    prompt: request.prompt,
    mode: request.mode ?? null,
    basketContext: request.basketContext ?? null,
    userPreferences: request.userPreferences ?? null,
    executionMode: request.executionMode ?? null,
    // Corrections are part of what was asked: the same ones give the same Coil, others another
    // (absent ones leave every earlier fingerprint as it was).
    ...(request.corrections ? { corrections: request.corrections } : {}),
  }).slice(0, 8);
  const coil: Coil = {
    schemaVersion: COIL_SCHEMA_VERSION,
    slug: `${slugify(draft.name)}-${fingerprint}`,
    name: draft.name,
    mode,
    assets,
    risk: {
      allowNonCanonicalAssets: false,
      notInvestmentAdvice: true,
      liveExecutionAllowed: false,
      oracleStalenessSeconds: ORACLE_POLICY.maxStalenessSeconds,
      notes: draft.notes,
      maxSingleAssetWeightBps: draft.capBps,
    },
    forkOf: request.basketContext?.slug ?? null,
    executionMode: executionModeOf(request),
    rebalancePolicy: {
      method: 'drift',
      driftThresholdBps: DRIFT_THRESHOLD_BY_TOLERANCE[draft.riskTolerance],
      maxSlippageBps: 50,
      maxDailyTurnoverBps: 2000,
    },
    fuses: STRATEGIST_FUSES!.map((f) => ({ ...f })),
    memo: { title: draft.memoTitle, body: draft.memoBody, disclaimer: MEMO_DISCLAIMER },
    createdAt: now.toISOString(),
  };
  if (request.parentManifestHash) coil.parentManifestHash = request.parentManifestHash;
  return coil;
}

export function assembleResponse(coil: Coil, draft: BasketDraft, providerMeta: ProviderMeta, reading: ThesisReading): StrategistResponse {
  const validation = validateCoil(coil);
  if (!validation.valid) {
    // Providers are checked before this point; a generated Coil that does not validate is a bug.
    throw new SvcError('INTERNAL', 'the strategist produced a Coil that does not validate');
  }
  const response: StrategistResponse = {
    manifest: coil,
    memo: coil.memo!,
    riskSummary: riskSummaryOf(coil, draft),
    score: strategistScore(scoreCoil(coil, validation)),
    providerMeta,
    disclaimers: [
      ...STRATEGIST_DISCLAIMERS,
      providerMeta.provider === 'mock'
        ? 'Built by the deterministic local strategist (mock) from the words of the thesis.'
        : 'Basket proposed by the external partner strategist, then checked by this service against the canonical registry and its guardrails.',
      ...(draft.isDefaultBasket ? ['Default basket: the thesis asked for no holding the strategist can express (the memo says why).'] : []),
    ],
    reading,
  };
  if (coil.mode === 'brokerage-mcp-plan') response.plan = { compileOnly: true, steps: brokeragePlanSteps(coil) };
  return response;
}
