/** A drift report (coil/drift.ts) as answers show it. */
import { z } from 'zod';

export const driftReportOut = z.object({
  coilId: z.string(),
  manifestHash: z.string(),
  generatedAt: z.string(),
  thresholdBps: z.number(),
  readingStatus: z.enum(['complete', 'partial', 'missing']),
  entries: z.array(
    z.object({
      symbol: z.string(),
      targetWeightBps: z.number(),
      currentWeightBps: z.number().nullable().describe('null when no current weight was given (unknown, never 0)'),
      driftBps: z.number().nullable().describe('current minus target, signed; null without a reading'),
      breachesThreshold: z.boolean(),
      reading: z.enum(['provided', 'missing']),
    }),
  ),
  breachCount: z.number().int(),
  proposal: z
    .object({
      status: z.literal('proposal'),
      requiresHumanConfirmation: z.literal(true),
      requiresUserApproval: z.literal(true),
      executable: z.literal(false),
      intents: z.array(
        z.object({
          status: z.literal('preview'),
          symbol: z.string(),
          side: z.enum(['buy', 'sell']),
          orderType: z.literal('limit'),
          timeInForce: z.literal('day'),
          maxPositionWeightBps: z.number(),
          maxDailyTurnoverBps: z.number(),
          reason: z.string(),
          fuseChecks: z.array(z.string()),
          abortConditions: z.array(z.string()),
        }),
      ),
    })
    .optional()
    .describe('present only when breachCount > 0'),
  note: z.string(),
  disclaimer: z.string(),
});
