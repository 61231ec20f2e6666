/**
 * The stock lane's answers (the use-case modules beside this one): the lane status, a prepared plan, a submission, a
 * job poll, a reconciliation and a basket of plans. Hard flags and the receipt are their own
 * schemas (plan.ts, receipt.schema.ts).
 */
import { z } from 'zod';
import { PROOF_CHECK_NAMES } from '../proof/rule';
import { commandPackSchema } from './command-pack';
import { BASKET_HASH_RULE } from './basket';
import { hardFlagFields, PLAN_HASH_RULE, stockPlanSchema } from './plan';
import { partnerJobStatusSchema, stockReasonCodeSchema, stockReceiptSchema, stockReceiptStatusSchema } from './receipt.schema';

export const stockLaneStatusSchema = z.object({
  lane: z.literal('rail_b_partner_stock_token'),
  laneStatus: z.enum(['enabled', 'not_enabled']),
  prepareAvailable: z.literal(true),
  partnerAgentApiEnabled: z.boolean(),
  partnerApiKeyConfigured: z.boolean(),
  partnerApiUrlConfigured: z.boolean(),
  submitAvailable: z.boolean(),
  jobPollAvailable: z.boolean(),
  chainReconcileConfigured: z.boolean(),
  chainId: z.literal(4663),
  notionalCapUsd: z.number(),
  slippageCapBps: z.number().int(),
  ...hardFlagFields,
  checkedAt: z.string(),
});

export const stockPrepareAnswerSchema = z.object({
  planHash: z.string().describe(PLAN_HASH_RULE),
  generatedAt: z.string().describe('send it back as nowIso on submit'),
  plan: stockPlanSchema,
  commandPack: commandPackSchema,
  ...hardFlagFields,
  partnerContacted: z.literal(false),
  receipt: stockReceiptSchema
    .pick({ receiptId: true, status: true, statusMeaning: true, executorKnown: true, executors: true })
    .describe('the recorded receipt: its state, and who is known to trade for the plan (only their trade will prove it)'),
  nextStep: z.string(),
});

export const stockSubmitAnswerSchema = z.object({
  jobId: z.string(),
  receiptStatus: stockReceiptStatusSchema.describe('job_pending on a first submission; the current status on a replay'),
  statusMeaning: z.string(),
  planHash: z.string(),
  receiptId: z.string(),
  partnerJobStatus: partnerJobStatusSchema.nullable(),
  replayed: z.boolean().describe('true when the plan already had a job and nothing was sent'),
  pollPath: z.string(),
  svcExecutesTrade: z.literal(false),
  note: z.string(),
});

export const partnerJobPollAnswerSchema = z.object({
  jobId: z.string(),
  partnerJobStatus: partnerJobStatusSchema,
  receiptStatus: stockReceiptStatusSchema,
  statusMeaning: z.string(),
  statusKeptReason: stockReasonCodeSchema.optional().describe('set when on-chain proof kept the receipt where it was'),
  statusKeptMeaning: z.string().optional(),
  polledAt: z.string(),
  receipt: stockReceiptSchema,
  svcExecutesTrade: z.literal(false),
});

export const stockReconcileAnswerSchema = z.object({
  receipt: stockReceiptSchema,
  reconciliation: z.object({
    source: z.enum(['chain', 'partner_job', 'none']),
    previousStatus: stockReceiptStatusSchema,
    status: stockReceiptStatusSchema,
    moved: z.boolean(),
    reason: stockReasonCodeSchema.nullable(),
    reasonMeaning: z.string().nullable(),
    partnerErrorCode: z.string().nullable(),
    chainIdVerified: z.boolean().nullable().describe('true only when the RPC answered eth_chainId 4663; null when the chain was not read'),
    expectedChainId: z.literal(4663),
    txHash: z.string().nullable(),
    proofChecks: z
      .array(z.object({ check: z.enum(PROOF_CHECK_NAMES), passed: z.boolean() }))
      .describe(
        'each check of the transaction against the plan, in order, up to the first that failed (empty when no mined transaction was read)',
      ),
    senderFlows: z
      .object({ sender: z.string(), targetDelta: z.string(), usdgDelta: z.string() })
      .nullable()
      .describe("the transaction sender's net change of the target token (base units) and of USDG (6-decimal units), when read"),
    checkedAt: z.string(),
  }),
  svcExecutesTrade: z.literal(false),
});

const issueOut = z.object({ code: z.string(), message: z.string(), path: z.string().optional() });

const basketShare = {
  ticker: z.string(),
  tokenAddress: z.string(),
  weightBps: z.number().int(),
  amountUsdg: z.string().describe("this asset's share of the total (ALLOCATION_RULE)"),
};

export const basketPlanSchema = z.object({
  generatedAt: z.string().describe('the legs planned by this call share it (a leg kept with its job keeps its own plan.generatedAt)'),
  basketHash: z.string().describe(BASKET_HASH_RULE + '; confirm it as userConfirmedBasketHash of POST /api/stocks/submit-basket'),
  totalAmountUsdg: z.string().describe('the basket total, stated before the person confirms'),
  plannedAmountUsdg: z.string(),
  notPlannedAmountUsdg: z.string().describe('the shares of the assets that could not be planned: not moved to another asset'),
  plannedCount: z.number().int(),
  notPlannedCount: z.number().int(),
  allocationRule: z.string(),
  riskLimits: z
    .object({
      maxSlippageBps: z
        .number()
        .describe("every leg's slippage: the request's, else the Coil's maxSlippage fuse, else 100; never above the Coil's fuse"),
      slippageSource: z.enum(['request', 'coil', 'service_default']),
      perLegNotionalCapUsd: z
        .number()
        .describe("each leg's maxNotionalUsd: the Coil's maxSingleOrderNotional fuse, never above this server's cap"),
      notionalCapSource: z.enum(['coil', 'service']),
      coil: z
        .object({
          maxSlippageBps: z.number().optional(),
          maxSingleOrderNotionalUsd: z.number().optional(),
          maxTotalNotionalUsd: z.number().optional(),
        })
        .describe("the Coil's own risk limits (its fuses) that bound the basket"),
    })
    .describe("the limits every leg was planned with, from the Coil's own risk limits"),
  confirmation: z.string().describe('what one confirmation of basketHash hands over, in words'),
  legs: z.array(
    z.discriminatedUnion('status', [
      z.object({
        ...basketShare,
        status: z.literal('planned'),
        planHash: z.string().describe(PLAN_HASH_RULE),
        plan: stockPlanSchema,
        commandPack: commandPackSchema,
        receipt: stockPrepareAnswerSchema.shape.receipt,
        keptWithJob: z.boolean().describe('true when the leg was kept from renewBasketHash because it already has a partner job'),
      }),
      z.object({
        ...basketShare,
        status: z.literal('not_planned'),
        reasonCode: z.string(),
        reasons: z.array(issueOut).describe("the stock lane's own issues for this asset's intent"),
      }),
    ]),
  ),
  partnerContacted: z.literal(false),
  svcExecutesTrade: z.literal(false),
});

const basketLegShape = {
  ticker: z.string(),
  tokenAddress: z.string(),
  weightBps: z.number().int(),
  amountUsdg: z.string(),
  planHash: z.string(),
};

export const basketSubmitAnswerSchema = z.object({
  basketHash: z.string(),
  legs: z
    .array(
      z.object({
        ...basketLegShape,
        outcome: z
          .enum(['submitted', 'replayed', 'refused'])
          .describe(
            'submitted: one partner job now; replayed: it had a job, nothing was sent; refused: the partner (or the lane) refused it',
          ),
        jobId: z.string().nullable(),
        receiptStatus: stockReceiptStatusSchema,
        refusal: z
          .object({ code: z.string(), message: z.string() })
          .nullable()
          .describe('why this leg was refused; the other legs are unaffected'),
      }),
    )
    .describe("every leg in the Coil's order"),
  submittedCount: z.number().int(),
  replayedCount: z.number().int(),
  refusedCount: z.number().int(),
  statusPath: z.string(),
  svcExecutesTrade: z.literal(false),
  note: z.string(),
});

const basketLegStatusSchema = z.object({
  ...basketLegShape,
  status: stockReceiptStatusSchema,
  statusMeaning: z.string(),
  jobId: z.string().nullable(),
  partnerJobStatus: partnerJobStatusSchema.nullable(),
  txHash: z.string().nullable(),
  proofBinding: stockReceiptSchema.shape.proofBinding,
  proofBindingMeaning: z.string().nullable(),
  executorKnown: z.boolean(),
  executors: stockReceiptSchema.shape.executors,
  partnerReadError: z
    .string()
    .nullable()
    .describe('set when the partner could not be read for this leg now; its status is the last recorded'),
});

export const basketStatusSchema = z.object({
  basketHash: z.string(),
  generatedAt: z.string(),
  totalAmountUsdg: z.string(),
  summary: z
    .enum(['prepared', 'job_pending', 'job_processing', 'job_completed_unconfirmed', 'onchain_confirmed', 'incomplete'])
    .describe(
      'the lowest state of any leg, in the order prepared < job_pending, job_processing < job_completed_unconfirmed < onchain_confirmed; incomplete when a leg failed, was cancelled or reverted. Never "filled".',
    ),
  summaryMeaning: z.string(),
  legs: z.array(basketLegStatusSchema).describe("the legs still going, in the Coil's order"),
  stoppedLegs: z.array(basketLegStatusSchema).describe('legs that failed, were cancelled or reverted, listed apart'),
  checkedAt: z.string(),
  svcExecutesTrade: z.literal(false),
});
