/**
 * The stock-trade receipt as the stock lane answers it (prepare, job poll, reconcile, receipt
 * read): its status, the partner's job status, the reason codes and the history of changes.
 */
import { z } from 'zod';
import { PROOF_BINDINGS } from '../proof/rule';
import { STOCK_PLAN_LIFETIME_SECONDS } from './plan';
import { PARTNER_JOB_STATUSES, RECEIPT_STATUSES, REASON } from './status';

export const stockReceiptStatusSchema = z.enum(RECEIPT_STATUSES);

export const partnerJobStatusSchema = z.enum(PARTNER_JOB_STATUSES);

export const stockReasonCodeSchema = z.enum(Object.values(REASON) as [string, ...string[]]);

const historyEntrySchema = z.object({
  seq: z.number().int(),
  trigger: z.enum(['prepare', 'submit', 'job_poll', 'reconcile']),
  fromStatus: stockReceiptStatusSchema.nullable(),
  toStatus: stockReceiptStatusSchema,
  reason: z.string().nullable(),
  jobId: z.string().nullable(),
  partnerJobStatus: partnerJobStatusSchema.nullable(),
  txHash: z.string().nullable().describe('the transaction this step read (on-chain steps)'),
  blockNumber: z.string().nullable(),
  chainId: z.number().int().nullable(),
  at: z.string().describe("this server's clock when the change was stored (never nowIso)"),
});

export const stockReceiptSchema = z
  .object({
    receiptVersion: z.string(),
    receiptId: z.string().describe('srcpt_ + the first 24 hex digits of planHash'),
    planHash: z.string(),
    status: stockReceiptStatusSchema,
    statusMeaning: z.string(),
    statusReason: z.string().nullable(),
    chainId: z.literal(4663),
    targetSymbol: z.string(),
    targetTokenAddress: z.string(),
    generatedAt: z.string(),
    firstPreparedAt: z
      .string()
      .describe("this server's clock when it first saw the plan (never nowIso): a transaction mined before it proves nothing"),
    expiresAt: z
      .string()
      .describe(`firstPreparedAt + ${STOCK_PLAN_LIFETIME_SECONDS} s: after it (server clock) the plan is no longer submitted`),
    jobId: z.string().nullable(),
    partnerJobStatus: partnerJobStatusSchema.nullable().describe('the last job status the partner reported (its word, not settlement)'),
    txHash: z.string().nullable().describe('the transaction whose receipt proves the on-chain status (onchain_* only)'),
    blockNumber: z.string().nullable().describe('decimal block number of that transaction'),
    proofBinding: z
      .enum(PROOF_BINDINGS)
      .nullable()
      .describe(
        "how txHash is bound to this plan, strongest first: partner_job (the plan's own partner job names it), executor_wallet (its sender is the plan's known executor), caller_claim (a hash given to reconcile-receipt that fits the plan: a match by token, amount and time, not tied to who traded; never accepted once the plan has an executor). A stronger claim takes a transaction another plan holds by a weaker one; null when the plan holds none",
      ),
    proofBindingMeaning: z.string().nullable(),
    executorKnown: z
      .boolean()
      .describe('true when the service knows who trades for this plan: then only their trade, or one the partner job names, proves it'),
    executors: z
      .array(
        z.object({
          address: z.string().describe('checksummed wallet address'),
          source: z
            .enum(['siwe_session', 'partner_job'])
            .describe(
              'siwe_session: the signed-in session that prepared or submitted the plan; partner_job: the wallet its partner job reports',
            ),
        }),
      )
      .describe('the wallets known to trade for this plan (empty: none known)'),
    updatedAt: z.string().describe("this server's clock when the receipt last changed (never nowIso)"),
    history: z.array(historyEntrySchema).describe('every state change with its proof, oldest first'),
    svcExecutesTrade: z.literal(false),
  })
  .describe('Stock-trade receipt');
