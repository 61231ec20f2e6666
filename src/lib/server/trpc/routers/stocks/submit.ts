import { z } from 'zod';
import { stockSubmitAnswerSchema } from '../../../stocks/lane.schema';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { logger } from '../../../logger';
import { submitStockIntent } from '../../../stocks/submit';
import { readServerClock } from '../../../clock';
import { publicProcedure, rest } from '../../init';
import { stockIntentInputErrorCode, stockIntentInputSchema } from '../../../stocks/intent';

export const submitProcedure = publicProcedure
  .meta({
    family: 'stocks',
    inputErrorCode: stockIntentInputErrorCode,
    openapi: rest('POST', '/stocks/submit-partner-intent', 'Hand a confirmed plan to the partner as one job'),
  })
  .input(
    z.object({
      intent: stockIntentInputSchema,
      userConfirmedPlanHash: z.string().min(1).max(200).describe('the planHash that prepare returned'),
      nowIso: z.string().describe('the generatedAt that prepare returned'),
    }),
  )
  .output(stockSubmitAnswerSchema)
  .mutation(async ({ input, ctx }) => {
    const answer = await submitStockIntent(
      { intent: input.intent, userConfirmedPlanHash: input.userConfirmedPlanHash, planGeneratedAt: ctx.answerTime },
      {
        config: ctx.config,
        store: stockReceiptStore(),
        observedAt: ctx.serverTime,
        wallClock: readServerClock,
        sessionWallet: (await ctx.getSession())?.address ?? null,
      },
    );
    logger.info(
      { event: 'stock_submit', requestId: ctx.requestId, planHash: answer.planHash, jobId: answer.jobId, replayed: answer.replayed },
      'stock plan handed to the partner',
    );
    return answer;
  });
