import { z } from 'zod';
import { findPaymentReceipt } from '../../../db/x402-payment-repository';
import { SvcError } from '../../../errors';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainBlocks, chainBlockFields } from '../../../x402/lanes';
import { paymentReceiptSchema, verifyPaymentReceipt } from '../../../x402/receipts';
import { laneOf } from './paid-flow';

export const receiptProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('GET', '/x402/receipts/{receiptId}', 'A stored x402 payment receipt, with its hash recomputed'),
  })
  .input(
    z.object({
      receiptId: z.string().regex(/^x402rcpt_[0-9a-f]{32}$/, 'expected x402rcpt_ followed by 32 hex digits'),
      nowIso: nowIsoField,
    }),
  )
  .output(stampedOutput({ receipt: paymentReceiptSchema, hashMatches: z.boolean(), ...chainBlockFields }))
  .query(async ({ ctx, input }) => {
    const lane = laneOf(ctx.config);
    const receipt = await findPaymentReceipt(input.receiptId);
    if (!receipt)
      throw new SvcError('X402_RECEIPT_NOT_FOUND', 'No payment receipt has this id', {
        issues: [{ code: 'X402_RECEIPT_NOT_FOUND', message: 'unknown receipt id', path: 'receiptId' }],
      });
    return { receipt, hashMatches: verifyPaymentReceipt(receipt), ...chainBlocks(lane) };
  });
