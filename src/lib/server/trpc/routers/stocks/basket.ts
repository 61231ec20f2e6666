import { z } from 'zod';
import { basketStatusSchema } from '../../../stocks/lane.schema';
import { stockBasketStore } from '../../../db/stock-basket-repository';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { getBasketStatus } from '../../../stocks/basket-status';
import { nowIsoField, publicProcedure, rest } from '../../init';
import { PLAN_HASH } from './inputs';

export const basketProcedure = publicProcedure
  .meta({
    family: 'stocks',
    callerPaths: ['legs.*.ticker', 'stoppedLegs.*.ticker'],
    openapi: rest(
      'GET',
      '/stocks/baskets/{basketHash}',
      "Each leg's status of a basket, and a summary never stronger than its weakest leg",
    ),
  })
  .input(z.object({ basketHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits'), nowIso: nowIsoField }))
  .output(basketStatusSchema)
  .query(({ input, ctx }) =>
    getBasketStatus(input.basketHash, {
      config: ctx.config,
      store: stockReceiptStore(),
      baskets: stockBasketStore(),
      now: ctx.answerTime,
      serverTime: ctx.serverTime,
    }),
  );
