import { z } from 'zod';
import { stockPrepareAnswerSchema } from '../../../stocks/lane.schema';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { prepareStockCommand } from '../../../stocks/prepare';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { stockIntentInputErrorCode, stockIntentInputSchema } from '../../../stocks/intent';

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
  .output(withInvariants(stockPrepareAnswerSchema))
  .mutation(async ({ input, ctx }) =>
    prepareStockCommand(input.intent, {
      config: ctx.config,
      store: stockReceiptStore(),
      now: ctx.answerTime,
      serverTime: ctx.serverTime,
      // A signed-in caller becomes the plan's executor: only their trade will prove it.
      sessionWallet: (await ctx.getSession())?.address ?? null,
    }),
  );
