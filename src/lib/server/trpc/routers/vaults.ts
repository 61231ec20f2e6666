/**
 * The USDG vault family under /api/vaults (interface 4.1, 4.4, 4.6, 4.7): the vault registry and
 * schema, the asset registry, the deposit gate, the V2 status, deposit links and packs,
 * gated deposit and withdraw intents, manifests, rebalance policies and receipts. Every
 * response keeps `vaultChain` and `x402PaymentChain` apart and carries `sourceVerification`.
 */
import { z } from 'zod';
import { SvcError } from '../../errors';
import { vaultAssetRegistry } from '../../vaults/asset-registry';
import { evaluateDepositGate } from '../../vaults/deposit-gate';
import { feeScheduleSchema } from '../../vaults/fees';
import { buildDepositPack, depositLinkUrl, validateReceiver } from '../../vaults/deposit-pack';
import { createDepositIntent, createWithdrawIntent } from '../../vaults/intents';
import {
  createManifestInputSchema,
  createVaultManifest,
  manifestValidationSchema,
  validateVaultManifest,
  vaultFusesSchema,
  vaultManifestHash,
  vaultManifestSchema,
} from '../../vaults/manifest';
import { compileRebalancePolicy } from '../../vaults/rebalance-policy';
import { manifestReceipt, packReceipt, settlementReceipt, vaultReceiptSchema } from '../../vaults/receipts';
import { ACK_HASHES, ACK_TEXTS, listVaults, requireVault, resolveRailAVault, VAULT_REGISTRY_VERSION } from '../../vaults/registry';
import { buildVaultSchema, type VaultRoute } from '../../vaults/schema';
import { readVaultV2Status } from '../../vaults/v2-status';
import { approvalVerificationSchema, depositAccountSchema, readDepositAccount, verifyDepositApproval } from '../../vaults/deposit-progress';
import { parseUsdgAmount } from '../../vaults/amount';
import type { SourceVerification } from '../../x402/constants';
import { x402ArchitectureSchema } from '../../x402/architecture';
import { vaultServiceLaneOf } from '../../x402/lanes';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import {
  addressShape,
  buildSightedDepositPack,
  bytes32Shape,
  chainReaderFor,
  depositPackDepsFor,
  gateShape,
  hexShape,
  packShape,
  v2StatusShape,
  vaultInputErrorCode,
  verificationShape,
  vaultChainBlocksFor,
} from '../vault-shapes';
import { chainBlockFields } from './x402-shapes';
import { ackSource, packRequestShape, prepareOutputShape, verificationSource } from './partnerbot';

/** The vault routes, as the schema lists them. */
export const VAULT_ROUTES: VaultRoute[] = [
  { method: 'GET', path: '/api/vaults', purpose: 'the registered vaults (V1 Rail A vault, V2 canonical vault)' },
  { method: 'GET', path: '/api/vaults/schema', purpose: 'this schema' },
  { method: 'GET', path: '/api/vaults/asset-registry', purpose: 'source-verified assets with oracle and jurisdiction policies' },
  { method: 'GET', path: '/api/vaults/readiness', purpose: 'the public deposit gate of the Rail A vault, read live' },
  { method: 'GET', path: '/api/vaults/v2/status', purpose: 'fresh on-chain status of the V2 vault suite' },
  { method: 'GET', path: '/api/vaults/{slug}', purpose: 'one vault: identity and deposit route' },
  {
    method: 'GET',
    path: '/api/vaults/{slug}/deposit-link',
    purpose: 'vault identity, ack texts and hashes, the deposit widget link; a full pack with amount and receiver',
  },
  {
    method: 'GET',
    path: '/api/vaults/{slug}/deposit-account',
    purpose: "a wallet's USDG balance and its allowance for the vault, read live (the deposit page's Max and its approval step)",
  },
  {
    method: 'GET',
    path: '/api/vaults/{slug}/approval-status/{txHash}',
    purpose: 'whether an approval transaction is proven on chain (the deposit page enables the deposit only then)',
  },
  { method: 'POST', path: '/api/vaults/{slug}/deposit-partnerbot-intent', purpose: 'a Mode A deposit pack pinned to this vault' },
  { method: 'POST', path: '/api/vaults/{slug}/deposit-intent', purpose: 'a deposit intent, refused while the deposit gate is closed' },
  { method: 'POST', path: '/api/vaults/{slug}/withdraw-intent', purpose: 'a withdraw intent, refused while the deposit gate is closed' },
  { method: 'POST', path: '/api/vaults/manifests/create', purpose: 'create a vault manifest with the documented defaults' },
  { method: 'POST', path: '/api/vaults/manifests/validate', purpose: 'validate a vault manifest (200 with issues)' },
  {
    method: 'POST',
    path: '/api/vaults/rebalance-policy/compile',
    purpose: 'compile a rebalance policy: never executable, requires user approval',
  },
  {
    method: 'POST',
    path: '/api/vaults/rebalance-audit',
    purpose: 'audit a reported rebalance against the compiled rebalance policy (reported, unverified)',
  },
  {
    method: 'POST',
    path: '/api/vaults/partner-rebalance/prepare',
    purpose: 'a vault_operator_rebalance plan for the partner rail: never submittable',
  },
  { method: 'POST', path: '/api/vaults/receipt', purpose: 'a deterministic vault receipt for a manifest, a pack or a deposit transaction' },
  { method: 'POST', path: '/api/vaults/fees/calculate', purpose: 'the fee split at a NAV reading, by the fee schedule above' },
  {
    method: 'POST',
    path: '/api/vaults/provider-rewards/plan',
    purpose: 'a fee amount split over the reward cohorts: planned, not funded, not claimable',
  },
  { method: 'POST', path: '/api/vaults/risk-score', purpose: 'a structural 0-100 risk heuristic of a vault composition' },
  { method: 'POST', path: '/api/vaults/compare', purpose: 'two to five vaults side by side, never ranked or recommended' },
  {
    method: 'POST',
    path: '/api/vaults/x402/{serviceName}/requirements',
    purpose: 'payment requirements of a paid vault service on the selected x402 lane',
  },
  {
    method: 'POST',
    path: '/api/vaults/x402/{serviceName}',
    purpose: 'a paid vault service (x402): the analysis services and the deposit pack',
  },
  {
    method: 'POST',
    path: '/api/partnerbot/vault-deposit/prepare-command',
    purpose: 'a Mode A deposit pack with the social command and Mode C',
  },
  { method: 'POST', path: '/api/partnerbot/vault-deposit/command', purpose: 'the partnerbot deposit command alone, with Mode C beside it' },
  { method: 'POST', path: '/api/partnerbot/vault-deposit/submit-intent', purpose: "Mode B for the operator's own partner wallet only" },
  { method: 'GET', path: '/api/partnerbot/vault-deposit/status/{jobId}', purpose: 'deposit completion from on-chain proof only' },
];

const listingShape = z
  .object({
    slug: z.string(),
    name: z.string(),
    generation: z.enum(['v1', 'v2']),
    lifecycle: z.enum(['legacy_v1', 'canonical_v2']),
    address: addressShape,
    railId: z.string().nullable(),
    depositRoute: z.enum(['deposit_with_acks', 'request_queue']),
    acceptsDepositPacks: z.boolean(),
    addressSource: z.string(),
  })
  .meta({ id: 'VaultListing' });

const ackTextShape = z.object({ slot: z.enum(['risk', 'jurisdiction']), text: z.string(), keccak256: bytes32Shape });

/** Re-exported for the routers that take a manifest: declared once, in the vaults domain. */
export const manifestShape = vaultManifestSchema;
const callShape = z.object({ step: z.number().int(), to: addressShape, data: hexShape, description: z.string() });

const slugInput = z.string().min(1).max(100).describe('A vault slug or address');

function liveSource(subject: string, at: string, live: boolean): SourceVerification[] {
  return live ? [{ subject, source: 'eth_call on chain 4663 (chain id verified first)', lastVerified: at, method: 'live_chain_read' }] : [];
}

export const vaultsRouter = router({
  list: publicProcedure
    .meta({ family: 'vaults', openapi: rest('GET', '/vaults', 'The registered vaults: the V1 Rail A vault and the V2 canonical vault') })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(stampedOutput({ vaultRegistryVersion: z.string(), vaults: z.array(listingShape), ...chainBlockFields }))
    .query(({ ctx }) => ({ vaultRegistryVersion: VAULT_REGISTRY_VERSION, vaults: listVaults(), ...vaultChainBlocksFor(ctx.config) })),

  schema: publicProcedure
    .meta({
      family: 'vaults',
      openapi: rest(
        'GET',
        '/vaults/schema',
        'Vault routes, chain and payment model, fee schedule, public deposit gate, deposit rail, architecture object',
        {
          description:
            'Embeds the architecture object (vault chain, x402 providers, brokerMcpUsedForVaultExecution / svcStoresBrokerCredentials / svcPlacesOrders all false).',
        },
      ),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        schemaVersion: z.string(),
        vaultRegistryVersion: z.string(),
        routes: z.array(z.object({ method: z.enum(['GET', 'POST']), path: z.string(), purpose: z.string() })),
        vaults: z.array(listingShape),
        chainModel: z.object({ vaultChain: chainBlockFields.vaultChain, rule: z.string() }),
        paymentModel: z.object({ deposits: z.string(), paidServices: z.string(), x402PaymentChain: chainBlockFields.x402PaymentChain }),
        feeSchedule: feeScheduleSchema,
        publicDepositGate: z.object({
          rule: z.string(),
          checks: z.array(z.string()),
          states: z.array(z.string()),
          depositReadinessRegistry: addressShape,
          readRoute: z.string(),
          refusalCode: z.string(),
          gatedRoutes: z.array(z.string()),
        }),
        depositRail: z.object({
          railId: z.literal('rail_a_vault_deposit'),
          packVersion: z.string(),
          vaultSlug: z.string(),
          vaultAddress: addressShape,
          depositFunction: z.string(),
          plainDepositReverts: z.literal(true),
          maxAmountPerPackUsdg: z.string(),
          amountDecimals: z.literal(6),
          packLifetimeSeconds: z.object({ default: z.number().int(), min: z.number().int(), max: z.number().int() }),
          ackTexts: z.array(ackTextShape),
          modes: z.array(z.string()),
          completionRule: z.string(),
          svcExecutesDeposit: z.literal(false),
        }),
        architecture: x402ArchitectureSchema,
        ...chainBlockFields,
      }),
    )
    .query(({ ctx }) => ({
      ...buildVaultSchema({
        routes: VAULT_ROUTES,
        lane: vaultServiceLaneOf(ctx.config.facilitator),
        architecture: { address: ctx.config.facilitator.address },
      }),
      ...vaultChainBlocksFor(ctx.config),
    })),

  assetRegistry: publicProcedure
    .meta({
      family: 'vaults',
      openapi: rest('GET', '/vaults/asset-registry', 'Source-verified tokenized assets with oracle and jurisdiction policies'),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        assetRegistryVersion: z.string(),
        registryVersion: z.string(),
        oraclePolicyVersion: z.string(),
        chainId: z.literal(4663),
        identityRule: z.string(),
        assets: z.array(
          z.object({
            ticker: z.string(),
            name: z.string(),
            kind: z.enum(['stock', 'etf', 'stablecoin', 'wrapped_native']),
            address: addressShape,
            decimals: z.number().int(),
            v2ExecutionGrade: z.boolean(),
            oraclePolicy: z.object({
              priceBasis: z.enum(['EXCHANGE_LIVE', 'MODEL_ACCRUAL', 'ACCOUNTING_IDENTITY', 'NOT_A_VAULT_ASSET']),
              priceSource: z.string(),
              priceFeedAddress: addressShape.nullable(),
              maxPriceAgeSeconds: z.number().int().nullable(),
              staleMeans: z.string(),
            }),
            jurisdictionPolicy: z.object({
              svcGatesOnJurisdiction: z.literal(false),
              svcCollectsLocation: z.literal(false),
              depositorAcknowledgment: z.string(),
              note: z.string(),
            }),
            sourceVerification: z.object({
              source: z.string(),
              method: z.literal('published_source_snapshot'),
              lastVerified: z.string(),
              registryVersion: z.string(),
            }),
          }),
        ),
        ...chainBlockFields,
      }),
    )
    .query(({ ctx }) => ({ ...vaultAssetRegistry(), ...vaultChainBlocksFor(ctx.config) })),

  readiness: publicProcedure
    .meta({
      family: 'vaults',
      openapi: rest('GET', '/vaults/readiness', "The Rail A vault's public deposit gate, read live", {
        description:
          'A strict AND of acceptingPublicDeposits(), the deposit-readiness registry, live pricing (totalAssets()) and not paused. Anything unknown closes the gate (state UNKNOWN); it is never reported open without the reads.',
      }),
    })
    .input(z.object({ vault: z.string().max(100).optional(), nowIso: nowIsoField }).optional())
    .output(stampedOutput({ gate: gateShape, ...chainBlockFields }))
    .query(async ({ ctx, input }) => {
      const gate = await evaluateDepositGate(resolveRailAVault(input?.vault), chainReaderFor(ctx.config), ctx.answerTime);
      return { gate, ...vaultChainBlocksFor(ctx.config, liveSource('deposit gate', gate.checkedAt, gate.source === 'onchain_eth_call')) };
    }),

  v2Status: publicProcedure
    .meta({
      family: 'vaults',
      openapi: rest('GET', '/vaults/v2/status', 'Fresh on-chain status of the V2 vault suite', {
        description:
          'Reads the V2 suite on every call (chain id first): stage ladder, MODE, lane states, immediateDepositCapacityUsdg, immediateUsdgRedemptionCapacityUsdg, the limiting fuse per side, timelock ETAs, liveness, keeper and queue state. Every value is a reading: `live` with its source call, or `unknown` with the reason. A failed or absent read is never a number, never zero and never live. Rebalancing is inactive by owner policy (stated reason), never a fault.',
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(stampedOutput({ ...v2StatusShape, ...chainBlockFields }))
    .query(async ({ ctx }) => {
      const status = await readVaultV2Status(chainReaderFor(ctx.config), { answerTime: ctx.answerTime, serverTime: ctx.serverTime });
      return { ...status, ...vaultChainBlocksFor(ctx.config, liveSource('V2 suite reads', status.readAt, status.readSummary.live > 0)) };
    }),

  vault: publicProcedure
    .meta({ family: 'vaults', openapi: rest('GET', '/vaults/{slug}', 'One registered vault by slug or address') })
    .input(z.object({ slug: slugInput, nowIso: nowIsoField }))
    .output(stampedOutput({ vault: listingShape, ...chainBlockFields }))
    .query(({ ctx, input }) => {
      const vault = requireVault(input.slug, 'slug');
      return { vault, ...vaultChainBlocksFor(ctx.config) };
    }),

  depositLink: publicProcedure
    .meta({
      family: 'vaults',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'GET',
        '/vaults/{slug}/deposit-link',
        'Vault identity, the required ack texts with their keccak256 hashes and the deposit widget link',
        {
          description:
            'With both `amount` and `receiver` the answer also carries a full Mode A pack (the same validation and ack verification as prepare-command).',
        },
      ),
    })
    .input(
      z.object({ slug: slugInput, amount: z.string().max(64).optional(), receiver: z.string().max(128).optional(), nowIso: nowIsoField }),
    )
    .output(
      stampedOutput({
        vault: listingShape,
        ackTexts: z.array(ackTextShape),
        depositFunction: z.string(),
        depositLinkUrl: z.string(),
        full: z.boolean(),
        prepared: z.object(prepareOutputShape).omit({ vaultChain: true, x402PaymentChain: true, sourceVerification: true }).nullable(),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx, input }) => {
      const vault = resolveRailAVault(input.slug);
      const listing = listVaults().find((v) => v.slug === vault.slug)!;
      const ackTexts = [
        { slot: 'risk' as const, text: ACK_TEXTS.risk, keccak256: ACK_HASHES.risk },
        { slot: 'jurisdiction' as const, text: ACK_TEXTS.jurisdiction, keccak256: ACK_HASHES.jurisdiction },
      ];
      let amount: string | undefined;
      if (input.amount !== undefined) amount = parseUsdgAmount(input.amount, 'amount').amount;
      if (input.amount !== undefined && input.receiver !== undefined) {
        const prepared = await buildDepositPack(
          { vaultId: vault.slug, amountUsdg: input.amount, receiver: input.receiver },
          depositPackDepsFor(ctx.config, ctx.answerTime),
        );
        return {
          vault: listing,
          ackTexts,
          depositFunction: vault.depositFunction,
          depositLinkUrl: prepared.depositLinkUrl,
          full: true,
          prepared,
          ...vaultChainBlocksFor(ctx.config, [ackSource(prepared.ackVerification)]),
        };
      }
      return {
        vault: listing,
        ackTexts,
        depositFunction: vault.depositFunction,
        depositLinkUrl: depositLinkUrl(ctx.config.origin, vault, amount),
        full: false,
        prepared: null,
        ...vaultChainBlocksFor(ctx.config),
      };
    }),

  depositAccount: publicProcedure
    .meta({
      family: 'vaults',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest('GET', '/vaults/{slug}/deposit-account', "A wallet's USDG balance and its allowance for the vault, read live", {
        description:
          'Reads the USDG token on chain 4663 at every call (chain id first): balanceOf(owner) and allowance(owner, vault). A read that fails is `unknown` with the reason, never 0. `checkedAt` is the server clock of the read.',
      }),
    })
    .input(
      z.object({
        slug: slugInput,
        owner: z.string().max(128).describe('The depositor (the receiver of the deposit)'),
        nowIso: nowIsoField,
      }),
    )
    .output(stampedOutput({ account: depositAccountSchema, ...chainBlockFields }))
    .query(async ({ ctx, input }) => {
      const vault = resolveRailAVault(input.slug);
      const owner = validateReceiver(input.owner, vault, 'owner');
      const account = await readDepositAccount(chainReaderFor(ctx.config), vault, owner, ctx.serverTime);
      return { account, ...vaultChainBlocksFor(ctx.config, liveSource('deposit account', account.checkedAt, account.chainIdVerified)) };
    }),

  approvalStatus: publicProcedure
    .meta({
      family: 'vaults',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest('GET', '/vaults/{slug}/approval-status/{txHash}', 'Whether an approval transaction is proven on chain', {
        description:
          "Re-reads the chain at every call (chain id first, then the receipt). `confirmedApproval` is true exactly when a confirmed transaction to the USDG token emitted the token's Approval event letting the vault spend at least `amount` of the owner's USDG. Pending, reverted, sent elsewhere or too small: false, with the reason.",
      }),
    })
    .input(
      z.object({
        slug: slugInput,
        txHash: bytes32Shape,
        owner: z.string().max(128).describe('The depositor whose USDG the approval concerns'),
        amount: z.string().max(64).describe('The deposit amount (decimal USDG) the approval must cover'),
        nowIso: nowIsoField,
      }),
    )
    .output(stampedOutput({ verification: approvalVerificationSchema, ...chainBlockFields }))
    .query(async ({ ctx, input }) => {
      const vault = resolveRailAVault(input.slug);
      const owner = validateReceiver(input.owner, vault, 'owner');
      const amountUnits = parseUsdgAmount(input.amount, 'amount').units;
      const verification = await verifyDepositApproval(
        chainReaderFor(ctx.config),
        input.txHash as `0x${string}`,
        { vault, owner, amountUnits },
        ctx.serverTime,
      );
      return {
        verification,
        ...vaultChainBlocksFor(ctx.config, liveSource('approval receipt', verification.checkedAt, verification.chainIdVerified)),
      };
    }),

  depositPartnerbotIntent: publicProcedure
    .meta({
      family: 'vaults',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/vaults/{slug}/deposit-partnerbot-intent',
        'A Mode A deposit pack pinned to this vault (same as prepare-command)',
      ),
    })
    .input(z.object({ slug: slugInput, ...packRequestShape }).omit({ vaultId: true }))
    .output(stampedOutput(prepareOutputShape))
    .mutation(async ({ ctx, input }) => {
      const result = await buildSightedDepositPack(
        { vaultId: input.slug, amountUsdg: input.amountUsdg, receiver: input.receiver, expiresInSeconds: input.expiresInSeconds },
        ctx.config,
        ctx,
      );
      return { ...result, ...vaultChainBlocksFor(ctx.config, [ackSource(result.ackVerification)]) };
    }),

  depositIntent: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_generate_vault_deposit_intent',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/vaults/{slug}/deposit-intent',
        'A deposit intent (PREPARATION stage), refused while the deposit gate is closed',
        {
          description:
            'Validates like prepare-command, then reads the public deposit gate live; a closed or unknown gate answers 409 DEPOSIT_GATE_CLOSED with the failing checks.',
        },
      ),
    })
    .input(z.object({ slug: slugInput, ...packRequestShape }).omit({ vaultId: true }))
    .output(
      stampedOutput({
        intent: z.object({
          intentVersion: z.string(),
          kind: z.literal('deposit'),
          stage: z.literal('PREPARATION'),
          liveTransactionSent: z.literal(false),
          vaultSlug: z.string(),
          vaultAddress: addressShape,
          planHash: z.string(),
          calls: z.array(callShape),
        }),
        gate: gateShape,
        pack: packShape,
        ...chainBlockFields,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const out = await createDepositIntent(
        { vaultId: input.slug, amountUsdg: input.amountUsdg, receiver: input.receiver, expiresInSeconds: input.expiresInSeconds },
        depositPackDepsFor(ctx.config, ctx.answerTime),
      );
      return {
        intent: out.intent,
        gate: out.gate,
        pack: out.result.pack,
        ...vaultChainBlocksFor(ctx.config, [
          ...liveSource('deposit gate', out.gate.checkedAt, true),
          ackSource(out.result.ackVerification),
        ]),
      };
    }),

  withdrawIntent: publicProcedure
    .meta({
      family: 'vaults',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/vaults/{slug}/withdraw-intent',
        'A withdraw intent (redeem calldata you sign yourself), refused while the deposit gate is closed',
      ),
    })
    .input(
      z.object({
        slug: slugInput,
        shares: z.string().max(80).describe('Share units (integer string)'),
        receiver: z.string().max(128),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        intent: z.object({
          intentVersion: z.string(),
          kind: z.literal('withdraw'),
          stage: z.literal('PREPARATION'),
          liveTransactionSent: z.literal(false),
          vaultSlug: z.string(),
          vaultAddress: addressShape,
          shares: z.string(),
          receiver: addressShape,
          owner: addressShape,
          function: z.string(),
          calls: z.array(callShape),
          generatedAt: z.string(),
        }),
        gate: gateShape,
        ...chainBlockFields,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const out = await createWithdrawIntent(
        { vaultId: input.slug, shares: input.shares, receiver: input.receiver },
        { now: ctx.answerTime, chain: chainReaderFor(ctx.config) },
      );
      return { ...out, ...vaultChainBlocksFor(ctx.config, liveSource('deposit gate', out.gate.checkedAt, true)) };
    }),

  createManifest: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_create_vault_manifest',
      openapi: rest(
        'POST',
        '/vaults/manifests/create',
        'Create a USDG vault manifest with the documented default fuses; returns it with its validation and hash',
      ),
    })
    .input(createManifestInputSchema.extend({ nowIso: nowIsoField }))
    .output(stampedOutput({ manifest: manifestShape, validation: manifestValidationSchema, manifestHash: z.string(), ...chainBlockFields }))
    .mutation(({ ctx, input }) => {
      const { nowIso: _n, ...rest } = input;
      return { ...createVaultManifest(rest), ...vaultChainBlocksFor(ctx.config) };
    }),

  validateManifest: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_validate_usdg_vault',
      openapi: rest('POST', '/vaults/manifests/validate', 'Validate a USDG vault manifest: 200 with { valid, issues[] } even when invalid'),
    })
    .input(z.object({ manifest: manifestShape, nowIso: nowIsoField }))
    .output(stampedOutput({ validation: manifestValidationSchema, manifestHash: z.string(), ...chainBlockFields }))
    .mutation(({ ctx, input }) => ({
      validation: validateVaultManifest(input.manifest),
      manifestHash: vaultManifestHash(input.manifest),
      ...vaultChainBlocksFor(ctx.config),
    })),

  compileRebalancePolicy: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_compile_vault_rebalance_policy',
      openapi: rest(
        'POST',
        '/vaults/rebalance-policy/compile',
        'Compile a vault rebalance policy: never executable, always requires user approval',
        {
          description: 'An invalid manifest answers 422 VAULT_MANIFEST_INVALID. The chunked-rebalance lane is inactive by owner policy.',
        },
      ),
    })
    .input(
      z.object({
        manifest: manifestShape,
        options: z.object({ driftThresholdBps: z.number().optional(), minTradeUsdg: z.string().max(64).optional() }).optional(),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        policy: z.object({
          policyVersion: z.string(),
          vaultSlug: z.string(),
          manifestHash: z.string(),
          method: z.literal('drift'),
          driftThresholdBps: z.number().int(),
          minTradeUsdg: z.string(),
          targets: z.array(z.object({ ticker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number() })),
          fuses: vaultFusesSchema,
          status: z.literal('preview'),
          executable: z.literal(false),
          requiresUserApproval: z.literal(true),
          lane: z.object({ name: z.literal('chunked_rebalance'), state: z.literal('inactive_by_owner_policy'), reason: z.string() }),
          abortConditions: z.array(z.string()),
          compiledAt: z.string(),
        }),
        policyHash: z.string(),
        ...chainBlockFields,
      }),
    )
    .mutation(({ ctx, input }) => ({
      ...compileRebalancePolicy(input.manifest, input.options ?? {}, ctx.answerTime),
      ...vaultChainBlocksFor(ctx.config),
    })),

  receipt: publicProcedure
    .meta({
      family: 'vaults',
      tool: 'svc_generate_vault_receipt',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/vaults/receipt',
        'A deterministic vault receipt: for a manifest, a deposit pack, or a deposit transaction verified on chain',
        {
          description:
            'Give exactly one of `manifest`, `pack` or `txHash`. A transaction receipt reaches stage SETTLEMENT (status onchain_confirmed) only when the chain proves the vault deposit; otherwise it stays at PREPARATION (onchain_reverted or unverified). Receipts are paper: not anchored on chain.',
        },
      ),
    })
    .input(
      z.object({
        manifest: manifestShape.optional(),
        pack: packShape.optional(),
        txHash: bytes32Shape.optional(),
        receiver: z.string().max(128).optional(),
        amountUsdg: z.string().max(64).optional(),
        vaultId: z.string().max(100).optional(),
        nowIso: nowIsoField,
      }),
    )
    .output(stampedOutput({ receipt: vaultReceiptSchema, verification: verificationShape.nullable(), ...chainBlockFields }))
    .mutation(async ({ ctx, input }) => {
      const given = [input.manifest, input.pack, input.txHash].filter((v) => v !== undefined).length;
      if (given !== 1) {
        throw new SvcError('INPUT_INVALID', 'Give exactly one of manifest, pack or txHash', {
          issues: [{ code: 'RECEIPT_SUBJECT', message: 'exactly one of manifest, pack, txHash' }],
        });
      }
      if (input.manifest)
        return { receipt: manifestReceipt(input.manifest, ctx.answerTime), verification: null, ...vaultChainBlocksFor(ctx.config) };
      if (input.pack) return { receipt: packReceipt(input.pack, ctx.answerTime), verification: null, ...vaultChainBlocksFor(ctx.config) };
      const vault = resolveRailAVault(input.vaultId);
      const receiver = input.receiver === undefined ? undefined : validateReceiver(input.receiver, vault);
      const amountUnits = input.amountUsdg === undefined ? undefined : parseUsdgAmount(input.amountUsdg).units;
      const out = await settlementReceipt(
        { txHash: input.txHash as `0x${string}`, vaultId: vault.slug, receiver, amountUnits },
        chainReaderFor(ctx.config),
        ctx.answerTime,
      );
      return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
    }),
});
