import { z } from 'zod';
import { basketPlanSchema } from '../../../stocks/lane.schema';
import { stockBasketStore } from '../../../db/stock-basket-repository';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { coilRiskLimits, planBasket, type BasketPlanInput } from '../../../stocks/basket';
import { coilSchema } from '../../../coil/manifest';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { PLAN_HASH } from './inputs';

/** The basket intent: what plan-basket plans and submit-basket takes back with its hash. */
export const basketIntentShape = {
  coil: coilSchema.describe('the Coil whose assets and weights are planned; a value that is not a Coil at all is 400 COIL_SHAPE'),
  totalAmountUsdg: z
    .string()
    .max(64)
    .describe('the total USDG to spread over the basket, a decimal string with at most 6 decimals, e.g. "100"'),
  maxSlippageBps: z
    .number()
    .optional()
    .describe("integer, applied to every leg; absent: the Coil's own maxSlippage fuse, else 100; above the Coil's fuse is refused"),
  userAcknowledgedTokenizedExposureNotDirectStockOwnership: z.boolean().optional().describe('must be true'),
  userAcknowledgedPartnerExecutesTrade: z.boolean().optional().describe('must be true'),
};

export const basketInputErrorCode = (path: string) => (path === 'coil' || path.startsWith('coil.') ? 'COIL_SHAPE' : 'INPUT_INVALID');

/** The domain's basket input from the procedure input: the Coil's assets and its own risk limits. */
export function basketPlanInput(input: z.output<z.ZodObject<typeof basketIntentShape>>): BasketPlanInput {
  return {
    totalAmountUsdg: input.totalAmountUsdg,
    assets: input.coil.assets,
    maxSlippageBps: input.maxSlippageBps,
    risk: coilRiskLimits(input.coil),
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
    userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
  };
}

export const planBasketProcedure = publicProcedure
  .meta({
    family: 'stocks',
    inputErrorCode: basketInputErrorCode,
    // The caller's own Coil texts (tickers) come back in the legs: not statements of the service.
    callerPaths: ['legs.*.ticker'],
    openapi: rest('POST', '/stocks/plan-basket', 'One stock-token plan per asset of a Coil, each with its share of a total USDG amount'),
  })
  .input(
    z.object({
      ...basketIntentShape,
      renewBasketHash: z
        .string()
        .regex(PLAN_HASH, 'expected 64 hex digits')
        .optional()
        .describe('a basket planned before: its legs that already have a partner job keep their plan; the others are planned anew'),
      nowIso: nowIsoField,
    }),
  )
  .output(withInvariants(basketPlanSchema))
  .mutation(async ({ input, ctx }) =>
    planBasket(
      { ...basketPlanInput(input), renewBasketHash: input.renewBasketHash },
      {
        config: ctx.config,
        store: stockReceiptStore(),
        baskets: stockBasketStore(),
        now: ctx.answerTime,
        serverTime: ctx.serverTime,
        sessionWallet: (await ctx.getSession())?.address ?? null,
      },
    ),
  );
