import { z } from 'zod';
import { parseIsoInstant } from '../../../clock';
import { chainAddressField } from '../../../registry/symbol-space';
import { usdgDecimal } from '../../../vaults/fees';
import { auditVaultRebalance } from '../../../vaults/rebalance-audit';
import { symbolSpaceAware } from '../../error-map';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { artifactReceiptOut } from '../receipt-shapes';
import { vaultManifestSchema } from '../../../vaults/manifest';
import { chainBlockFields } from '../../../x402/lanes';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const tokenAddress = () => chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits');

const isoField = () =>
  z
    .string()
    .max(40)
    .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' });

const weights = () => z.array(z.object({ tokenAddress: tokenAddress(), weightBps: z.number().int().min(0).max(10_000) }).strict()).max(64);

const finding = z.object({ code: z.string(), message: z.string(), trade: z.number().int().nullable() });

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
      audit: z.object({
        auditVersion: z.string(),
        vaultSlug: z.string(),
        manifestHash: z.string(),
        policyHash: z.string(),
        driftThresholdBps: z.number().int(),
        evidence: z.literal('reported_unverified'),
        reportedAt: z.string(),
        navUsdg: z.string(),
        turnoverBps: z.number().int().nullable(),
        requiredTurnoverBps: z.number().int().nullable(),
        trades: z.array(
          z.object({
            index: z.number().int(),
            status: z.literal('reported_unverified'),
            tokenAddress: z.string(),
            ticker: z.string().nullable(),
            side: z.enum(['buy', 'sell']),
            notionalUsdg: z.string(),
            slippageBps: z.number().int().nullable(),
            txHash: z.string().nullable(),
            txHashVerified: z.literal(false),
            breaches: z.array(z.string()),
            reportedNote: z.object({ quoted: z.array(z.string()), claimsExecution: z.boolean() }).nullable(),
          }),
        ),
        rebalanceLane: z.object({
          name: z.literal('chunked_rebalance'),
          state: z.literal('inactive_by_owner_policy'),
          reason: z.string(),
        }),
        executionClaimsQuoted: z.number().int(),
        verdict: z.object({
          status: z.enum(['no_breach_found', 'breaches_found']),
          breachCount: z.number().int(),
          breaches: z.array(finding),
          unknowns: z.array(finding),
          meaning: z.string(),
        }),
        disclaimer: z.string(),
      }),
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => ({
    ...auditVaultRebalance(input.manifest, input.policyOptions ?? {}, input.report, { now: ctx.answerTime, serverTime: ctx.serverTime }),
    generatedAt: ctx.answerTime.toISOString(),
    ...vaultChainBlocksFor(ctx.config),
  }));
