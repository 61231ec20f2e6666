/**
 * The stock-token lane (interface 4.5, 3.1) as plain functions: prepare, submit, job poll,
 * reconcile and lane status. The REST routes, the typed client and the MCP server all call
 * these. They take configuration, the clock and the store as arguments.
 */
import type { BrokerChainClient } from '../chain-client';
import type { ServerTime } from '../clock';
import { SvcError, type ErrorIssue } from '../errors';
import { BROKER_CHAIN_ID, findAssetByAddress, USDG } from '../registry';
import { extractTxHashes } from '../vaults/mode-b';
import { readTransactionProof, type ChainRead, type MinedTransaction } from './chain-proof';
import { buildCommandPack, partnerCommand, PARTNER_API_URL_PLACEHOLDER, PARTNER_PROMPT_PATH, publicPartnerApiBase } from './command-pack';
import { normalizeIntent, validateStockIntent, type StockIntent, type StockIntentInput } from './intent';
import { isPlausibleJobId, readPartnerJob, submitPartnerPrompt, type PartnerEndpoint } from '../partner/agent-api';
import { canonicalJson } from '../canonical';
import { buildPlan, computePlanHash, HARD_FLAGS, planExpiresAt, STOCK_PLAN_LIFETIME_SECONDS, type PreparedPlan } from './plan';
import { judgeTransaction, usdgUnits, type Judgement, type PlanTerms, type SenderFlows } from '../proof/stock-trade';
import { PROOF_BINDING_MEANING, type ClaimStanding, type ProofBinding, type ProofCheck } from '../proof/rule';
import {
  chainProofTransition,
  jobStatusTransition,
  proofTakenTransition,
  REASON,
  REASON_MEANING,
  STATUS_MEANING,
  type ChainVerdict,
  type PartnerJobStatus,
  type ReasonCode,
  type ReceiptStatus,
} from './status';
import {
  ProofTransactionTakenError,
  type ProofTakeOver,
  type ReceiptChange,
  type ReceiptEventInput,
  type StockReceiptRecord,
  type StockReceiptStore,
} from './store';

export const RECEIPT_VERSION = 'svc-stock-receipt-1.0.0';

/** The slice of the service configuration the lane reads. */
export interface StockLaneConfig {
  partner: {
    apiUrl?: string;
    apiKey?: string;
    agentApiEnabled: boolean;
    stockTradeMaxNotionalUsd: number;
    timeoutMs: number;
  };
  brokerChainRpcUrl?: string;
}

export const STOCK_ERROR = {
  PLAN_HASH_MISMATCH: 'PLAN_HASH_MISMATCH',
  VAULT_REBALANCE_NOT_ALLOWED_HERE: 'VAULT_REBALANCE_NOT_ALLOWED_HERE',
  LANE_NOT_ENABLED: 'LANE_NOT_ENABLED',
  STOCK_JOB_UNKNOWN: 'STOCK_JOB_UNKNOWN',
  STOCK_RECEIPT_UNKNOWN: 'STOCK_RECEIPT_UNKNOWN',
  RECEIPT_REFERENCE_MISMATCH: 'RECEIPT_REFERENCE_MISMATCH',
  RECEIPT_NOT_SUBMITTABLE: 'RECEIPT_NOT_SUBMITTABLE',
  SUBMIT_IN_PROGRESS: 'SUBMIT_IN_PROGRESS',
  RECONCILE_REFERENCE_REQUIRED: 'RECONCILE_REFERENCE_REQUIRED',
  PLAN_EXPIRED: 'PLAN_EXPIRED',
} as const;

// ---------------------------------------------------------------------------------------------
// Lane status

export interface LaneState {
  partnerAgentApiEnabled: boolean;
  partnerApiKeyConfigured: boolean;
  partnerApiUrlConfigured: boolean;
  submitAvailable: boolean;
}

export function laneState(cfg: StockLaneConfig): LaneState {
  const partnerAgentApiEnabled = cfg.partner.agentApiEnabled;
  const partnerApiKeyConfigured = Boolean(cfg.partner.apiKey);
  const partnerApiUrlConfigured = Boolean(cfg.partner.apiUrl);
  return {
    partnerAgentApiEnabled,
    partnerApiKeyConfigured,
    partnerApiUrlConfigured,
    submitAvailable: partnerAgentApiEnabled && partnerApiKeyConfigured && partnerApiUrlConfigured,
  };
}

/** GET /api/stocks/partner-status: booleans and public limits only, never a value of a secret. */
export function partnerLaneStatus(cfg: StockLaneConfig, now: Date) {
  const state = laneState(cfg);
  return {
    lane: 'rail_b_partner_stock_token' as const,
    laneStatus: state.submitAvailable ? ('enabled' as const) : ('not_enabled' as const),
    prepareAvailable: true as const,
    ...state,
    jobPollAvailable: state.submitAvailable,
    chainReconcileConfigured: Boolean(cfg.brokerChainRpcUrl),
    chainId: BROKER_CHAIN_ID,
    notionalCapUsd: cfg.partner.stockTradeMaxNotionalUsd,
    slippageCapBps: 500,
    ...HARD_FLAGS,
    checkedAt: now.toISOString(),
  };
}

function partnerEndpoint(cfg: StockLaneConfig): PartnerEndpoint | undefined {
  const state = laneState(cfg);
  if (!state.submitAvailable) return undefined;
  return { apiUrl: cfg.partner.apiUrl!, apiKey: cfg.partner.apiKey!, timeoutMs: cfg.partner.timeoutMs };
}

function requireLane(cfg: StockLaneConfig): PartnerEndpoint {
  const endpoint = partnerEndpoint(cfg);
  if (endpoint) return endpoint;
  const state = laneState(cfg);
  const issues: ErrorIssue[] = [];
  if (!state.partnerAgentApiEnabled) issues.push({ code: 'PARTNER_AGENT_API_DISABLED', message: 'PARTNER_AGENT_API_ENABLED is not true' });
  if (!state.partnerApiKeyConfigured) issues.push({ code: 'PARTNER_API_KEY_MISSING', message: 'PARTNER_API_KEY is not set' });
  if (!state.partnerApiUrlConfigured) issues.push({ code: 'PARTNER_API_URL_MISSING', message: 'PARTNER_API_URL is not set' });
  throw new SvcError(
    STOCK_ERROR.LANE_NOT_ENABLED,
    'The partner stock lane is not enabled on this server; prepare still works and nothing is sent',
    { issues },
  );
}

// ---------------------------------------------------------------------------------------------
// Receipts

export function receiptIdFor(planHash: string): string {
  return `srcpt_${planHash.slice(0, 24)}`;
}

/** The public form of a receipt (`{ receipt }` of reconcile, and the other lane answers). */
export function publicReceipt(record: StockReceiptRecord) {
  return {
    receiptVersion: RECEIPT_VERSION,
    receiptId: record.id,
    planHash: record.planHash,
    status: record.status,
    statusMeaning: STATUS_MEANING[record.status],
    statusReason: record.statusReason,
    chainId: BROKER_CHAIN_ID,
    targetSymbol: record.targetSymbol,
    targetTokenAddress: record.targetTokenAddress,
    generatedAt: record.generatedAt.toISOString(),
    firstPreparedAt: record.firstPreparedAt.toISOString(),
    expiresAt: planExpiresAt(record.firstPreparedAt).toISOString(),
    jobId: record.jobId,
    partnerJobStatus: record.partnerJobStatus,
    txHash: record.txHash,
    blockNumber: record.blockNumber,
    proofBinding: record.proofBinding,
    proofBindingMeaning: record.proofBinding ? PROOF_BINDING_MEANING[record.proofBinding] : null,
    updatedAt: record.updatedAt.toISOString(),
    history: record.events.map((e) => ({
      seq: e.seq,
      trigger: e.trigger,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      reason: e.reason,
      jobId: e.jobId,
      partnerJobStatus: e.partnerJobStatus,
      txHash: e.txHash,
      blockNumber: e.blockNumber,
      chainId: e.chainId,
      at: e.at.toISOString(),
    })),
    svcExecutesTrade: false as const,
  };
}

export type PublicReceipt = ReturnType<typeof publicReceipt>;

type ChangeFor = (current: StockReceiptRecord) => { change: ReceiptChange; event: ReceiptEventInput; takeOver?: ProofTakeOver } | null;

/**
 * Applies a change computed from the receipt's latest version; when another writer moved the
 * receipt first, re-reads and recomputes, so a decision is never made on a stale status
 * (e.g. a job poll can never undo an `onchain_confirmed` that landed meanwhile).
 */
async function transition(store: StockReceiptStore, start: StockReceiptRecord, changeFor: ChangeFor): Promise<StockReceiptRecord> {
  let current = start;
  for (let attempt = 0; attempt < 8; attempt++) {
    const next = changeFor(current);
    if (!next) return current;
    const updated = await store.applyChange(
      current.id,
      current.version,
      next.change,
      { ...next.event, fromStatus: current.status },
      next.takeOver,
    );
    if (updated) return updated;
    const reread = await store.findByPlanHash(current.planHash);
    if (!reread) throw new SvcError(STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, 'The receipt disappeared while it was being updated');
    current = reread;
  }
  throw new SvcError('CONFLICT', 'The receipt kept changing while it was being updated; try again');
}

// ---------------------------------------------------------------------------------------------
// Prepare

export interface PrepareDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The request's clock (`nowIso` or the arrival): the plan's `generatedAt`. */
  now: Date;
  /**
   * The server's clock at arrival: the plan's first-prepared time when this server has not
   * seen it yet, and the time of every stored row.
   */
  serverTime: ServerTime;
}

/**
 * Validates the intent, builds the plan and its command pack, and records the receipt in
 * state `prepared`. The partner is never contacted.
 */
export async function prepareStockCommand(intentInput: StockIntentInput, deps: PrepareDeps) {
  const { intent, target } = validateStockIntent(intentInput, { maxNotionalUsd: deps.config.partner.stockTradeMaxNotionalUsd });
  const planHash = computePlanHash(intent, deps.now);
  const { record } = await deps.store.ensurePrepared({
    id: receiptIdFor(planHash),
    planHash,
    intentJson: canonicalJson(intent),
    generatedAt: deps.now,
    firstPreparedAt: deps.serverTime,
    targetSymbol: target.ticker,
    targetTokenAddress: target.address,
    at: deps.serverTime,
  });
  const prepared: PreparedPlan = buildPlan(intent, target, deps.now, {
    notionalCapUsd: deps.config.partner.stockTradeMaxNotionalUsd,
    firstPreparedAt: record.firstPreparedAt,
    partnerApiUrl: deps.config.partner.apiUrl,
    throughThisService: laneState(deps.config).submitAvailable,
  });
  return {
    ...prepared,
    ...HARD_FLAGS,
    partnerContacted: false as const,
    receipt: { receiptId: record.id, status: record.status, statusMeaning: STATUS_MEANING[record.status] },
    nextStep:
      deps.serverTime.getTime() > planExpiresAt(record.firstPreparedAt).getTime()
        ? `This plan was first prepared here more than ${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes ago and can no longer be submitted. Prepare the intent again with another nowIso (or none) for a new plan. This service places no order itself.`
        : `Review the command. To hand it to the partner through this service, send the same intent to POST /api/stocks/submit-partner-intent with userConfirmedPlanHash set to planHash and nowIso set to generatedAt, before plan.expiresAt (${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes after this server first prepared the plan). This service places no order itself.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Submit

export interface SubmitInput {
  intent: StockIntentInput;
  userConfirmedPlanHash: string;
  /** The `generatedAt` that prepare returned (the request's `nowIso`). */
  planGeneratedAt: Date;
}

export interface SubmitDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The real time of the request: the time recorded for the submission and its lease. */
  observedAt: ServerTime;
  /** Real time, for the submission lease and for how long a concurrent submit waits for the first. */
  wallClock: () => ServerTime;
  sleep?: (ms: number) => Promise<void>;
}

const SUBMIT_POLL_INTERVAL_MS = 100;
const SUBMIT_LEASE_EXTRA_MS = 30_000;
const SUBMIT_WAIT_EXTRA_MS = 5_000;

function submitAnswer(record: StockReceiptRecord, replayed: boolean) {
  return {
    jobId: record.jobId!,
    receiptStatus: record.status,
    statusMeaning: STATUS_MEANING[record.status],
    planHash: record.planHash,
    receiptId: record.id,
    partnerJobStatus: record.partnerJobStatus,
    replayed,
    pollPath: `/api/stocks/partner-job/${encodeURIComponent(record.jobId!)}`,
    svcExecutesTrade: false as const,
    note: replayed
      ? 'This plan already has a partner job; nothing new was submitted. A job id is not a fill.'
      : 'The partner accepted a job for this plan. A job id is not a fill: nothing is confirmed until a chain 4663 transaction receipt is reconciled.',
  };
}

/**
 * Submit gates, in order (interface 4.5): 1 lane enabled (503), 2 confirmed plan hash (409),
 * 3 intent revalidated, notional cap included (422), 4 no vault_operator_rebalance (403).
 * Pure: it reads no store and contacts no one, so a caller that must never transmit (the MCP
 * tool) can run the same gates.
 */
export function checkSubmitGates(input: SubmitInput, cfg: StockLaneConfig) {
  const endpoint = requireLane(cfg);

  const planHash = computePlanHash(normalizeIntent(input.intent), input.planGeneratedAt);
  if (planHash !== input.userConfirmedPlanHash.toLowerCase()) {
    throw new SvcError(
      STOCK_ERROR.PLAN_HASH_MISMATCH,
      'userConfirmedPlanHash is not the plan hash of this intent at this nowIso; nothing was sent',
      {
        issues: [
          {
            code: STOCK_ERROR.PLAN_HASH_MISMATCH,
            message: 'send the exact intent you prepared, its planHash, and its generatedAt as nowIso',
            path: 'userConfirmedPlanHash',
          },
        ],
      },
    );
  }

  const { intent, target } = validateStockIntent(input.intent, { maxNotionalUsd: cfg.partner.stockTradeMaxNotionalUsd });

  if (intent.mode === 'vault_operator_rebalance') {
    throw new SvcError(
      STOCK_ERROR.VAULT_REBALANCE_NOT_ALLOWED_HERE,
      'A vault_operator_rebalance intent is never submitted through this lane; it stays a prepared command pack',
      {
        issues: [
          {
            code: STOCK_ERROR.VAULT_REBALANCE_NOT_ALLOWED_HERE,
            message: 'only personal_partner_trade intents may be submitted',
            path: 'intent.mode',
          },
        ],
      },
    );
  }
  return { endpoint, planHash, intent, target };
}

/** The submit gates of interface 4.5, in the order `checkSubmitGates` runs them. */
export const SUBMIT_GATES = ['LANE_ENABLED', 'PLAN_HASH_CONFIRMED', 'INTENT_REVALIDATED', 'NOT_VAULT_REBALANCE'] as const;

/**
 * What submit WOULD send, after the same gates, in the same order (`checkSubmitGates`):
 * the one partner request with the header and environment variable named, never the key.
 * Nothing is sent and nothing is recorded (`transmitted: false`): the MCP submit tool is
 * this function, and the transmitting route runs the same gates.
 */
export function previewStockSubmit(input: SubmitInput, cfg: StockLaneConfig) {
  const { planHash, intent, target } = checkSubmitGates(input, cfg);
  return {
    transmitted: false as const,
    gatesPassed: [...SUBMIT_GATES],
    planHash,
    receiptId: receiptIdFor(planHash),
    intent,
    target: { symbol: target.ticker, tokenAddress: target.address },
    wouldSend: {
      method: 'POST' as const,
      url: `${publicPartnerApiBase(cfg.partner.apiUrl) ?? PARTNER_API_URL_PLACEHOLDER}${PARTNER_PROMPT_PATH}`,
      authHeaderName: 'X-API-Key' as const,
      keySource: 'the server-only PARTNER_API_KEY setting (never in a request or a response)',
      body: { prompt: partnerCommand(intent) },
    },
    receiptStatusIfSent: 'job_pending' as const,
    svcExecutesTrade: false as const,
    partnerContacted: false as const,
    note: 'Nothing was sent to the partner and no receipt was written. POST /api/stocks/submit-partner-intent with the same body sends exactly this request, once per plan; a job id is not a fill.',
  };
}

/**
 * The partner command of a valid intent (interface 2.9), stateless: no plan is recorded and the
 * partner is never contacted. prepare-partner-command is the recording twin.
 */
export function generateStockCommand(intentInput: StockIntentInput, cfg: StockLaneConfig) {
  const { intent, target } = validateStockIntent(intentInput, { maxNotionalUsd: cfg.partner.stockTradeMaxNotionalUsd });
  return {
    command: partnerCommand(intent),
    commandPack: buildCommandPack(intent, target, findAssetByAddress(USDG.address)!, cfg.partner.apiUrl, laneState(cfg).submitAvailable),
    intent,
    recorded: false as const,
    partnerContacted: false as const,
    ...HARD_FLAGS,
  };
}

/**
 * Runs the gates, then hands the plan to the partner as at most one job per plan hash,
 * however many times or however concurrently the plan is submitted.
 */
export async function submitStockIntent(input: SubmitInput, deps: SubmitDeps) {
  const { endpoint, planHash: recomputed, intent, target } = checkSubmitGates(input, deps.config);

  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const wallClock = deps.wallClock;
  let { record } = await deps.store.ensurePrepared({
    id: receiptIdFor(recomputed),
    planHash: recomputed,
    intentJson: canonicalJson(intent),
    generatedAt: input.planGeneratedAt,
    firstPreparedAt: deps.observedAt,
    targetSymbol: target.ticker,
    targetTokenAddress: target.address,
    at: deps.observedAt,
  });

  const leaseMs = endpoint.timeoutMs + SUBMIT_LEASE_EXTRA_MS;
  const waitUntil = wallClock().getTime() + endpoint.timeoutMs + SUBMIT_WAIT_EXTRA_MS;
  for (;;) {
    if (record.jobId) return submitAnswer(record, true);
    if (record.status !== 'prepared') {
      throw new SvcError(
        STOCK_ERROR.RECEIPT_NOT_SUBMITTABLE,
        `This plan's receipt is ${record.status}; only a prepared plan without a job may be submitted`,
        {
          issues: [{ code: STOCK_ERROR.RECEIPT_NOT_SUBMITTABLE, message: STATUS_MEANING[record.status] }],
        },
      );
    }
    const expiresAt = planExpiresAt(record.firstPreparedAt);
    if (deps.observedAt.getTime() > expiresAt.getTime()) {
      // The server's clock decides: a nowIso that names the plan never extends its life.
      throw new SvcError(
        STOCK_ERROR.PLAN_EXPIRED,
        `This plan expired at ${expiresAt.toISOString()}, ${STOCK_PLAN_LIFETIME_SECONDS / 60} minutes after this server first prepared it; nothing was sent. Prepare the intent again and confirm the new plan.`,
        {
          issues: [
            {
              code: STOCK_ERROR.PLAN_EXPIRED,
              message: `a plan may be submitted for ${STOCK_PLAN_LIFETIME_SECONDS} seconds after its first prepare`,
              path: 'userConfirmedPlanHash',
            },
          ],
        },
      );
    }
    if (await deps.store.claimSubmission(recomputed, wallClock(), leaseMs)) break;
    if (wallClock().getTime() > waitUntil) {
      throw new SvcError(
        STOCK_ERROR.SUBMIT_IN_PROGRESS,
        'Another submission of this plan is still talking to the partner; poll or submit again shortly',
      );
    }
    await sleep(SUBMIT_POLL_INTERVAL_MS);
    record = (await deps.store.findByPlanHash(recomputed)) ?? record;
  }

  let accepted: { jobId: string; partnerStatus: PartnerJobStatus };
  try {
    accepted = await submitPartnerPrompt(endpoint, partnerCommand(intent));
  } catch (error) {
    // The receipt stays where it was; the lease ends so the plan can be submitted again.
    await deps.store.releaseSubmission(recomputed);
    throw error;
  }

  const latest = (await deps.store.findByPlanHash(recomputed)) ?? record;
  const updated = await transition(deps.store, latest, (current) => {
    // A reconciliation may have proven something on chain meanwhile: the job is still
    // recorded, but on-chain proof keeps its status.
    const next: ReceiptStatus = current.status === 'prepared' ? 'job_pending' : current.status;
    return {
      change: { status: next, statusReason: null, jobId: accepted.jobId, partnerJobStatus: 'pending', releaseSubmitClaim: true },
      event: {
        trigger: 'submit',
        reason: null,
        jobId: accepted.jobId,
        partnerJobStatus: 'pending',
        txHash: null,
        blockNumber: null,
        chainId: null,
        at: deps.observedAt,
      },
    };
  });
  return submitAnswer(updated, false);
}

// ---------------------------------------------------------------------------------------------
// Job poll

export interface PollDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The answer's clock (`polledAt`). */
  now: Date;
  /** The server's clock: the time of every stored change. */
  serverTime: ServerTime;
}

function jobChange(
  current: StockReceiptRecord,
  partnerStatus: PartnerJobStatus,
  trigger: 'job_poll' | 'reconcile',
  at: ServerTime,
): { change: ReceiptChange; event: ReceiptEventInput } | null {
  const t = jobStatusTransition(current.status, partnerStatus);
  if (t.next === current.status && current.partnerJobStatus === partnerStatus) return null;
  return {
    change: { status: t.next, statusReason: t.next === current.status ? current.statusReason : null, partnerJobStatus: partnerStatus },
    event: {
      trigger,
      reason: t.reason ?? null,
      jobId: current.jobId,
      partnerJobStatus: partnerStatus,
      txHash: null,
      blockNumber: null,
      chainId: null,
      at,
    },
  };
}

/** GET /api/stocks/partner-job/{jobId}: reads the job from the partner and maps it (interface 3.1). */
export async function pollPartnerJob(jobId: string, deps: PollDeps) {
  const record = isPlausibleJobId(jobId) ? await deps.store.findByJobId(jobId) : null;
  if (!record) {
    throw new SvcError(STOCK_ERROR.STOCK_JOB_UNKNOWN, 'No receipt of this service records this partner job; the partner was not asked', {
      issues: [{ code: STOCK_ERROR.STOCK_JOB_UNKNOWN, message: 'unknown job id', path: 'jobId' }],
    });
  }
  const endpoint = requireLane(deps.config);
  const { partnerStatus } = await readPartnerJob(endpoint, jobId);
  const updated = await transition(deps.store, record, (current) => jobChange(current, partnerStatus, 'job_poll', deps.serverTime));
  const kept = jobStatusTransition(updated.status, partnerStatus).reason;
  return {
    jobId,
    partnerJobStatus: partnerStatus,
    receiptStatus: updated.status,
    statusMeaning: STATUS_MEANING[updated.status],
    ...(kept ? { statusKeptReason: kept, statusKeptMeaning: REASON_MEANING[kept] } : {}),
    polledAt: deps.now.toISOString(),
    receipt: publicReceipt(updated),
    svcExecutesTrade: false as const,
  };
}

// ---------------------------------------------------------------------------------------------
// Reconcile

export interface ReconcileInput {
  txHash?: string;
  jobId?: string;
  planHash?: string;
}

export interface ReconcileDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The answer's clock (`checkedAt`). */
  now: Date;
  /** The server's clock: the time of every stored change. */
  serverTime: ServerTime;
  /** The client of chain 4663, or null when no RPC is configured. */
  chain: BrokerChainClient | null;
  /** Injectable for tests (the real one reads through `chain`). */
  readProof?: (txHash: string) => Promise<ChainRead>;
}

/** The terms of a stored plan that a transaction must match. */
function planTermsOf(record: StockReceiptRecord): PlanTerms {
  const intent = JSON.parse(record.intentJson) as StockIntent;
  return {
    side: intent.side,
    targetTokenAddress: record.targetTokenAddress,
    usdgAddress: USDG.address,
    inputUnits: usdgUnits(intent.inputAmount),
    maxSlippageBps: intent.maxSlippageBps,
    firstPreparedAt: record.firstPreparedAt,
  };
}

interface ChainJudgement {
  verdict: ChainVerdict;
  checks: ProofCheck[];
  flows: SenderFlows | null;
  /** How the transaction is tied to this plan (null when no mined transaction was read). */
  binding: ProofBinding | null;
  /** Where the claim stands against the transaction's holder, when it proves the plan. */
  standing: ClaimStanding | null;
  /** The plan that held the transaction by a caller claim, when this claim takes it over. */
  takeOverFrom: string | null;
  partnerErrorCode?: string;
}

function verdictOf(tx: MinedTransaction, judged: Judgement): ChainVerdict {
  if (judged.outcome === 'no_proof') return { kind: 'no_proof', txHash: tx.txHash, blockNumber: tx.blockNumber, reason: judged.reason };
  return { kind: judged.outcome, txHash: tx.txHash, blockNumber: tx.blockNumber };
}

/**
 * Whether the partner's answer for the plan's own job names the transaction: what makes it a
 * `partner_job` binding rather than a caller's claim. A plan without a job, a lane that is off
 * or a failed read names nothing.
 */
async function partnerJobNames(record: StockReceiptRecord, txHash: string, cfg: StockLaneConfig) {
  const endpoint = partnerEndpoint(cfg);
  if (!record.jobId || !endpoint) return { named: false };
  try {
    const job = await readPartnerJob(endpoint, record.jobId);
    const named: string[] = [...job.transactionHashes, ...extractTxHashes(job.response), ...extractTxHashes(job.error)];
    return { named: named.includes(txHash) };
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    return { named: false, partnerErrorCode: error.code };
  }
}

/**
 * Whether a transaction read from chain 4663 is this plan's trade, by the proof rule
 * (proof/stock-trade.ts). The plan's claim on it is a `partner_job` binding when the partner's
 * answer for the plan's job names it, else a caller's claim; the store says who holds it.
 */
async function judgeChainRead(proof: ChainRead['proof'], record: StockReceiptRecord, deps: ReconcileDeps): Promise<ChainJudgement> {
  if (proof.kind !== 'transaction') return { verdict: proof, checks: [], flows: null, binding: null, standing: null, takeOverFrom: null };
  const { named, partnerErrorCode } = await partnerJobNames(record, proof.txHash, deps.config);
  const binding: ProofBinding = named ? 'partner_job' : 'caller_claim';
  const holder = await deps.store.holderOf(proof.txHash);
  const judged = judgeTransaction(proof, planTermsOf(record), { subject: { lane: 'stock_plan', id: record.id }, binding, holder });
  const standing = judged.outcome === 'no_proof' ? null : judged.standing;
  return {
    verdict: verdictOf(proof, judged),
    checks: judged.checks,
    flows: judged.flows,
    binding,
    standing,
    takeOverFrom: standing === 'takes_over' ? holder!.id : null,
    partnerErrorCode,
  };
}

/** The history event of a reconciliation that read `verdict`'s transaction. */
function reconcileEvent(jobId: string | null, verdict: ChainVerdict, reason: ReasonCode | undefined, at: ServerTime): ReceiptEventInput {
  return {
    trigger: 'reconcile',
    reason: reason ?? null,
    jobId,
    partnerJobStatus: null,
    txHash: verdict.txHash,
    blockNumber: 'blockNumber' in verdict ? verdict.blockNumber : null,
    chainId: BROKER_CHAIN_ID,
    at,
  };
}

/** The plan that loses a caller-claimed transaction to another plan's partner job. */
function proofTakenFrom(receiptId: string, verdict: ChainVerdict, at: ServerTime): ProofTakeOver {
  return {
    receiptId,
    changeFor: (loser) => {
      const t = proofTakenTransition();
      return {
        change: { status: t.next, statusReason: t.reason ?? null, txHash: null, blockNumber: null },
        event: reconcileEvent(loser.jobId, verdict, t.reason, at),
      };
    },
  };
}

/** The change a chain verdict makes to a receipt, or null when nothing new is to be written. */
function chainChange(
  current: StockReceiptRecord,
  judged: Pick<ChainJudgement, 'verdict' | 'binding' | 'takeOverFrom'>,
  at: ServerTime,
  onReason: (reason: ReasonCode | undefined) => void,
): ReturnType<ChangeFor> {
  const { verdict } = judged;
  const outranksCurrentProof = judged.binding === 'partner_job' && current.proofBinding === 'caller_claim';
  const t = chainProofTransition(current.status, current.txHash, verdict, outranksCurrentProof);
  onReason(t.reason);
  if (verdict.kind === 'unverified') return null;
  const provenByThis = (verdict.kind === 'confirmed' || verdict.kind === 'reverted') && t.reason === undefined;
  const newProof = provenByThis && (current.txHash !== verdict.txHash || current.blockNumber !== verdict.blockNumber);
  // Nothing new: the receipt is not written.
  if (t.next === current.status && !newProof) return null;
  return {
    change: {
      status: t.next,
      statusReason: t.reason ?? null,
      ...(provenByThis ? { txHash: verdict.txHash, blockNumber: verdict.blockNumber, proofBinding: judged.binding ?? 'caller_claim' } : {}),
    },
    event: reconcileEvent(current.jobId, verdict, t.reason, at),
    ...(provenByThis && judged.takeOverFrom && current.txHash !== verdict.txHash
      ? { takeOver: proofTakenFrom(judged.takeOverFrom, verdict, at) }
      : {}),
  };
}

async function findReceipt(input: ReconcileInput, store: StockReceiptStore): Promise<StockReceiptRecord> {
  if (!input.planHash && !input.jobId && !input.txHash) {
    throw new SvcError(STOCK_ERROR.RECONCILE_REFERENCE_REQUIRED, 'Name the receipt: give planHash or jobId (and txHash as proof)', {
      issues: [{ code: STOCK_ERROR.RECONCILE_REFERENCE_REQUIRED, message: 'planHash, jobId or a recorded txHash is required' }],
    });
  }
  const byPlan = input.planHash ? await store.findByPlanHash(input.planHash.toLowerCase()) : null;
  const byJob = input.jobId ? await store.findByJobId(input.jobId) : null;
  if (input.planHash && !byPlan) throw unknownReceipt('planHash');
  if (input.jobId && !byJob) throw unknownReceipt('jobId');
  if (byPlan && byJob && byPlan.id !== byJob.id) {
    throw new SvcError(STOCK_ERROR.RECEIPT_REFERENCE_MISMATCH, 'planHash and jobId name two different receipts', {
      issues: [{ code: STOCK_ERROR.RECEIPT_REFERENCE_MISMATCH, message: 'the job belongs to another plan', path: 'jobId' }],
    });
  }
  const found = byPlan ?? byJob ?? (input.txHash ? await store.findByTxHash(input.txHash) : null);
  if (!found) throw unknownReceipt('txHash');
  return found;
}

function unknownReceipt(path: string): SvcError {
  return new SvcError(STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, 'No stock receipt matches this reference', {
    issues: [{ code: STOCK_ERROR.STOCK_RECEIPT_UNKNOWN, message: `no receipt for this ${path}`, path }],
  });
}

/**
 * POST /api/stocks/reconcile-receipt. With a txHash: the chain decides (after proving it is
 * chain 4663). Without one: the recorded partner job is read. A read that fails proves
 * nothing and changes nothing; a trusted read that finds no proof returns the receipt to
 * `prepared`, except that on-chain proof is never undone by the absence of proof.
 */
export async function reconcileStockReceipt(rawInput: ReconcileInput, deps: ReconcileDeps) {
  const input = { ...rawInput, txHash: rawInput.txHash?.toLowerCase() };
  const record = await findReceipt(input, deps.store);
  const previousStatus = record.status;
  let reason: ReasonCode | undefined;
  let chainIdVerified: boolean | null = null;
  let source: 'chain' | 'partner_job' | 'none';
  let partnerErrorCode: string | undefined;
  let proofChecks: ProofCheck[] = [];
  let senderFlows: SenderFlows | null = null;
  let updated: StockReceiptRecord;

  if (input.txHash) {
    source = 'chain';
    const read = await (deps.readProof ?? ((tx) => readTransactionProof(deps.chain, tx)))(input.txHash);
    chainIdVerified = read.chainIdVerified;
    const judged = await judgeChainRead(read.proof, record, deps);
    proofChecks = judged.checks;
    senderFlows = judged.flows;
    partnerErrorCode = judged.partnerErrorCode;
    const apply = (verdict: ChainVerdict, takeOverFrom: string | null) =>
      transition(deps.store, record, (current) =>
        chainChange(current, { verdict, binding: judged.binding, takeOverFrom }, deps.serverTime, (r) => (reason = r)),
      );
    try {
      updated = await apply(judged.verdict, judged.takeOverFrom);
    } catch (error) {
      if (!(error instanceof ProofTransactionTakenError) || judged.verdict.kind === 'unverified' || judged.verdict.kind === 'not_found')
        throw error;
      // A concurrent reconciliation of another subject recorded this transaction first: the
      // database's unique key decided, and for this plan it is no proof.
      proofChecks = [
        ...judged.checks.filter((c) => c.check === 'mined_after_first_sight'),
        { check: 'not_proof_of_other_subject', passed: false },
      ];
      updated = await apply(
        { kind: 'no_proof', txHash: judged.verdict.txHash, blockNumber: judged.verdict.blockNumber, reason: REASON.TX_PROVES_OTHER_PLAN },
        null,
      );
    }
    // The plan already held this transaction on a caller's word; its own partner job now names it.
    if (judged.standing === 'own' && judged.binding === 'partner_job' && updated.proofBinding === 'caller_claim' && updated.txHash) {
      await deps.store.strengthenProofBinding(updated.id, updated.txHash);
      updated = (await deps.store.findByPlanHash(updated.planHash)) ?? updated;
    }
  } else if (record.jobId) {
    source = 'partner_job';
    const endpoint = partnerEndpoint(deps.config);
    if (!endpoint) {
      reason = REASON.PARTNER_LANE_NOT_ENABLED;
      updated = record;
    } else {
      let partnerStatus: PartnerJobStatus | undefined;
      try {
        partnerStatus = (await readPartnerJob(endpoint, record.jobId)).partnerStatus;
      } catch (error) {
        if (!(error instanceof SvcError)) throw error;
        reason = REASON.PARTNER_JOB_READ_FAILED;
        partnerErrorCode = error.code;
      }
      updated = partnerStatus
        ? await transition(deps.store, record, (current) => jobChange(current, partnerStatus, 'reconcile', deps.serverTime))
        : record;
      if (partnerStatus) reason = jobStatusTransition(updated.status, partnerStatus).reason;
    }
  } else {
    source = 'none';
    updated = await transition(deps.store, record, (current) => {
      if (current.status === 'prepared' || current.status === 'onchain_confirmed' || current.status === 'onchain_reverted') {
        reason = current.status === 'prepared' ? REASON.NO_PROOF_SUPPLIED : REASON.ONCHAIN_PROOF_KEPT;
        return null;
      }
      reason = REASON.NO_PROOF_SUPPLIED;
      return {
        change: { status: 'prepared', statusReason: REASON.NO_PROOF_SUPPLIED },
        event: {
          trigger: 'reconcile',
          reason: REASON.NO_PROOF_SUPPLIED,
          jobId: null,
          partnerJobStatus: null,
          txHash: null,
          blockNumber: null,
          chainId: null,
          at: deps.serverTime,
        },
      };
    });
  }

  return {
    receipt: publicReceipt(updated),
    reconciliation: {
      source,
      previousStatus,
      status: updated.status,
      moved: updated.status !== previousStatus,
      reason: reason ?? null,
      reasonMeaning: reason ? REASON_MEANING[reason] : null,
      partnerErrorCode: partnerErrorCode ?? null,
      chainIdVerified,
      expectedChainId: BROKER_CHAIN_ID,
      txHash: input.txHash ?? null,
      proofChecks,
      senderFlows,
      checkedAt: deps.now.toISOString(),
    },
    svcExecutesTrade: false as const,
  };
}

/** GET /api/stocks/receipts/{planHash}: the receipt as stored; reads nothing external. */
export async function getStockReceipt(planHash: string, store: StockReceiptStore) {
  const record = await store.findByPlanHash(planHash.toLowerCase());
  if (!record) throw unknownReceipt('planHash');
  return { receipt: publicReceipt(record) };
}
