import { z } from 'zod';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { commandPackSchema } from '../../../stocks/command-pack';
import { prepareStockCommand } from '../../../stocks/lane';
import { PLAN_HASH_RULE } from '../../../stocks/plan';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { stockIntentInputErrorCode, stockIntentInputSchema } from '../../../stocks/intent';
import { hardFlagFields, stockPlanSchema } from '../../../stocks/plan';
import { stockReceiptStatusSchema } from '../../../stocks/receipt.schema';

const prepareOutput = z.object({
  planHash: z.string().describe(PLAN_HASH_RULE),
  generatedAt: z.string().describe('send it back as nowIso on submit'),
  plan: stockPlanSchema,
  commandPack: commandPackSchema,
  ...hardFlagFields,
  partnerContacted: z.literal(false),
  receipt: z.object({ receiptId: z.string(), status: stockReceiptStatusSchema, statusMeaning: z.string() }),
  nextStep: z.string(),
});

export const prepareProcedure = publicProcedure
  .meta({
    family: 'stocks',
    tool: 'svc_prepare_partner_stock_token_trade',
    inputErrorCode: stockIntentInputErrorCode,
    openapi: rest(
      'POST',
      '/stocks/prepare-partner-command',
      'Validate a stock-trade intent and prepare its command pack (the partner is never contacted)',
    ),
  })
  .input(z.object({ intent: stockIntentInputSchema, nowIso: nowIsoField }))
  // A tool payload (svc_prepare_partner_stock_token_trade) carries the invariants (interface 1).
  .output(withInvariants(prepareOutput))
  .mutation(({ input, ctx }) =>
    prepareStockCommand(input.intent, {
      config: ctx.config,
      store: stockReceiptStore(),
      now: ctx.answerTime,
      serverTime: ctx.serverTime,
    }),
  );
