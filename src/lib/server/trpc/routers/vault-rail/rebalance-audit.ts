import { z } from 'zod';
import { rebalanceAuditSchema } from '../../../vaults/rebalance-audit.schema';
import { parseIsoInstant } from '../../../clock';
import { chainAddressField } from '../../../registry/symbol-space';
import { usdgDecimal } from '../../../vaults/fees';
import { auditVaultRebalance } from '../../../vaults/rebalance-audit';
import { symbolSpaceAware } from '../../error-map';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { vaultManifestSchema } from '../../../vaults/manifest';
import { chainBlockFields } from '../../../x402/lanes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const tokenAddress = () => chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits');

const isoField = () =>
  z
    .string()
    .max(40)
    .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' });

const weights = () => z.array(z.object({ tokenAddress: tokenAddress(), weightBps: z.number().int().min(0).max(10_000) }).strict()).max(64);

export const rebalanceAuditProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_post_vault_rebalance_audit',
    inputErrorCode: symbolSpaceAware('REBALANCE_REPORT_SHAPE'),
    openapi: rest(
      'POST',
      '/vaults/rebalance-audit',
      "Audit a vault rebalance reported after the fact against the vault's compiled rebalance policy",
    ),
  })
  .input(
    z.object({
      manifest: vaultManifestSchema,
      policyOptions: z.object({ driftThresholdBps: z.number().optional(), minTradeUsdg: z.string().max(64).optional() }).optional(),
      report: z
        .object({
          reportedAt: isoField().describe('when the rebalance happened, per the reporter'),
          previousRebalanceAt: isoField().optional(),
          navUsdg: usdgDecimal.describe('the vault NAV the weights refer to'),
          preWeights: weights().optional(),
          postWeights: weights().optional(),
          trades: z
            .array(
              z
                .object({
                  tokenAddress: tokenAddress(),
                  side: z.enum(['buy', 'sell']),
                  notionalUsdg: usdgDecimal,
                  slippageBps: z.number().int().min(0).max(10_000).optional(),
                  txHash: z
                    .string()
                    .regex(/^0x[0-9a-fA-F]{64}$/)
                    .optional(),
                  note: z.string().max(1000).optional(),
                })
                .strict(),
            )
            .max(200),
        })
        .strict(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      audit: rebalanceAuditSchema,
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      ...auditVaultRebalance(input.manifest, input.policyOptions ?? {}, input.report, { now: ctx.answerTime, serverTime: ctx.serverTime }),
      generatedAt: ctx.answerTime.toISOString(),
      ...vaultChainBlocksFor(ctx.config),
    }),
  );
