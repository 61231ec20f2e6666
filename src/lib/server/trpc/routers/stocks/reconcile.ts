import { z } from 'zod';
import { brokerChainClient } from '../../../chain-client';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { reconcileStockReceipt } from '../../../stocks/lane';
import { PROOF_CHECK_NAMES } from '../../../proof/rule';
import { nowIsoField, publicProcedure, rest, withInvariants } from '../../init';
import { stockReasonCodeSchema, stockReceiptSchema, stockReceiptStatusSchema } from '../../../stocks/receipt.schema';
import { PLAN_HASH } from './inputs';

const reconcileOutput = z.object({
  receipt: stockReceiptSchema,
  reconciliation: z.object({
    source: z.enum(['chain', 'partner_job', 'none']),
    previousStatus: stockReceiptStatusSchema,
    status: stockReceiptStatusSchema,
    moved: z.boolean(),
    reason: stockReasonCodeSchema.nullable(),
    reasonMeaning: z.string().nullable(),
    partnerErrorCode: z.string().nullable(),
    chainIdVerified: z.boolean().nullable().describe('true only when the RPC answered eth_chainId 4663; null when the chain was not read'),
    expectedChainId: z.literal(4663),
    txHash: z.string().nullable(),
    proofChecks: z
      .array(z.object({ check: z.enum(PROOF_CHECK_NAMES), passed: z.boolean() }))
      .describe(
        'each check of the transaction against the plan, in order, up to the first that failed (empty when no mined transaction was read)',
      ),
    senderFlows: z
      .object({ sender: z.string(), targetDelta: z.string(), usdgDelta: z.string() })
      .nullable()
      .describe("the transaction sender's net change of the target token (base units) and of USDG (6-decimal units), when read"),
    checkedAt: z.string(),
  }),
  svcExecutesTrade: z.literal(false),
});

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
  .output(withInvariants(reconcileOutput))
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
