import { z } from 'zod';
import { vaultDepositJobRepository } from '../../../db/vault-deposit-job-repository';
import { SvcError } from '../../../errors';
import { parseUsdgAmount } from '../../../vaults/amount';
import { MODE_B_JOB_PREFIX, modeBJobStatus, reconcileDepositTx } from '../../../vaults/mode-b';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import {
  bytes32Shape,
  chainReaderFor,
  modeBSettingsFor,
  vaultInputErrorCode,
  verificationSource,
  verificationShape,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { jobShape } from '../../../vaults/mode-b.schema';
import { chainBlockFields } from '../../../x402/lanes';

const statusInput = z.object({
  jobId: z.string().max(100).describe('A Mode B job id (bvd_...) or a raw deposit transaction hash (0x + 64 hex digits)'),
  txHash: bytes32Shape.optional().describe('For a bvd_ job: a transaction hash to check in addition to those the partner reports'),
  receiver: z
    .string()
    .max(128)
    .optional()
    .describe('For a raw hash: the receiver the Deposit event must credit (default: the transaction sender)'),
  amount: z.string().max(64).optional().describe('For a raw hash: the amount (decimal USDG) the Deposit event must carry'),
  vaultId: z.string().max(100).optional(),
  nowIso: nowIsoField,
});

export const depositStatusProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    tool: 'svc_reconcile_partnerbot_deposit_receipt',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'GET',
      '/partnerbot/vault-deposit/status/{jobId}',
      'Deposit status from on-chain proof only (a bvd_ job or a raw transaction hash)',
    ),
  })
  .input(statusInput)
  .output(
    stampedOutput({
      kind: z.enum(['partner-job', 'tx-reconcile']),
      jobId: z.string().optional(),
      txHash: bytes32Shape.optional(),
      job: jobShape.optional(),
      partnerJob: z
        .object({
          state: z.enum(['read', 'unknown']),
          status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']).nullable(),
          statusIsProof: z.literal(false),
          note: z.string(),
        })
        .optional(),
      txHashCandidates: z.array(bytes32Shape).optional(),
      verification: verificationShape,
      complete: z.boolean(),
      ...chainBlockFields,
    }),
  )
  .query(async ({ ctx, input }) => {
    const chain = chainReaderFor(ctx.config);
    if (input.jobId.startsWith(MODE_B_JOB_PREFIX)) {
      const out = await modeBJobStatus(input.jobId, input.txHash as `0x${string}` | undefined, {
        answerTime: ctx.answerTime,
        serverTime: ctx.serverTime,
        chain,
        settings: modeBSettingsFor(ctx.config),
        store: vaultDepositJobRepository,
      });
      return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
    }
    if (/^0x[0-9a-fA-F]{64}$/.test(input.jobId)) {
      const out = await reconcileDepositTx(
        input.jobId as `0x${string}`,
        { vaultId: input.vaultId, receiver: input.receiver, amountUsdg: input.amount },
        { now: ctx.answerTime, chain },
        (v) => parseUsdgAmount(v, 'amount').units,
      );
      return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
    }
    throw new SvcError(
      'DEPOSIT_STATUS_ID_INVALID',
      'The id is neither a Mode B job id (bvd_...) nor a transaction hash (0x + 64 hex digits)',
      {
        issues: [{ code: 'DEPOSIT_STATUS_ID_INVALID', message: 'expected bvd_... or 0x + 64 hex digits', path: 'jobId' }],
      },
    );
  });
