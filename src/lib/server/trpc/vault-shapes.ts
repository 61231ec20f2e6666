/**
 * The zod shapes of the vault rail's responses (they are the OpenAPI documentation too) and
 * the per-request wiring (chain reader, payment lane, Mode B settings) shared by the `vaults`
 * and `partnerbot` routers.
 */
import { z } from 'zod';
import type { ServiceConfig } from '../config';
import { brokerChainClient } from '../chain-client';
import { createRpcChainReader, type ChainReader } from '../vaults/chain';
import type { RequestClocks } from '../clock';
import { depositPackSightings } from '../db/vault-deposit-job-repository';
import { buildDepositPack, type DepositPackDeps, type DepositPackRequest, type DepositPackResult } from '../vaults/deposit-pack';
import { modeBConfigOf, type ModeBConfig } from '../vaults/mode-b-gates';
import type { ModeBSettings } from '../vaults/mode-b';
import { depositVerificationSchema, observedDepositEventSchema } from '../vaults/completion';
import { depositGateSchema } from '../vaults/deposit-gate';
import { addressShape, bytes32Shape } from '../vaults/pack-shapes';
import { VAULT_REGISTRY_SOURCES } from '../vaults/registry';
import { EXECUTION_MODES, LIMITING_FUSES, LIVENESS_STATES } from '../vaults/v2-status';
import type { SourceVerification } from '../x402/constants';
import { chainBlocks, vaultServiceLaneOf } from '../x402/lanes';

// ---------------------------------------------------------------------------------------
// Wiring

export function chainReaderFor(cfg: ServiceConfig): ChainReader | null {
  const client = brokerChainClient(cfg);
  return client ? createRpcChainReader(client) : null;
}

export function modeBSettingsFor(cfg: ServiceConfig): ModeBSettings {
  return {
    depositExecutionEnabled: cfg.partner.depositExecutionEnabled,
    ownerApprovedWalletDeposit: cfg.partner.ownerApprovedWalletDeposit,
    partnerApiKey: cfg.partner.apiKey,
    partnerApiUrl: cfg.partner.apiUrl,
    partnerWalletAddress: cfg.partner.walletAddress,
    partnerTimeoutMs: cfg.partner.timeoutMs,
  };
}

export function modeBConfigFor(cfg: ServiceConfig): ModeBConfig {
  return modeBConfigOf(modeBSettingsFor(cfg));
}

/**
 * What `buildDepositPack` needs besides the request: the request's clock, the public origin
 * (the widget link), the chain reader that verifies the ack pins on chain (null without
 * BROKER_CHAIN_RPC_URL) and the Mode B gates. The same for every route that builds a pack,
 * free or paid.
 */
export function depositPackDepsFor(cfg: ServiceConfig, now: Date): DepositPackDeps {
  return { now, appOrigin: cfg.origin, chain: chainReaderFor(cfg), modeB: modeBConfigFor(cfg) };
}

/**
 * A pack of the routes a Mode B submission starts from (prepare-command and its vault-pinned
 * twin), with this server's first sight of it stored: a Mode B submission's lifetime counts
 * from there, never from the pack's `generatedAt` (the caller's `nowIso`).
 */
export async function buildSightedDepositPack(
  request: DepositPackRequest,
  cfg: ServiceConfig,
  clocks: RequestClocks,
): Promise<DepositPackResult> {
  const result = await buildDepositPack(request, depositPackDepsFor(cfg, clocks.answerTime));
  await depositPackSightings.firstSight(result.pack.planHash, clocks.serverTime);
  return result;
}

/**
 * `vaultChain`, `x402PaymentChain` and `sourceVerification` of a vault response: the x402
 * lane selection and block builders (the same as every x402 response), plus the vault
 * registry's sources and the route's own live reads.
 */
export function vaultChainBlocksFor(cfg: ServiceConfig, extra: readonly SourceVerification[] = []) {
  return chainBlocks(vaultServiceLaneOf(cfg.facilitator), [...VAULT_REGISTRY_SOURCES, ...extra]);
}

// ---------------------------------------------------------------------------------------
// Shapes

// The deposit pack's own request and result shapes live with the pack in the vaults domain
// (the paid x402 deposit-pack service uses them too); re-exported for the vault routers.
export {
  ackVerificationShape,
  addressShape,
  bytes32Shape,
  depositPackRequestShape,
  depositPackResultShape,
  hexShape,
  modesShape,
  packShape,
  vaultInputErrorCode,
} from '../vaults/pack-shapes';

/** Declared with the verification in the vaults domain. */
export const depositEventShape = observedDepositEventSchema;
export const verificationShape = depositVerificationSchema;

/** Declared with the gate in the vaults domain. */
export const gateShape = depositGateSchema;

export const jobShape = z
  .object({
    id: z.string().describe('bvd_ followed by 24 hex digits'),
    kind: z.literal('operator_partner_wallet_deposit'),
    submitState: z.enum(['submitting', 'submitted', 'submit_failed']),
    failureCode: z.string().nullable(),
    partnerJobId: z.string().nullable(),
    planHash: z.string(),
    vaultSlug: z.string(),
    vaultAddress: addressShape,
    receiver: addressShape,
    amount: z.string(),
    amountUnits: z.string(),
    createdAt: z.string(),
    userDepositPath: z.literal(false),
  })
  .meta({ id: 'VaultDepositJob' });

// ---- V2 status ------------------------------------------------------------------------

const readSourceShape = z
  .object({
    contract: z.string(),
    address: addressShape,
    call: z.string(),
    interface: z
      .enum(['published', 'expected_unpublished'])
      .describe(
        "'published': the operator's published read; 'expected_unpublished': the read this service expects where none is published",
      ),
  })
  .meta({ id: 'VaultReadSource' });

function reading<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('state', [
    z.object({ state: z.literal('live'), value, source: readSourceShape }),
    z.object({ state: z.literal('unknown'), reason: z.string(), reasonCode: z.string(), source: readSourceShape }),
  ]);
}

function derived<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('state', [
    z.object({ state: z.literal('live'), value, derivedFrom: z.string() }),
    z.object({ state: z.literal('unknown'), reason: z.string(), derivedFrom: z.string() }),
  ]);
}

const usdgValueShape = z.object({ usdg: z.string(), units: z.string() });
const capacityValueShape = usdgValueShape.extend({ zeroReasonCode: z.number().int().nullable() });

const capacityShape = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('live'),
    usdg: z.string(),
    units: z.string(),
    limitingAssetTicker: z.string().nullable(),
    limitingAsset: addressShape.nullable(),
    derivedFrom: z.string(),
  }),
  z.object({ state: z.literal('unknown'), reason: z.string(), derivedFrom: z.string() }),
]);

const fuseShape = z.enum(LIMITING_FUSES);
const modeShape = z.enum(EXECUTION_MODES);
const stringReading = reading(z.string()).meta({ id: 'StringReading' });
const boolReading = reading(z.boolean()).meta({ id: 'BoolReading' });
const usdgReading = reading(usdgValueShape).meta({ id: 'UsdgReading' });
const capacityReading = reading(capacityValueShape).meta({ id: 'CapacityReading' });
const fuseReading = reading(fuseShape).meta({ id: 'LimitingFuseReading' });
const modeReading = reading(modeShape).meta({ id: 'ExecutionModeReading' });

export const v2StatusShape = {
  statusVersion: z.literal('svc-vault-v2-status-1.0.0'),
  vault: z.object({ slug: z.string(), address: addressShape, generation: z.literal('v2'), lifecycle: z.literal('canonical_v2') }),
  readAt: z.string(),
  chain: z.object({ expectedChainId: z.literal(4663), state: z.enum(['verified', 'unusable']), reason: z.string() }),
  readSummary: z
    .object({
      attempted: z.number().int(),
      live: z.number().int(),
      unknown: z.number().int(),
      overall: z.enum(['live', 'partial', 'unknown']),
    })
    .describe('How many reads answered; `overall` is never live when any read failed'),
  suite: z.array(z.object({ role: z.string(), name: z.string(), address: addressShape, codePresent: boolReading })),
  stageLadder: z
    .array(
      z.object({
        stage: z.enum(['PREPARATION', 'SUBMISSION', 'SETTLEMENT']),
        order: z.number().int(),
        provenBy: z.string(),
        onchainCount: stringReading.nullable(),
        openQueueRequests: stringReading.optional(),
      }),
    )
    .describe('The request stages with their on-chain counts; stages never collapse'),
  mode: derived(modeShape).describe('The vault MODE: the most restrictive per-asset execution MODE'),
  liveness: reading(
    z.object({
      state: z.enum(LIVENESS_STATES),
      executionAllowed: z.boolean(),
      displayAllowed: z.boolean(),
      observedChainId: z.string(),
      ageSeconds: z.string(),
      producedBlocks: z.string(),
      reason: z.string(),
    }),
  ),
  keeper: z.object({ state: z.enum(['HEALTHY', 'INACTIVE', 'DEGRADED', 'UNKNOWN']), reason: z.string() }),
  flags: z.object({
    vaultPaused: boolReading,
    queuePaused: boolReading,
    queueActive: boolReading,
    settlementActive: boolReading,
    keeperActive: boolReading,
    rebalanceActive: boolReading,
  }),
  lanes: z
    .array(
      z.object({
        lane: z.enum([
          'instant_bounded_usdg_deposit',
          'queued_usdg_deposit',
          'queued_usdg_redemption',
          'in_kind_redemption',
          'chunked_rebalance',
        ]),
        state: z.enum(['open', 'paused', 'inactive', 'halted', 'no_shares', 'inactive_by_owner_policy', 'unknown']),
        reason: z.string(),
      }),
    )
    .describe('Deposit and redemption lane states derived from the reads; unknown when any input read is unknown'),
  heldAssets: reading(
    z.array(
      z.object({
        token: addressShape,
        ticker: z.string().nullable(),
        canonical: z.boolean(),
        enabledInAssetRegistry: boolReading,
        executionMode: modeReading,
        buyCapacityUsdg: capacityReading,
        sellCapacityUsdg: capacityReading,
        depositLimitingFuse: fuseReading,
        redemptionLimitingFuse: fuseReading,
      }),
    ),
  ),
  immediateDepositCapacityUsdg: capacityShape.describe(
    'Live: the smallest safe buy notional over the held assets. A failed read is unknown, never zero',
  ),
  immediateUsdgRedemptionCapacityUsdg: capacityShape.describe(
    'Live: the smaller of the smallest safe sell notional and the USDG cash buffer. A failed read is unknown, never zero',
  ),
  limitingFuse: z
    .object({ deposit: derived(fuseShape), redemption: derived(fuseShape) })
    .describe('One of liveness, twap, peg, rolling_flow_budget, manipulation_cost, usdg_cash_buffer; unknown when not read'),
  usdgCash: usdgReading,
  navUsdg: usdgReading,
  totalSupply: stringReading,
  pricePerShare: reading(z.object({ pricePerShare: z.string(), markAvailabilityFlag: z.number().int() })),
  queue: z.object({
    pendingCount: stringReading,
    pendingDepositUsdg: usdgReading,
    pendingRedemptionShares: stringReading,
    pendingRedeemCount: stringReading,
  }),
  timelock: reading(
    z.array(
      z.object({
        id: bytes32Shape,
        label: z.string().nullable(),
        etaUnix: z.string().nullable(),
        eta: z.string().nullable(),
        ready: z.boolean().nullable(),
        etaUnknownReason: z.string().nullable(),
      }),
    ),
  ).describe(
    'Pending timelocked operations with their ETAs. An ETA the read did not give (or gave as 0, an unset ETA) is unknown: etaUnix, eta and ready are null and etaUnknownReason says why; it is never read as 1970 or as ready.',
  ),
  rebalancing: z
    .object({
      state: z.literal('inactive_by_owner_policy'),
      active: z.literal(false),
      byOwnerPolicy: z.literal(true),
      faultState: z.literal(false),
      reason: z.string(),
      onchainRebalanceFlag: boolReading,
      note: z.string(),
    })
    .describe('Inactive by owner policy with the stated reason: not a fault, not a promise of activation'),
};
