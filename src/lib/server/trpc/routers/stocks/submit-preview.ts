import { z } from 'zod';
import { previewStockSubmit, SUBMIT_GATES } from '../../../stocks/submit-gates';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { publicProcedure, rest, stampedOutput } from '../../init';
import { stockIntentInputErrorCode, stockIntentInputSchema, stockIntentSchema } from '../../../stocks/intent';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const submitPreviewProcedure = publicProcedure
  .meta({
    family: 'stocks',
    tool: 'svc_submit_partner_stock_token_intent',
    inputErrorCode: stockIntentInputErrorCode,
    openapi: rest(
      'POST',
      '/stocks/submit-partner-intent/preview',
      'Run the submit gates and show what submit would send, without sending it',
    ),
  })
  .input(
    z.object({
      intent: stockIntentInputSchema,
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
      intent: stockIntentSchema,
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
    return signedAnswer(ctx, {
      ...preview,
      receipt: buildArtifactReceipt('stock_submit_preview', preview, ctx.answerTime),
      generatedAt: ctx.answerTime.toISOString(),
    });
  });
