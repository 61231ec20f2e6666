import { z } from 'zod';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { commandPackSchema } from '../../../stocks/command-pack';
import { planBasket } from '../../../stocks/basket';
import { coilSchema } from '../../../coil/manifest';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { stockReceiptStatusSchema } from '../../../stocks/receipt.schema';
import { PLAN_HASH_RULE, stockPlanSchema } from '../../../stocks/plan';

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
        plan: stockPlanSchema,
        commandPack: commandPackSchema,
        receipt: z.object({ receiptId: z.string(), status: stockReceiptStatusSchema, statusMeaning: z.string() }),
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
  );
