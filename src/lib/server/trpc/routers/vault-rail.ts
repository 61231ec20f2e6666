/**
 * Vault and partner-rail functions of the vault family (interface 4.9): the audit of a reported
 * vault rebalance, a vault_operator_rebalance plan for the partner rail (never submittable),
 * and the provider reward plan. Each procedure parses, calls one domain function of
 * src/lib/server/vaults/ and shapes the answer with the vault chain blocks.
 */
import { z } from 'zod';
import { parseIsoInstant } from '../../clock';
import { buildArtifactReceipt } from '../../receipts/artifact';
import { chainAddressField } from '../../registry/symbol-space';
import { usdgDecimal } from '../../vaults/fees';
import { prepareVaultPartnerRebalance } from '../../vaults/partner-rebalance';
import { auditVaultRebalance } from '../../vaults/rebalance-audit';
import { planProviderRewards, REWARD_SPLIT } from '../../vaults/rewards';
import { symbolSpaceAware } from '../error-map';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { vaultChainBlocksFor } from '../vault-shapes';
import { artifactReceiptOut } from './receipt-shapes';
import { commandPackSchema, hardFlags, intentErrorCode, intentInput, planSchema } from './stocks';
import { manifestShape } from './vaults';
import { chainBlockFields } from './x402-shapes';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const tokenAddress = () => chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits');
const isoField = () =>
  z
    .string()
    .max(40)
    .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' });
const weights = () => z.array(z.object({ tokenAddress: tokenAddress(), weightBps: z.number().int().min(0).max(10_000) }).strict()).max(64);
const finding = z.object({ code: z.string(), message: z.string(), trade: z.number().int().nullable() });

export const vaultRailRouter = router({
  rebalanceAudit: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_post_vault_rebalance_audit',
      inputErrorCode: symbolSpaceAware('REBALANCE_REPORT_SHAPE'),
      openapi: rest(
        'POST',
        '/vaults/rebalance-audit',
        "Audit a vault rebalance reported after the fact against the vault's compiled rebalance policy",
        {
          description:
            "Compiles the manifest's rebalance policy (422 VAULT_MANIFEST_INVALID for an invalid manifest) and checks the report: every traded asset canonical and a policy target (NONCANONICAL_ASSET, ASSET_NOT_IN_POLICY, TRADE_IN_BASE_ASSET), trades at least minTradeUsdg (TRADE_BELOW_MIN), slippage within the fuse (SLIPPAGE_ABOVE_FUSE), a drift at least the threshold before the rebalance (REBALANCE_NOT_TRIGGERED), turnover no more than the drift needed plus the threshold (EXCESS_TURNOVER), the weights after within the threshold of the targets and within the manifest's caps (TARGET_NOT_REACHED, ALLOCATION_ABOVE_ASSET_CAP, EQUITY_EXPOSURE_CAP, ETF_EXPOSURE_CAP, USDG_RESERVE_BELOW_MIN, WEIGHTS_SUM), the rebalance frequency (FREQUENCY_EXCEEDED) and a report time not ahead of the server clock (REPORTED_TIME_IN_FUTURE). What the report leaves out is listed under unknowns, never passed. Every trade is reported_unverified (a txHash is recorded, not verified); a note claiming an execution is quoted as an unconfirmed claim. Receipt kind vault_rebalance_audit.",
        },
      ),
    })
    .input(
      z.object({
        manifest: manifestShape,
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
    })),

  partnerRebalance: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_prepare_vault_partner_rebalance',
      inputErrorCode: intentErrorCode,
      openapi: rest(
        'POST',
        '/vaults/partner-rebalance/prepare',
        'Prepare a vault_operator_rebalance plan for the partner rail (never submittable)',
        {
          description:
            'Validates the intent exactly like POST /api/stocks/prepare-partner-command (422 STOCK_INTENT_INVALID, one issue per rule, its explicit venue included: VENUE_REQUIRED_FOR_VAULT_REBALANCE) and requires mode vault_operator_rebalance (422 VAULT_REBALANCE_MODE_REQUIRED). vaultId names a registered vault (default the V2 vault; 404 VAULT_UNKNOWN). Returns the plan, planHash and command pack of the stock lane with submittable: false: POST /api/stocks/submit-partner-intent answers 403 VAULT_REBALANCE_NOT_ALLOWED_HERE for it. The chunked-rebalance lane is inactive by owner policy. Nothing is recorded; the partner is never contacted. Receipt kind vault_partner_rebalance.',
        },
      ),
    })
    .input(z.object({ intent: intentInput, vaultId: z.string().max(100).optional(), nowIso: nowIsoField }))
    .output(
      stampedOutput({
        planHash: z.string(),
        generatedAt: z.string(),
        plan: planSchema,
        commandPack: commandPackSchema,
        vault: z.object({ slug: z.string(), address: z.string(), generation: z.enum(['v1', 'v2']) }),
        submittable: z.literal(false),
        submitRefusal: z.object({
          route: z.string(),
          status: z.literal(403),
          code: z.literal('VAULT_REBALANCE_NOT_ALLOWED_HERE'),
          reason: z.string(),
        }),
        rebalanceLane: z.object({ name: z.literal('chunked_rebalance'), state: z.literal('inactive_by_owner_policy'), reason: z.string() }),
        executable: z.literal(false),
        requiresOperatorApproval: z.literal(true),
        svcExecutesTrade: hardFlags.svcExecutesTrade,
        partnerContacted: z.literal(false),
        receipt: artifactReceiptOut,
        ...chainBlockFields,
      }),
    )
    .mutation(({ ctx, input }) => {
      const prepared = prepareVaultPartnerRebalance(
        { intent: input.intent, vaultId: input.vaultId },
        { now: ctx.answerTime, notionalCapUsd: ctx.config.partner.stockTradeMaxNotionalUsd },
      );
      return {
        ...prepared,
        receipt: buildArtifactReceipt('vault_partner_rebalance', prepared, ctx.answerTime),
        ...vaultChainBlocksFor(ctx.config),
      };
    }),

  providerRewards: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_plan_provider_rewards',
      inputErrorCode: 'REWARD_PLAN_SHAPE',
      openapi: rest(
        'POST',
        '/vaults/provider-rewards/plan',
        'Split a fee amount over the published reward cohorts: a plan, never funded, never claimable',
        {
          description: `Split ${REWARD_SPLIT.splitVersion}: ${REWARD_SPLIT.legs.map((l) => `${l.cohort} ${l.bps} bps`).join(', ')}; the providers leg by component: ${REWARD_SPLIT.providerComponents.map((c) => `${c.component} ${c.bps} bps`).join(', ')}. Integer USDG 6-decimal units. ${REWARD_SPLIT.remainderRule} Every leg is planned with no recipient: funded false, claimable false. feeAmountUnits must be a positive integer string (400 REWARD_PLAN_SHAPE); above the maximum 422 FEE_AMOUNT_ABOVE_MAX. Receipt kind provider_reward_plan.`,
        },
      ),
    })
    .input(
      z.object({
        feeAmountUnits: z
          .string()
          .regex(/^[1-9]\d{0,39}$/, 'a positive integer string of USDG 6-decimal units')
          .describe('the fee amount to split, e.g. "1000000" for 1 USDG'),
        epochId: z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,64}$/)
          .optional(),
        feeClaimReceiptId: z
          .string()
          .regex(/^arcpt_[0-9a-f]{32}$/)
          .optional()
          .describe('the receipt id of the fee claim the amount comes from (recorded, not verified)'),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        plan: z.object({
          splitVersion: z.string(),
          epochId: z.string().nullable(),
          feeClaimReceiptId: z.string().nullable(),
          feeAmount: z.object({ units: z.string(), usdg: z.string() }),
          amountSource: z.string(),
          legs: z.array(
            z.object({
              cohort: z.enum(['stakers', 'depositors', 'providers', 'treasury']),
              bps: z.number().int(),
              amount: z.object({ units: z.string(), usdg: z.string() }),
              remainderAbsorbed: z.object({ units: z.string(), usdg: z.string() }),
              state: z.literal('planned'),
              recipient: z.null(),
              funded: z.literal(false),
              claimable: z.literal(false),
            }),
          ),
          providerComponents: z.array(
            z.object({ component: z.string(), bps: z.number().int(), amount: z.object({ units: z.string(), usdg: z.string() }) }),
          ),
          providerRollover: z.object({ units: z.string(), usdg: z.string(), to: z.literal('the next provider epoch') }),
          sumsExactly: z.literal(true),
          remainderRule: z.string(),
          state: z.object({ planned: z.literal(true), funded: z.literal(false), claimable: z.literal(false), meaning: z.string() }),
        }),
        receipt: artifactReceiptOut,
        generatedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .mutation(({ ctx, input }) => ({
      ...planProviderRewards(input, { now: ctx.answerTime }),
      generatedAt: ctx.answerTime.toISOString(),
      ...vaultChainBlocksFor(ctx.config),
    })),
});
