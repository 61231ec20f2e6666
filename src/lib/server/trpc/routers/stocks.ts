/**
 * The stock-token lane (interface 4.5): partner status, prepare, submit, job poll, reconcile, and a
 * read of a stored receipt. The registry route of the family lives in routers/system.ts.
 * Domain: src/lib/server/stocks/; persistence: src/lib/server/db/stock-receipt-repository.ts.
 */
import { z } from 'zod';
import { brokerChainClient } from '../../chain-client';
import { stockReceiptStore } from '../../db/stock-receipt-repository';
import { logger } from '../../http/logger';
import { stockIntentInputSchema, stockIntentSchema } from '../../stocks/intent';
import { commandPackSchema } from '../../stocks/command-pack';
import {
  getStockReceipt,
  partnerLaneStatus,
  pollPartnerJob,
  generateStockCommand,
  prepareStockCommand,
  previewStockSubmit,
  reconcileStockReceipt,
  SUBMIT_GATES,
  submitStockIntent,
} from '../../stocks/lane';
import { buildArtifactReceipt } from '../../receipts/artifact';
import { artifactReceiptOut } from './receipt-shapes';
import { hardFlagFields, PLAN_HASH_RULE, STOCK_PLAN_LIFETIME_SECONDS, stockPlanSchema } from '../../stocks/plan';
import { ALLOCATION_RULE, planBasket } from '../../stocks/basket';
import { coilSchema } from '../../coil/manifest';
import { PROOF_BINDINGS, PROOF_CHECK_NAMES } from '../../proof/rule';
import { readServerClock } from '../../clock';
import { PARTNER_JOB_STATUSES, RECEIPT_STATUSES, REASON } from '../../stocks/status';
import { nowIsoField, publicProcedure, rest, router, stampedOutput, withInvariants } from '../init';

export const intentErrorCode = (path: string) => (path === 'intent' || path.startsWith('intent.') ? 'STOCK_INTENT_SHAPE' : 'INPUT_INVALID');

// ---------------------------------------------------------------------------------------------
// Schemas

/** Declared once, in the stocks domain; the names the other routers import. */
export const intentInput = stockIntentInputSchema;
export const intentOutput = stockIntentSchema;

export const hardFlags = hardFlagFields;

const receiptStatus = z.enum(RECEIPT_STATUSES);
const partnerJobStatus = z.enum(PARTNER_JOB_STATUSES);
const reasonCode = z.enum(Object.values(REASON) as [string, ...string[]]);

const historyEntry = z.object({
  seq: z.number().int(),
  trigger: z.enum(['prepare', 'submit', 'job_poll', 'reconcile']),
  fromStatus: receiptStatus.nullable(),
  toStatus: receiptStatus,
  reason: z.string().nullable(),
  jobId: z.string().nullable(),
  partnerJobStatus: partnerJobStatus.nullable(),
  txHash: z.string().nullable().describe('the transaction this step read (on-chain steps)'),
  blockNumber: z.string().nullable(),
  chainId: z.number().int().nullable(),
  at: z.string().describe("this server's clock when the change was stored (never nowIso)"),
});

const receiptSchema = z
  .object({
    receiptVersion: z.string(),
    receiptId: z.string().describe('srcpt_ + the first 24 hex digits of planHash'),
    planHash: z.string(),
    status: receiptStatus,
    statusMeaning: z.string(),
    statusReason: z.string().nullable(),
    chainId: z.literal(4663),
    targetSymbol: z.string(),
    targetTokenAddress: z.string(),
    generatedAt: z.string(),
    firstPreparedAt: z
      .string()
      .describe("this server's clock when it first saw the plan (never nowIso): a transaction mined before it proves nothing"),
    expiresAt: z
      .string()
      .describe(`firstPreparedAt + ${STOCK_PLAN_LIFETIME_SECONDS} s: after it (server clock) the plan is no longer submitted`),
    jobId: z.string().nullable(),
    partnerJobStatus: partnerJobStatus.nullable().describe('the last job status the partner reported (its word, not settlement)'),
    txHash: z.string().nullable().describe('the transaction whose receipt proves the on-chain status (onchain_* only)'),
    blockNumber: z.string().nullable().describe('decimal block number of that transaction'),
    proofBinding: z
      .enum(PROOF_BINDINGS)
      .nullable()
      .describe(
        "how txHash is bound to this plan: partner_job (the plan's own partner job names it; it takes a transaction another plan holds on a caller's word) or caller_claim (a hash given to reconcile-receipt); null when the plan holds none",
      ),
    proofBindingMeaning: z.string().nullable(),
    updatedAt: z.string().describe("this server's clock when the receipt last changed (never nowIso)"),
    history: z.array(historyEntry).describe('every state change with its proof, oldest first'),
    svcExecutesTrade: z.literal(false),
  })
  .describe('Stock-trade receipt');

export { commandPackSchema };

export const planSchema = stockPlanSchema;

const prepareOutput = z.object({
  planHash: z.string().describe(PLAN_HASH_RULE),
  generatedAt: z.string().describe('send it back as nowIso on submit'),
  plan: planSchema,
  commandPack: commandPackSchema,
  ...hardFlags,
  partnerContacted: z.literal(false),
  receipt: z.object({ receiptId: z.string(), status: receiptStatus, statusMeaning: z.string() }),
  nextStep: z.string(),
});

const submitOutput = z.object({
  jobId: z.string(),
  receiptStatus: receiptStatus.describe('job_pending on a first submission; the current status on a replay'),
  statusMeaning: z.string(),
  planHash: z.string(),
  receiptId: z.string(),
  partnerJobStatus: partnerJobStatus.nullable(),
  replayed: z.boolean().describe('true when the plan already had a job and nothing was sent'),
  pollPath: z.string(),
  svcExecutesTrade: z.literal(false),
  note: z.string(),
});

const pollOutput = z.object({
  jobId: z.string(),
  partnerJobStatus: partnerJobStatus,
  receiptStatus: receiptStatus,
  statusMeaning: z.string(),
  statusKeptReason: reasonCode.optional().describe('set when on-chain proof kept the receipt where it was'),
  statusKeptMeaning: z.string().optional(),
  polledAt: z.string(),
  receipt: receiptSchema,
  svcExecutesTrade: z.literal(false),
});

const reconcileOutput = z.object({
  receipt: receiptSchema,
  reconciliation: z.object({
    source: z.enum(['chain', 'partner_job', 'none']),
    previousStatus: receiptStatus,
    status: receiptStatus,
    moved: z.boolean(),
    reason: reasonCode.nullable(),
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

const statusOutput = z.object({
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
  ...hardFlags,
  checkedAt: z.string(),
});

const issueOut = z.object({ code: z.string(), message: z.string(), path: z.string().optional() });
const basketShare = {
  ticker: z.string(),
  tokenAddress: z.string(),
  weightBps: z.number().int(),
  amountUsdg: z.string().describe("this asset's share of the total (ALLOCATION_RULE)"),
};
const basketOutput = z.object({
  generatedAt: z.string().describe('every planned leg shares it: send it back as nowIso when submitting a leg'),
  totalAmountUsdg: z.string(),
  plannedAmountUsdg: z.string(),
  notPlannedAmountUsdg: z.string().describe('the shares of the assets that could not be planned: not moved to another asset'),
  plannedCount: z.number().int(),
  notPlannedCount: z.number().int(),
  allocationRule: z.string(),
  legs: z.array(
    z.discriminatedUnion('status', [
      z.object({
        ...basketShare,
        status: z.literal('planned'),
        planHash: z.string().describe(PLAN_HASH_RULE),
        plan: planSchema,
        commandPack: commandPackSchema,
        receipt: z.object({ receiptId: z.string(), status: receiptStatus, statusMeaning: z.string() }),
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

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const PLAN_HASH = /^[0-9a-fA-F]{64}$/;

// ---------------------------------------------------------------------------------------------

export const stocksRouter = router({
  partnerStatus: publicProcedure
    .meta({
      family: 'stocks',
      openapi: rest('GET', '/stocks/partner-status', 'Stock lane status: submit availability as booleans', {
        description:
          'Booleans and public limits only: whether PARTNER_AGENT_API_ENABLED is true and PARTNER_API_KEY / PARTNER_API_URL are set (never their values), whether submit and job polls are available, whether a chain RPC is configured for reconciliation, the notional cap and the slippage cap. Prepare is always available.',
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(statusOutput)
    .query(({ ctx }) => partnerLaneStatus(ctx.config, ctx.answerTime)),

  prepare: publicProcedure
    .meta({
      family: 'stocks',
      tool: 'svc_prepare_partner_stock_token_trade',
      inputErrorCode: intentErrorCode,
      openapi: rest(
        'POST',
        '/stocks/prepare-partner-command',
        'Validate a stock-trade intent and prepare its command pack (the partner is never contacted)',
        {
          description: `Validates the intent and rejects, never clamps: 422 STOCK_INTENT_INVALID with one issue per broken rule (MODE_UNSUPPORTED, SIDE_UNSUPPORTED, INPUT_ASSET_UNSUPPORTED, TARGET_ADDRESS_REQUIRED for a ticker-only intent, TARGET_ADDRESS_MALFORMED, TICKER_ADDRESS_MISMATCH for a canonical ticker at another address, NON_CANONICAL_ADDRESS, TARGET_NOT_STOCK_TOKEN, TARGET_SYMBOL_MISMATCH, INPUT_AMOUNT_INVALID, INPUT_AMOUNT_ABOVE_MAX_NOTIONAL, SLIPPAGE_INVALID, SLIPPAGE_ABOVE_CAP, NOTIONAL_INVALID, NOTIONAL_ABOVE_CAP, WRONG_CHAIN, ACK_TOKENIZED_EXPOSURE_REQUIRED, ACK_PARTNER_EXECUTES_REQUIRED, VENUE_UNSUPPORTED, VENUE_REQUIRED_FOR_VAULT_REBALANCE). Wrong types or unknown fields: 400 STOCK_INTENT_SHAPE. Returns the plan, planHash (${PLAN_HASH_RULE}), generatedAt, the hard flags and the command pack ( every command ends with "on broker"; its agentApi URLs name PARTNER_API_URL when configured, else keep the {partner_api_url} placeholder and say so), and records the receipt in state prepared. plan.expiresAt is ${STOCK_PLAN_LIFETIME_SECONDS} s after this server first prepared the plan, on the server's clock: the same plan prepared again keeps its first deadline.`,
        },
      ),
    })
    .input(z.object({ intent: intentInput, nowIso: nowIsoField }))
    // A tool payload (svc_prepare_partner_stock_token_trade) carries the invariants (interface 1).
    .output(withInvariants(prepareOutput))
    .mutation(({ input, ctx }) =>
      prepareStockCommand(input.intent, {
        config: ctx.config,
        store: stockReceiptStore(),
        now: ctx.answerTime,
        serverTime: ctx.serverTime,
      }),
    ),

  planBasket: publicProcedure
    .meta({
      family: 'stocks',
      inputErrorCode: (path: string) => (path === 'coil' || path.startsWith('coil.') ? 'COIL_SHAPE' : 'INPUT_INVALID'),
      // The caller's own Coil texts (tickers) come back in the legs: not statements of the service.
      callerPaths: ['legs.*.ticker'],
      openapi: rest('POST', '/stocks/plan-basket', 'One stock-token plan per asset of a Coil, each with its share of a total USDG amount', {
        description: `Splits totalAmountUsdg over the Coil's assets by weight (${ALLOCATION_RULE}) and prepares one buy plan per asset exactly as POST /api/stocks/prepare-partner-command does (personal_partner_trade, input USDG, maxNotionalUsd at this server's cap, the given maxSlippageBps and acknowledgments): each planned leg has its planHash, plan, command pack and receipt in state prepared. An asset whose intent the lane refuses (not a stock token, a non-canonical address, a share above the notional cap, a share of zero, a missing acknowledgment...) is a not_planned leg with the lane's own issues; its share is reported, never moved to another asset or clamped. Nothing is placed and the partner is never contacted: each leg is handed over like a single plan. 422 BASKET_INVALID when the total is not a positive decimal with at most 6 places or the weights do not add up to 10000 bps; 400 COIL_SHAPE for a value that is not a Coil.`,
      }),
    })
    .input(
      z.object({
        coil: coilSchema.describe('the Coil whose assets and weights are planned; a value that is not a Coil at all is 400 COIL_SHAPE'),
        totalAmountUsdg: z
          .string()
          .max(64)
          .describe('the total USDG to spread over the basket, a decimal string with at most 6 decimals, e.g. "100"'),
        maxSlippageBps: z.number().describe('integer, at most 500, applied to every leg'),
        userAcknowledgedTokenizedExposureNotDirectStockOwnership: z.boolean().optional().describe('must be true'),
        userAcknowledgedPartnerExecutesTrade: z.boolean().optional().describe('must be true'),
        nowIso: nowIsoField,
      }),
    )
    .output(withInvariants(basketOutput))
    .mutation(({ input, ctx }) =>
      planBasket(
        {
          totalAmountUsdg: input.totalAmountUsdg,
          assets: input.coil.assets,
          maxSlippageBps: input.maxSlippageBps,
          userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
          userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
        },
        { config: ctx.config, store: stockReceiptStore(), now: ctx.answerTime, serverTime: ctx.serverTime },
      ),
    ),

  generateCommand: publicProcedure
    .meta({
      family: 'stocks',
      tool: 'svc_generate_partner_stock_token_command',
      inputErrorCode: intentErrorCode,
      openapi: rest(
        'POST',
        '/stocks/generate-partner-command',
        'The partner command of a stock-trade intent, and nothing else: no plan is recorded, nobody is contacted',
        {
          description:
            'Validates the intent exactly as prepare-partner-command does (422 STOCK_INTENT_INVALID with one issue per rule, 400 STOCK_INTENT_SHAPE) and returns the command ("<phrase> on broker") with its command pack. Unlike prepare, it records no receipt and computes no plan hash: to hand the trade to the partner through this service, prepare it. Receipt kind stock_command.',
        },
      ),
    })
    .input(z.object({ intent: intentInput, nowIso: nowIsoField }))
    .output(
      stampedOutput({
        command: z.string(),
        commandPack: commandPackSchema,
        intent: intentOutput,
        recorded: z.literal(false),
        partnerContacted: z.literal(false),
        ...hardFlags,
        receipt: artifactReceiptOut,
        generatedAt: z.string(),
      }),
    )
    .mutation(({ input, ctx }) => {
      const generated = generateStockCommand(input.intent, ctx.config);
      return {
        ...generated,
        receipt: buildArtifactReceipt('stock_command', generated, ctx.answerTime),
        generatedAt: ctx.answerTime.toISOString(),
      };
    }),

  submitPreview: publicProcedure
    .meta({
      family: 'stocks',
      tool: 'svc_submit_partner_stock_token_intent',
      inputErrorCode: intentErrorCode,
      openapi: rest(
        'POST',
        '/stocks/submit-partner-intent/preview',
        'Run the submit gates and show what submit would send, without sending it',
        {
          description:
            "The same body and the same gates, in the same order, as POST /api/stocks/submit-partner-intent: 503 LANE_NOT_ENABLED unless PARTNER_AGENT_API_ENABLED=true and PARTNER_API_KEY (and PARTNER_API_URL) are set; 409 PLAN_HASH_MISMATCH; 422 STOCK_INTENT_INVALID (revalidated with this server's notional cap); 403 VAULT_REBALANCE_NOT_ALLOWED_HERE. When all pass, it answers the one request submit would send (the {partner_api_url} template, the X-API-Key header name, never the key) with transmitted: false. Nothing is sent and no receipt is written. Receipt kind stock_submit_preview.",
        },
      ),
    })
    .input(
      z.object({
        intent: intentInput,
        userConfirmedPlanHash: z.string().min(1).max(200).describe('the planHash that prepare returned'),
        nowIso: z.string().describe('the generatedAt that prepare returned'),
      }),
    )
    .output(
      stampedOutput({
        transmitted: z.literal(false),
        gatesPassed: z.array(z.enum(SUBMIT_GATES)).describe('every gate, in order: all passed'),
        planHash: z.string(),
        receiptId: z.string(),
        intent: intentOutput,
        target: z.object({ symbol: z.string(), tokenAddress: z.string() }),
        wouldSend: z.object({
          method: z.literal('POST'),
          url: z.string(),
          authHeaderName: z.literal('X-API-Key'),
          keySource: z.string(),
          body: z.object({ prompt: z.string() }),
        }),
        receiptStatusIfSent: z.literal('job_pending'),
        svcExecutesTrade: z.literal(false),
        partnerContacted: z.literal(false),
        note: z.string(),
        receipt: artifactReceiptOut,
        generatedAt: z.string(),
      }),
    )
    .mutation(({ input, ctx }) => {
      const preview = previewStockSubmit(
        { intent: input.intent, userConfirmedPlanHash: input.userConfirmedPlanHash, planGeneratedAt: ctx.answerTime },
        ctx.config,
      );
      return {
        ...preview,
        receipt: buildArtifactReceipt('stock_submit_preview', preview, ctx.answerTime),
        generatedAt: ctx.answerTime.toISOString(),
      };
    }),

  submit: publicProcedure
    .meta({
      family: 'stocks',
      inputErrorCode: intentErrorCode,
      openapi: rest('POST', '/stocks/submit-partner-intent', 'Hand a confirmed plan to the partner as one job', {
        description:
          'Gates, in order: 503 LANE_NOT_ENABLED unless PARTNER_AGENT_API_ENABLED=true and PARTNER_API_KEY (and PARTNER_API_URL) are set; 409 PLAN_HASH_MISMATCH unless userConfirmedPlanHash equals the plan hash recomputed from the intent with nowIso (the generatedAt of prepare); 422 STOCK_INTENT_INVALID when the intent no longer passes validation, the notional cap of this server included; 403 VAULT_REBALANCE_NOT_ALLOWED_HERE for vault_operator_rebalance. A plan without a job whose plan.expiresAt has passed on the server\'s clock is 409 PLAN_EXPIRED (nowIso names the plan and never extends its life). Then one POST {partner_api_url}/agent/prompt with X-API-Key → 200 { jobId, receiptStatus: "job_pending" }. A plan is sent at most once: a repeated or concurrent submit of the same plan answers the same jobId with replayed: true and sends nothing. Partner timeout → 502 PARTNER_TIMEOUT, partner 5xx or refusal → 502 PARTNER_HTTP_ERROR, unusable answer → 502 PARTNER_INVALID_OUTPUT; each leaves the receipt where it was. A partner refusal asking for verification in its own console → 403 PARTNER_EXTERNAL_VERIFICATION_REQUIRED (the partner\'s requirement: this service collects no location and never gates on jurisdiction). A job id is not a fill.',
      }),
    })
    .input(
      z.object({
        intent: intentInput,
        userConfirmedPlanHash: z.string().min(1).max(200).describe('the planHash that prepare returned'),
        nowIso: z.string().describe('the generatedAt that prepare returned'),
      }),
    )
    .output(submitOutput)
    .mutation(async ({ input, ctx }) => {
      const answer = await submitStockIntent(
        { intent: input.intent, userConfirmedPlanHash: input.userConfirmedPlanHash, planGeneratedAt: ctx.answerTime },
        { config: ctx.config, store: stockReceiptStore(), observedAt: ctx.serverTime, wallClock: readServerClock },
      );
      logger.info(
        { event: 'stock_submit', requestId: ctx.requestId, planHash: answer.planHash, jobId: answer.jobId, replayed: answer.replayed },
        'stock plan handed to the partner',
      );
      return answer;
    }),

  partnerJob: publicProcedure
    .meta({
      family: 'stocks',
      openapi: rest('GET', '/stocks/partner-job/{jobId}', 'Poll a partner job and map it to the receipt state', {
        description:
          "Reads GET {partner_api_url}/agent/job/{jobId} and maps the partner status: pending → job_pending, processing → job_processing, completed → job_completed_unconfirmed (the partner's word, not settlement), failed → job_failed, cancelled → job_cancelled. No fill state is ever produced, and a receipt with on-chain proof (onchain_confirmed, onchain_reverted) keeps its status (statusKeptReason ONCHAIN_PROOF_KEPT). 404 STOCK_JOB_UNKNOWN for a job no receipt records (the partner is not asked); 503 LANE_NOT_ENABLED; partner failures → 502 as for submit, with the receipt unchanged.",
      }),
    })
    .input(z.object({ jobId: z.string().min(1).max(256), nowIso: nowIsoField }))
    .output(pollOutput)
    .query(({ input, ctx }) =>
      pollPartnerJob(input.jobId, { config: ctx.config, store: stockReceiptStore(), now: ctx.answerTime, serverTime: ctx.serverTime }),
    ),

  reconcile: publicProcedure
    .meta({
      family: 'stocks',
      tool: 'svc_reconcile_partner_stock_token_job',
      openapi: rest('POST', '/stocks/reconcile-receipt', 'Reconcile a stock receipt from proof', {
        description:
          "Names the receipt by planHash or jobId (or a txHash already recorded). With txHash: eth_chainId must answer 4663 before anything is trusted; then the transaction must be this plan's trade by the service's one proof rule (docs/proof-rule.md), checks listed in reconciliation.proofChecks. Status 0x1 → onchain_confirmed only when, in order: mined_after_first_sight, its block is not older than the plan's first prepare on this server (TX_MINED_BEFORE_PLAN); not_proof_of_other_subject, no other plan or Mode B job holds it as proof (TX_PROVES_OTHER_PLAN; one transaction proves at most one subject, enforced by the database); moves_target_token (TX_NOT_FOR_TARGET_TOKEN); target_leg_by_sender, its sender received the target token (SENDER_DID_NOT_RECEIVE_TARGET; for a sell SENDER_DID_NOT_SPEND_TARGET); usdg_leg_by_sender, it spent USDG (SENDER_DID_NOT_SPEND_USDG; for a sell SENDER_DID_NOT_RECEIVE_USDG); amount_within_band, the plan's inputAmount within its maxSlippageBps, never more for a buy (USDG_SPENT_BELOW_PLAN, USDG_SPENT_ABOVE_PLAN; a sell USDG_RECEIVED_BELOW_PLAN, USDG_RECEIVED_ABOVE_PLAN). Status 0x0 → onchain_reverted only when tied to the plan (tied_to_subject): the partner's answer for the plan's job names the hash, or the calldata carries the USDG address, the plan's USDG amount in 6-decimal units and the target token (REVERTED_TX_NOT_TIED_TO_PLAN). receipt.proofBinding: partner_job when the partner's answer for the plan's own job names the transaction, else caller_claim; a partner_job claim takes the transaction from another plan holding it on a caller's claim (that plan returns to prepared, TX_CLAIMED_BY_PARTNER_JOB). A transaction that fails a check is no proof: the receipt returns to prepared (an on-chain status stays), with the failed check as reason. No receipt → prepared with TX_RECEIPT_NOT_FOUND. A read that fails (CHAIN_RPC_NOT_CONFIGURED, CHAIN_RPC_UNREACHABLE, CHAIN_ID_MISMATCH, TX_RECEIPT_READ_FAILED) changes nothing and says why. Without txHash: the recorded partner job is read and mapped as in the job poll; with no job either → prepared (NO_PROOF_SUPPLIED). onchain_confirmed is never undone by missing proof, only by a new receipt of the same transaction or by a transaction the plan's own partner job names. Every stored time is the server's clock, never nowIso. The RPC location never appears in a response. 404 STOCK_RECEIPT_UNKNOWN; 409 RECEIPT_REFERENCE_MISMATCH when planHash and jobId name different receipts.",
      }),
    })
    .input(
      z.object({
        txHash: z.string().regex(TX_HASH, 'expected 0x followed by 64 hex digits').optional(),
        jobId: z.string().min(1).max(256).optional(),
        planHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits').optional(),
        nowIso: nowIsoField,
      }),
    )
    // A tool payload (svc_reconcile_partner_stock_token_job) carries the invariants (interface 1).
    .output(withInvariants(reconcileOutput))
    .mutation(({ input, ctx }) =>
      reconcileStockReceipt(
        { txHash: input.txHash, jobId: input.jobId, planHash: input.planHash },
        {
          config: ctx.config,
          store: stockReceiptStore(),
          now: ctx.answerTime,
          serverTime: ctx.serverTime,
          chain: brokerChainClient(ctx.config),
        },
      ),
    ),

  receipt: publicProcedure
    .meta({
      family: 'stocks',
      openapi: rest('GET', '/stocks/receipts/{planHash}', 'Read a stored stock receipt and its history', {
        description:
          'The receipt as stored, with every state change and its proof; reads neither the partner nor the chain. 404 STOCK_RECEIPT_UNKNOWN.',
      }),
    })
    .input(z.object({ planHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits'), nowIso: nowIsoField }))
    .output(z.object({ receipt: receiptSchema }))
    .query(({ input }) => getStockReceipt(input.planHash, stockReceiptStore())),
});
