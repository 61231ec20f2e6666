import { z } from 'zod';
import { basketSubmitAnswerSchema } from '../../../stocks/lane.schema';
import { stockBasketStore } from '../../../db/stock-basket-repository';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { logger } from '../../../logger';
import { readServerClock } from '../../../clock';
import { submitBasket } from '../../../stocks/basket-submit';
import { nowIsoField, publicProcedure, rest } from '../../init';
import { basketInputErrorCode, basketIntentShape, basketPlanInput } from './plan-basket';
import { PLAN_HASH } from './inputs';

export const submitBasketProcedure = publicProcedure
  .meta({
    family: 'stocks',
    inputErrorCode: basketInputErrorCode,
    callerPaths: ['legs.*.ticker'],
    openapi: rest('POST', '/stocks/submit-basket', 'Hand every leg of a confirmed basket to the partner with one confirmation'),
  })
  .input(
    z.object({
      ...basketIntentShape,
      userConfirmedBasketHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits').describe('the basketHash that plan-basket returned'),
      nowIso: nowIsoField,
    }),
  )
  .output(basketSubmitAnswerSchema)
  .mutation(async ({ input, ctx }) => {
    const answer = await submitBasket(
      { ...basketPlanInput(input), userConfirmedBasketHash: input.userConfirmedBasketHash },
      {
        config: ctx.config,
        store: stockReceiptStore(),
        baskets: stockBasketStore(),
        observedAt: ctx.serverTime,
        wallClock: readServerClock,
        sessionWallet: (await ctx.getSession())?.address ?? null,
      },
    );
    logger.info(
      {
        event: 'stock_basket_submit',
        requestId: ctx.requestId,
        basketHash: answer.basketHash,
        submitted: answer.submittedCount,
        replayed: answer.replayedCount,
        refused: answer.refusedCount,
      },
      'stock basket handed to the partner',
    );
    return answer;
  });
