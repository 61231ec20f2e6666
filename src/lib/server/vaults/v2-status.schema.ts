/**
 * The V2 vault suite's status as `GET /api/vaults/v2/status` answers it (readV2Status): every
 * value a reading, `live` with its source call or `unknown` with the reason.
 */
import { z } from 'zod';
import { addressShape, bytes32Shape } from './pack-shapes';
import { EXECUTION_MODES, LIMITING_FUSES, LIVENESS_STATES } from './v2-status';

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
