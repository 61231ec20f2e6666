import { z } from 'zod';
import { basketPlanSchema } from '../../../stocks/lane.schema';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { planBasket } from '../../../stocks/basket';
import { coilSchema } from '../../../coil/manifest';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';

export const planBasketProcedure = publicProcedure
  .meta({
    family: 'stocks',
    inputErrorCode: (path: string) => (path === 'coil' || path.startsWith('coil.') ? 'COIL_SHAPE' : 'INPUT_INVALID'),
    // The caller's own Coil texts (tickers) come back in the legs: not statements of the service.
    callerPaths: ['legs.*.ticker'],
    openapi: rest('POST', '/stocks/plan-basket', 'One stock-token plan per asset of a Coil, each with its share of a total USDG amount'),
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
  .output(withInvariants(basketPlanSchema))
  .mutation(async ({ input, ctx }) =>
    planBasket(
      {
        totalAmountUsdg: input.totalAmountUsdg,
        assets: input.coil.assets,
        maxSlippageBps: input.maxSlippageBps,
        userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
        userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
      },
      {
        config: ctx.config,
        store: stockReceiptStore(),
        now: ctx.answerTime,
        serverTime: ctx.serverTime,
        sessionWallet: (await ctx.getSession())?.address ?? null,
      },
    ),
  );
