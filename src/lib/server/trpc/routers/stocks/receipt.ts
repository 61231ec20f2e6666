import { z } from 'zod';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { getStockReceipt } from '../../../stocks/receipt-view';
import { nowIsoField, publicProcedure, rest } from '../../init';
import { stockReceiptSchema } from '../../../stocks/receipt.schema';
import { PLAN_HASH } from './inputs';

export const receiptProcedure = publicProcedure
  .meta({
    family: 'stocks',
    openapi: rest('GET', '/stocks/receipts/{planHash}', 'Read a stored stock receipt and its history'),
  })
  .input(z.object({ planHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits'), nowIso: nowIsoField }))
  .output(z.object({ receipt: stockReceiptSchema }))
  .query(({ input }) => getStockReceipt(input.planHash, stockReceiptStore()));
