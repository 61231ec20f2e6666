/**
 * The autonomy path under /api/partnerbot (interface 4.1 "compile, validate autonomy fuses,
 * command packs, post-run audits"): free, unauthenticated, family `autonomy` (stamped). Each
 * procedure parses, calls one domain function of src/lib/server/autonomy/ and shapes the
 * answer. Nothing on this path sends anything to anyone.
 */
import { z } from 'zod';
import { AUTONOMY_MODES } from '../../autonomy/modes';
import { AUTONOMY_ISSUE_CODES, validateAutonomy } from '../../autonomy/validate';
import { compileBrokerPath, generateBrokerMcpInstructions, generatePartnerbotCommandPack, type PathDeps } from '../../autonomy/broker-path';
import { ACTIVITY_SIDES, AUDIT_CHECKS, postRunAudit } from '../../autonomy/post-run-audit';
import { parseIsoInstant } from '../../clock';
import { coilSchema, fuseSchema } from '../../coil/manifest';
import { buildArtifactReceipt } from '../../receipts/artifact';
import { manifestHashOf } from '../../receipts/receipt';
import { BROKER_TICKER_PATTERN, brokerTickerField } from '../../registry/symbol-space';
import type { ErrorIssue } from '../../errors';
import type { McpToolName } from '../../registry/agents';
import type { RequestContext } from '../context';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { commandPackSchema } from './stocks';
import { fuseUnitOut, issueOut, receiptOut, shareCardOut } from './coil-schemas';
import { persistReceipt, shareUrlBaseField } from './coil-shared';
import { artifactReceiptOut, pathReceiptOut, receiptInput } from './receipt-shapes';
import { marketSessionOut } from './oracle-shapes';
import { toolInputErrorCode } from './coil-shared';

// COIL_SHAPE, COIL_INVALID, CAPSULE_COMPILE, RECEIPT_SHAPE and SHARE_CARD_REJECTED are the tools'.

/** A broken Coil is COIL_SHAPE, a broken activity list ACTIVITY_SHAPE, as for the tools. */
function autonomyInputErrorCode(path: string, issue?: ErrorIssue): string {
  if (path === 'activity' || path.startsWith('activity.')) return issue?.code === 'SYMBOL_SPACE_CONFUSION' ? issue.code : 'ACTIVITY_SHAPE';
  return toolInputErrorCode(path, issue);
}

function meta(tool: McpToolName, path: `/${string}`, summary: string, description: string) {
  return {
    family: 'autonomy' as const,
    tool,
    inputErrorCode: autonomyInputErrorCode,
    openapi: rest('POST', path, summary, { description }),
  };
}

// ---------------------------------------------------------------------------------------------
// Shapes

const coilField = coilSchema.describe('A Coil; a value that is not a Coil at all is 400 COIL_SHAPE');
const autonomyModeField = z.enum(AUTONOMY_MODES).describe('paper (default), preview or live_candidate; none sends anything');
const fusesField = z
  .array(fuseSchema)
  .max(32)
  .describe("Fuses the agent will run under, on top of the Coil's own: each may tighten a Coil fuse, never widen it");
const ackField = z
  .record(z.string(), z.unknown())
  .describe(
    'The live-autonomy acknowledgment of GET /api/partnerbot/schema: each statement literally true, plus acknowledgedAt (ISO 8601). Read for live_candidate only',
  );

const pathOptionsField = z
  .object({
    autonomyMode: autonomyModeField.optional(),
    fuses: fusesField.optional(),
    liveAutonomyAck: ackField.optional(),
    maxTotalNotionalUsd: z.number().positive().optional().describe('USD of the run; at most the maxTotalNotional fuse in force and 10000'),
  })
  .optional();

const autonomyFuseOut = z.object({
  kind: z.string(),
  unit: fuseUnitOut,
  limit: z.number().nullable(),
  source: z.string().describe('coil.<field> or fuses[i]'),
});
const gateOut = z
  .object({
    verdict: z.enum(['ready', 'blocked']),
    mode: autonomyModeField,
    missing: z
      .array(z.string())
      .describe('each unmet requirement: coil_valid, fuse:<kind>, fuse_not_widened:<kind>, live_autonomy_ack, ...'),
    meaning: z.string(),
  })
  .meta({ id: 'AutonomyGate' });

const partnerCommandOut = z.object({
  brokerTicker: z.string(),
  tokenAddress: z.string(),
  targetWeightBps: z.number(),
  notionalUsd: z.number(),
  commandPack: commandPackSchema,
  intentTemplate: z
    .record(z.string(), z.unknown())
    .describe('a stock-lane intent without the two acknowledgments, which only the user gives'),
});

const commandPackOut = z
  .object({
    packVersion: z.string(),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string(),
    autonomyMode: autonomyModeField,
    chainId: z.literal(4663),
    totalNotionalUsd: z.number(),
    cashWeightBps: z.number(),
    venuePhrase: z.literal('on broker'),
    executor: z.literal('partner'),
    commands: z.array(partnerCommandOut),
    acknowledgmentsRequired: z.array(z.string()),
    svcExecutesTrade: z.literal(false),
    partnerContacted: z.literal(false),
    nextStep: z.string(),
  })
  .meta({ id: 'PartnerbotCommandPack' });

const instructionsOut = z
  .object({
    instructionsVersion: z.string(),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string(),
    autonomyMode: autonomyModeField,
    modeMeaning: z.string(),
    executor: z.literal('user_broker_mcp_session'),
    symbolSpace: z.literal('broker_ticker'),
    symbols: z.array(
      z.object({ brokerTicker: z.string(), targetWeightBps: z.number(), planNotionalUsd: z.number(), maxOrderNotionalUsd: z.number() }),
    ),
    cashWeightBps: z.number(),
    totalNotionalUsd: z.number(),
    fuses: z.array(z.object({ kind: z.string(), unit: fuseUnitOut, limit: z.number().nullable(), rule: z.string() })),
    fuseChecksum: z.string(),
    marketSession: marketSessionOut,
    humanConfirmation: z.object({ thresholdUsd: z.number().nullable(), rule: z.string() }),
    stopConditions: z.array(z.string()),
    abortConditions: z.array(z.string()),
    steps: z.array(z.string()),
    never: z.array(z.string()),
    postRunAudit: z.object({ route: z.string(), reportFields: z.array(z.string()), rule: z.string() }),
    svcExecutes: z.literal(false),
    svcHoldsCredentials: z.literal(false),
    containsOrders: z.literal(false),
  })
  .meta({ id: 'BrokerMcpInstructions', description: "The broker MCP execution capsule: what a user's own broker-MCP agent follows" });

const activityItemInput = z
  .object({
    symbol: brokerTickerField(16)
      .regex(BROKER_TICKER_PATTERN, 'a broker ticker: a letter, then letters, digits, dots or dashes')
      .describe('the broker ticker the agent reports (a chain address here is SYMBOL_SPACE_CONFUSION)'),
    side: z.enum(ACTIVITY_SIDES),
    notionalUsd: z.number().positive().max(1e9),
    at: z
      .string()
      .max(40)
      .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' })
      .describe('when, per the agent'),
    brokerOrderId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .optional()
      .describe("the broker's order id as the agent reports it (never verified here)"),
    note: z.string().max(1000).optional().describe("the agent's own words; a claim of execution is quoted as an unconfirmed claim"),
    instrument: z.enum(['equity', 'etf', 'option']).optional(),
    margin: z.boolean().optional(),
    humanConfirmed: z.boolean().optional(),
    simulated: z.boolean().optional().describe('a paper or preview order, never submitted'),
  })
  .strict();

const auditReportOut = z
  .object({
    auditVersion: z.string(),
    pathReceiptId: z.string(),
    coilId: z.string(),
    manifestHash: z.string(),
    autonomyMode: autonomyModeField,
    evidence: z.literal('reported_unverified'),
    items: z.array(
      z.object({
        index: z.number().int(),
        status: z.literal('reported_unverified'),
        symbol: z.string(),
        side: z.enum(ACTIVITY_SIDES),
        notionalUsd: z.number(),
        at: z.string(),
        brokerOrderId: z.string().nullable(),
        simulated: z.boolean(),
        checks: z.array(
          z.object({ check: z.enum(AUDIT_CHECKS), result: z.enum(['pass', 'breach', 'not_applicable']), detail: z.string() }),
        ),
        breaches: z.array(z.string()),
        reportedNote: z.object({ quoted: z.array(z.string()), claimsExecution: z.boolean() }).nullable(),
      }),
    ),
    totals: z.object({
      reportedNotionalUsd: z.number(),
      byDay: z.array(z.object({ day: z.string(), notionalUsd: z.number(), turnoverBps: z.number().int() })),
    }),
    executionClaimsQuoted: z.number().int(),
    verdict: z.object({
      status: z.enum(['no_breach_found', 'breaches_found']),
      breachCount: z.number().int(),
      breaches: z.array(z.object({ item: z.number().int(), code: z.string(), message: z.string() })),
      meaning: z.string(),
    }),
    disclaimer: z.string(),
  })
  .meta({ id: 'PostRunAuditReport' });

function pathDeps(ctx: RequestContext): PathDeps {
  return { now: ctx.answerTime, serverTime: ctx.serverTime, stockNotionalCapUsd: ctx.config.partner.stockTradeMaxNotionalUsd };
}

const GATE_DOC =
  "The gate is ready only when the Coil validates, every mandatory autonomy fuse (GET /api/partnerbot/schema) is in force, no added fuse widens a Coil fuse, the Coil's executionMode allows the mode, every asset is a canonical stock or ETF token (or USDG cash), and, for live_candidate, the live-autonomy acknowledgment is complete, not ahead of the server clock and at most a day old.";

export const autonomyRouter = router({
  validateAutonomy: publicProcedure
    .meta(
      meta(
        'svc_validate_autonomy_fuses',
        '/partnerbot/validate-autonomy',
        'Validate a Coil, its autonomy fuses, the mode and the live-autonomy acknowledgment',
        `Always 200 with issues (an invalid Coil or a blocked gate is an answer, not an error status). Issue codes beyond the Coil's own: ${AUTONOMY_ISSUE_CODES.join(', ')} (LIVE_ACK_NOT_USED is a warning). An added fuse looser than the Coil's is AUTONOMY_FUSE_WIDENED and the Coil's value stays in force: nothing is widened or clamped. ${GATE_DOC} A ticker where an address belongs (or the reverse) is 400 SYMBOL_SPACE_CONFUSION. Receipt kind autonomy_validation.`,
      ),
    )
    .input(
      z.object({
        coil: coilField,
        autonomyMode: autonomyModeField.optional(),
        fuses: fusesField.optional(),
        liveAutonomyAck: ackField.optional(),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        generatedAt: z.string(),
        issues: z.array(issueOut),
        gate: gateOut,
        fuses: z.array(autonomyFuseOut).describe("the fuse set in force: the Coil's, tightened by the added ones"),
        fuseChecksum: z.string(),
        receipt: artifactReceiptOut,
      }),
    )
    .mutation(({ ctx, input }) => {
      const evaluation = validateAutonomy(input.coil, input, ctx.serverTime);
      const manifestHash = manifestHashOf(input.coil);
      const subject = {
        manifestHash,
        mode: evaluation.mode,
        issues: evaluation.issues,
        gate: evaluation.gate,
        fuses: evaluation.fuses,
        fuseChecksum: evaluation.fuseChecksum,
      };
      return {
        generatedAt: ctx.answerTime.toISOString(),
        issues: evaluation.issues,
        gate: evaluation.gate,
        fuses: evaluation.fuses,
        fuseChecksum: evaluation.fuseChecksum,
        receipt: buildArtifactReceipt('autonomy_validation', subject, ctx.answerTime, manifestHash),
      };
    }),

  compileBrokerPath: publicProcedure
    .meta(
      meta(
        'svc_compile_partnerbot_broker_path',
        '/partnerbot/compile-broker-path',
        'Compile the whole partnerbot → broker path: command pack, broker MCP instructions, paper runbook, gate, receipt, share card',
        `Needs a valid Coil (422 COIL_INVALID) whose gate is ready for the requested mode (422 AUTONOMY_GATE_BLOCKED with every blocking issue). ${GATE_DOC} liveReadiness says what live_candidate would still need. The run's notional is options.maxTotalNotionalUsd, else the maxTotalNotional fuse (422 CAPSULE_COMPILE NOTIONAL_ABOVE_FUSE / NOTIONAL_CAP_EXCEEDED when above it or 10000). Every partner command passes the stock lane's rules and the single-order fuse (422 COMMAND_PACK_INVALID otherwise). The receipt is the self-contained autonomy_path receipt the post-run audit takes; coilReceipt (kind coil_manifest, saved) backs the share card. Nothing is sent: liveOrderSent is false in every mode.`,
      ),
    )
    .input(
      z.object({
        coil: coilField,
        options: pathOptionsField,
        shareUrlBase: shareUrlBaseField,
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        generatedAt: z.string(),
        autonomyMode: autonomyModeField,
        gate: gateOut,
        liveReadiness: z
          .object({ verdict: z.enum(['ready', 'blocked']), missing: z.array(z.string()) })
          .describe('the gate as live_candidate'),
        fuses: z.array(autonomyFuseOut),
        fuseChecksum: z.string(),
        commandPack: commandPackOut,
        brokerMcpInstructions: instructionsOut,
        paperRunbook: z.object({
          runbookVersion: z.string(),
          mode: z.literal('paper'),
          steps: z.array(z.string()),
          liveOrderPossible: z.literal(false),
        }),
        receipt: pathReceiptOut,
        coilReceipt: receiptOut,
        shareCard: shareCardOut,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const path = compileBrokerPath(input.coil, input.options ?? {}, {
        ...pathDeps(ctx),
        serviceOrigin: ctx.config.origin,
        shareUrlBase: input.shareUrlBase,
      });
      await persistReceipt(ctx, input.coil, path.coilReceipt);
      return { generatedAt: ctx.answerTime.toISOString(), ...path };
    }),

  generateCommandPack: publicProcedure
    .meta(
      meta(
        'svc_generate_partnerbot_command_pack',
        '/partnerbot/generate-command-pack',
        'The partner command pack of a Coil: one command per stock or ETF token, each ending "on broker"',
        `Same gate and refusals as compile-broker-path. Each command is social ("@partnerbot buy $<amount> of <TICKER> on broker"), cli and agentApi for the token's share of the run's notional, with an intentTemplate the stock lane accepts once the user adds the two acknowledgments. The partner is never contacted. Receipt kind partnerbot_command_pack.`,
      ),
    )
    .input(z.object({ coil: coilField, options: pathOptionsField, nowIso: nowIsoField }))
    .output(stampedOutput({ generatedAt: z.string(), commandPack: commandPackOut, receipt: artifactReceiptOut }))
    .mutation(({ ctx, input }) => ({
      generatedAt: ctx.answerTime.toISOString(),
      ...generatePartnerbotCommandPack(input.coil, input.options ?? {}, pathDeps(ctx)),
    })),

  brokerMcpInstructions: publicProcedure
    .meta(
      meta(
        'svc_generate_broker_mcp_instructions',
        '/partnerbot/broker-mcp-instructions',
        "The broker MCP instruction pack alone: what a user's own broker-MCP agent follows",
        `Same gate and refusals as compile-broker-path. Broker tickers only (never chain addresses), the fuse set in force, the market session, stop and abort conditions, mode-specific steps and how to report the session. The receipt is the same autonomy_path receipt compile-broker-path answers for the same request; send it with the reported activity to POST /api/partnerbot/post-run-audit.`,
      ),
    )
    .input(z.object({ coil: coilField, options: pathOptionsField, nowIso: nowIsoField }))
    .output(stampedOutput({ generatedAt: z.string(), instructions: instructionsOut, receipt: pathReceiptOut }))
    .mutation(({ ctx, input }) => ({
      generatedAt: ctx.answerTime.toISOString(),
      ...generateBrokerMcpInstructions(input.coil, input.options ?? {}, pathDeps(ctx)),
    })),

  postRunAudit: publicProcedure
    .meta(
      meta(
        'svc_post_run_audit',
        '/partnerbot/post-run-audit',
        'Audit the activity an agent reports after a session against the path it ran under',
        `Takes the autonomy_path receipt (422 AUTONOMY_RECEIPT_INVALID when it is another kind or does not verify: its fuses could not be trusted) and up to 500 reported items. Each item is labelled reported_unverified and checked: ${AUDIT_CHECKS.join(', ')}. Breach codes: SYMBOL_NOT_IN_COIL, ORDER_NOTIONAL_ABOVE_CAP, RUN_NOTIONAL_ABOVE_CAP, DAILY_TURNOVER_ABOVE_CAP (per UTC day, as bps of the run's notional), OUTSIDE_MARKET_SESSION, OPTIONS_NOT_ALLOWED, MARGIN_NOT_ALLOWED, HUMAN_CONFIRMATION_MISSING, ORDER_OUTSIDE_LIVE_CANDIDATE, REPORTED_TIME_IN_FUTURE (against the server clock). A note that claims an execution is quoted sentence by sentence as an unconfirmed claim. The verdict names every breach. Receipt kind post_run_audit.`,
      ),
    )
    .input(z.object({ receipt: receiptInput, activity: z.array(activityItemInput).max(500), nowIso: nowIsoField }))
    .output(stampedOutput({ generatedAt: z.string(), report: auditReportOut, receipt: artifactReceiptOut }))
    .mutation(({ ctx, input }) => ({
      generatedAt: ctx.answerTime.toISOString(),
      ...postRunAudit(input.receipt, input.activity, { now: ctx.answerTime, serverTime: ctx.serverTime }),
    })),
});
