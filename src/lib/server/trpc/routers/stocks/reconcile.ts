import { z } from 'zod';
import { stockReconcileAnswerSchema } from '../../../stocks/lane.schema';
import { brokerChainClient } from '../../../chain-client';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { reconcileStockReceipt } from '../../../stocks/reconcile';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { PLAN_HASH } from './inputs';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export const reconcileProcedure = publicProcedure
  .meta({
    family: 'stocks',
    tool: 'svc_reconcile_partner_stock_token_job',
    openapi: rest('POST', '/stocks/reconcile-receipt', 'Reconcile a stock receipt from proof'),
  })
  .input(
    z.object({
      txHash: z.string().regex(TX_HASH, 'expected 0x followed by 64 hex digits').optional(),
      jobId: z.string().min(1).max(256).optional(),
      planHash: z.string().regex(PLAN_HASH, 'expected 64 hex digits').optional(),
      nowIso: nowIsoField,
    }),
  )
  // A tool payload (svc_reconcile_partner_stock_token_job) carries the invariants (interface 1).
  .output(withInvariants(stockReconcileAnswerSchema))
  .mutation(({ input, ctx }) =>
    reconcileStockReceipt(
      { txHash: input.txHash, jobId: input.jobId, planHash: input.planHash },
      {
        config: ctx.config,
        store: stockReceiptStore(),
        now: ctx.answerTime,
        serverTime: ctx.serverTime,
        chain: brokerChainClient(ctx.config),
      },
    ),
  );
