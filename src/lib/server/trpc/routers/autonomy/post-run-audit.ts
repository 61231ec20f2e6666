import { z } from 'zod';
import { ACTIVITY_SIDES, AUDIT_CHECKS, postRunAudit } from '../../../autonomy/post-run-audit';
import { parseIsoInstant } from '../../../clock';
import { BROKER_TICKER_PATTERN, brokerTickerField } from '../../../registry/symbol-space';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { artifactReceiptOut, receiptInput } from '../../../receipts/artifact.schema';
import { meta } from './meta';
import { autonomyModeField } from './inputs';
import { signedAnswer } from '../../procedure-kit/tool-answer';

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

export const postRunAuditProcedure = publicProcedure
  .meta(
    meta(
      'svc_post_run_audit',
      '/partnerbot/post-run-audit',
      'Audit the activity an agent reports after a session against the path it ran under',
    ),
  )
  .input(z.object({ receipt: receiptInput, activity: z.array(activityItemInput).max(500), nowIso: nowIsoField }))
  .output(stampedOutput({ generatedAt: z.string(), report: auditReportOut, receipt: artifactReceiptOut }))
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      generatedAt: ctx.answerTime.toISOString(),
      ...postRunAudit(input.receipt, input.activity, { now: ctx.answerTime, serverTime: ctx.serverTime }),
    }),
  );
