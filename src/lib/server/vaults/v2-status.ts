/**
 * The V2 vault status record (interface 2.12, 4.7): fresh on-chain reads of the V2 suite on every
 * call, nothing cached. Every value is a `Reading`: `live` with the value and the call it came
 * from, or `unknown` with the reason. A failed or absent read is never a number, never zero
 * and never live; values derived from an unknown reading are unknown too.
 *
 * Read surface. The vault, queue, settler, liveness and price-mesh reads are the operator's
 * published interface. The operator has not published how MODE, the limiting fuse, stage
 * receipt counts, the timelock queue or asset enablement are read; those reads use the
 * interface this service expects and are labelled `expected_unpublished` in `source`.
 *
 * Rebalancing (the chunked-rebalance lane) is inactive by owner policy: reported with its
 * stated reason, never as a fault.
 */
import type { Address, Hex } from 'viem';
import type { RequestClocks } from '../clock';
import { findAssetByAddress } from '../registry';
import {
  V2_ASSET_REGISTRY_ABI,
  V2_LIVENESS_ABI,
  V2_PRICE_MESH_ABI,
  V2_QUEUE_ABI,
  V2_RECEIPT_REGISTRY_ABI,
  V2_RISK_POLICY_ABI,
  V2_SETTLER_ABI,
  V2_VAULT_ABI,
} from './abi';
import { formatUsdgUnits } from './amount';
import {
  ChainReadError,
  checkChain,
  classifyChainError,
  READ_FAILURE_TEXT,
  readerFailingWith,
  type ChainReader,
  type ContractRead,
  type ReadFailureReason,
} from './chain';
import { v2Contract, V2_SUITE, V2_VAULT_SLUG, type V2ContractRole } from './registry';

export const V2_STATUS_VERSION = 'svc-vault-v2-status-1.0.0' as const;

export const EXECUTION_MODES = [
  'MULTI_VENUE_EXECUTABLE',
  'SINGLE_VENUE_BOUNDED',
  'BATCH_EXECUTABLE',
  'IN_KIND_ONLY',
  'TEMPORARILY_HALTED',
] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export const LIMITING_FUSES = ['liveness', 'twap', 'peg', 'rolling_flow_budget', 'manipulation_cost', 'usdg_cash_buffer'] as const;
export type LimitingFuse = (typeof LIMITING_FUSES)[number];

export const LIVENESS_STATES = ['UNKNOWN', 'UNAVAILABLE', 'STALE', 'DEGRADED', 'OK'] as const;

export const STAGES = ['PREPARATION', 'SUBMISSION', 'SETTLEMENT'] as const;

export const REBALANCING_POLICY_REASON =
  'Only one stock token is currently execution-grade, so initial operation uses settlement-driven allocation and keeps the USDG cash reserve.';

export interface ReadSource {
  contract: V2ContractRole;
  address: Address;
  call: string;
  interface: 'published' | 'expected_unpublished';
}

export type Reading<T> =
  { state: 'live'; value: T; source: ReadSource } | { state: 'unknown'; reason: string; reasonCode: string; source: ReadSource };

export type DerivedReading<T> =
  { state: 'live'; value: T; derivedFrom: string } | { state: 'unknown'; reason: string; derivedFrom: string };

export interface UsdgValue {
  usdg: string;
  units: string;
}

/** A capacity: a live read from the price mesh (and the USDG cash buffer), or unknown. */
export type Capacity =
  | { state: 'live'; usdg: string; units: string; limitingAssetTicker: string | null; limitingAsset: Address | null; derivedFrom: string }
  | { state: 'unknown'; reason: string; derivedFrom: string };

export type LaneState = 'open' | 'paused' | 'inactive' | 'halted' | 'no_shares' | 'inactive_by_owner_policy' | 'unknown';

export interface Lane {
  lane: 'instant_bounded_usdg_deposit' | 'queued_usdg_deposit' | 'queued_usdg_redemption' | 'in_kind_redemption' | 'chunked_rebalance';
  state: LaneState;
  reason: string;
}

const usdg = (units: bigint): UsdgValue => ({ usdg: formatUsdgUnits(units), units: units.toString() });

class Reads {
  attempted = 0;
  live = 0;
  constructor(private readonly reader: ChainReader) {}

  async call<T, R = T>(
    role: V2ContractRole,
    read: Omit<ContractRead, 'address'>,
    iface: ReadSource['interface'],
    interpret?: (raw: T) => { ok: true; value: R } | { ok: false; reason: string; reasonCode: string },
  ): Promise<Reading<R>> {
    const address = v2Contract(role).address;
    const args = read.args?.length ? `(${read.args.map((a) => String(a)).join(', ')})` : '()';
    const source: ReadSource = { contract: role, address, call: `${read.functionName}${args}`, interface: iface };
    this.attempted++;
    try {
      const raw = await this.reader.readContract<T>({ ...read, address });
      const out = interpret ? interpret(raw) : { ok: true as const, value: raw as unknown as R };
      if (!out.ok) return { state: 'unknown', reason: out.reason, reasonCode: out.reasonCode, source };
      this.live++;
      return { state: 'live', value: out.value, source };
    } catch (error) {
      const code = classifyChainError(error);
      return { state: 'unknown', reason: READ_FAILURE_TEXT[code], reasonCode: code, source };
    }
  }

  async code(role: V2ContractRole): Promise<Reading<boolean>> {
    const address = v2Contract(role).address;
    const source: ReadSource = { contract: role, address, call: 'eth_getCode', interface: 'published' };
    this.attempted++;
    try {
      const code = await this.reader.getCode(address);
      this.live++;
      return { state: 'live', value: Boolean(code && code !== '0x'), source };
    } catch (error) {
      const reasonCode = classifyChainError(error);
      return { state: 'unknown', reason: READ_FAILURE_TEXT[reasonCode], reasonCode, source };
    }
  }
}

/** A reader that fails every read with one reason: used when the chain itself is not usable. */
function failingReader(reason: ReadFailureReason): ChainReader {
  return readerFailingWith(async () => {
    throw new ChainReadError(reason);
  });
}

const live = <T>(r: Reading<T> | DerivedReading<T>): r is Extract<Reading<T>, { state: 'live' }> => r.state === 'live';

function enumValue<T extends string>(names: readonly T[], code: number, what: string, oneBased: boolean) {
  const index = oneBased ? code - 1 : code;
  const name = names[index];
  return name !== undefined
    ? { ok: true as const, value: name }
    : {
        ok: false as const,
        reason: `the ${what} read returned code ${code}, which names no known ${what} (an absent value is unknown)`,
        reasonCode: 'unrecognised_code',
      };
}

type CapacityRead = readonly [boolean, bigint, number];

function interpretCapacity(raw: CapacityRead) {
  const [known, notional, zeroReason] = raw;
  return known
    ? { ok: true as const, value: { ...usdg(notional), zeroReasonCode: notional === 0n ? zeroReason : null } }
    : {
        ok: false as const,
        reason: `the price mesh reports this capacity as unknown (zero-reason code ${zeroReason}); it is not zero`,
        reasonCode: 'price_mesh_unknown',
      };
}

interface AssetStatus {
  token: Address;
  ticker: string | null;
  canonical: boolean;
  enabledInAssetRegistry: Reading<boolean>;
  executionMode: Reading<ExecutionMode>;
  buyCapacityUsdg: Reading<UsdgValue & { zeroReasonCode: number | null }>;
  sellCapacityUsdg: Reading<UsdgValue & { zeroReasonCode: number | null }>;
  depositLimitingFuse: Reading<LimitingFuse>;
  redemptionLimitingFuse: Reading<LimitingFuse>;
}

const SIDE = { buy: 0, sell: 1 } as const;

async function readAsset(reads: Reads, token: Address): Promise<AssetStatus> {
  const asset = findAssetByAddress(token);
  const [enabled, mode, buy, sell, buyFuse, sellFuse] = await Promise.all([
    reads.call<boolean>('asset_registry', { abi: V2_ASSET_REGISTRY_ABI, functionName: 'isEnabled', args: [token] }, 'expected_unpublished'),
    reads.call<number, ExecutionMode>(
      'risk_policy',
      { abi: V2_RISK_POLICY_ABI, functionName: 'executionMode', args: [token] },
      'expected_unpublished',
      (c) => enumValue(EXECUTION_MODES, Number(c), 'execution MODE', true),
    ),
    reads.call<CapacityRead, UsdgValue & { zeroReasonCode: number | null }>(
      'price_mesh',
      { abi: V2_PRICE_MESH_ABI, functionName: 'maxSafeBuyNotionalUsdg', args: [token] },
      'published',
      interpretCapacity,
    ),
    reads.call<CapacityRead, UsdgValue & { zeroReasonCode: number | null }>(
      'price_mesh',
      { abi: V2_PRICE_MESH_ABI, functionName: 'maxSafeSellNotionalUsdg', args: [token] },
      'published',
      interpretCapacity,
    ),
    reads.call<number, LimitingFuse>(
      'risk_policy',
      { abi: V2_RISK_POLICY_ABI, functionName: 'limitingFuse', args: [token, SIDE.buy] },
      'expected_unpublished',
      (c) => enumValue(LIMITING_FUSES, Number(c), 'limiting fuse', true),
    ),
    reads.call<number, LimitingFuse>(
      'risk_policy',
      { abi: V2_RISK_POLICY_ABI, functionName: 'limitingFuse', args: [token, SIDE.sell] },
      'expected_unpublished',
      (c) => enumValue(LIMITING_FUSES, Number(c), 'limiting fuse', true),
    ),
  ]);
  return {
    token,
    ticker: asset?.ticker ?? null,
    canonical: Boolean(asset),
    enabledInAssetRegistry: enabled,
    executionMode: mode,
    buyCapacityUsdg: buy,
    sellCapacityUsdg: sell,
    depositLimitingFuse: buyFuse,
    redemptionLimitingFuse: sellFuse,
  };
}

type LivenessValue = {
  state: (typeof LIVENESS_STATES)[number];
  executionAllowed: boolean;
  displayAllowed: boolean;
  observedChainId: string;
  ageSeconds: string;
  producedBlocks: string;
  reason: string;
};

/** The least capable MODE wins: the vault can do no more than its most restricted asset. */
function vaultMode(assets: Reading<AssetStatus[]>): DerivedReading<ExecutionMode> {
  const derivedFrom = 'the most restrictive executionMode(token) over the held assets';
  if (!live(assets)) return { state: 'unknown', reason: `held assets unknown: ${assets.reason}`, derivedFrom };
  if (assets.value.length === 0)
    return { state: 'unknown', reason: 'the vault holds no assets, so no per-asset MODE applies', derivedFrom };
  let worst = -1;
  for (const a of assets.value) {
    if (!live(a.executionMode))
      return { state: 'unknown', reason: `MODE of ${a.ticker ?? a.token} unknown: ${a.executionMode.reason}`, derivedFrom };
    worst = Math.max(worst, EXECUTION_MODES.indexOf(a.executionMode.value));
  }
  return { state: 'live', value: EXECUTION_MODES[worst]!, derivedFrom };
}

function minCapacity(
  assets: Reading<AssetStatus[]>,
  side: 'buyCapacityUsdg' | 'sellCapacityUsdg',
  derivedFrom: string,
): Capacity & { limitingIndex?: number } {
  if (!live(assets)) return { state: 'unknown', reason: `held assets unknown: ${assets.reason}`, derivedFrom };
  if (assets.value.length === 0)
    return { state: 'unknown', reason: 'the vault holds no assets; capacity is defined per held asset', derivedFrom };
  let min: bigint | undefined;
  let at = -1;
  for (const [i, a] of assets.value.entries()) {
    const c = a[side];
    if (!live(c)) return { state: 'unknown', reason: `capacity of ${a.ticker ?? a.token} unknown: ${c.reason}`, derivedFrom };
    const units = BigInt(c.value.units);
    if (min === undefined || units < min) {
      min = units;
      at = i;
    }
  }
  const limiting = assets.value[at]!;
  return {
    state: 'live',
    ...usdg(min!),
    limitingAssetTicker: limiting.ticker,
    limitingAsset: limiting.token,
    derivedFrom,
    limitingIndex: at,
  };
}

function stripIndex(c: Capacity & { limitingIndex?: number }): Capacity {
  const { limitingIndex: _i, ...rest } = c;
  return rest as Capacity;
}

/**
 * A pending timelocked operation. Its ETA is unknown (null, and so is `ready`) when the read
 * gave none for it or gave 0, the value of an unset ETA: never 1970, never ready.
 */
export interface TimelockOp {
  id: Hex;
  label: string | null;
  etaUnix: string | null;
  /** ISO 8601; null when the ETA is unknown or later than a date can say. */
  eta: string | null;
  /** Whether the ETA has passed on the server's clock; null when the ETA is unknown. */
  ready: boolean | null;
  etaUnknownReason: string | null;
}

/** The latest instant a JavaScript Date can hold, in seconds (8.64e15 ms). */
const MAX_DATE_SECONDS = 8_640_000_000_000n;

function timelockOp(id: Hex, label: string | undefined, eta: bigint | undefined, serverSeconds: bigint): TimelockOp {
  const known = { id, label: label ?? null };
  if (eta === undefined || eta === 0n) {
    return {
      ...known,
      etaUnix: null,
      eta: null,
      ready: null,
      etaUnknownReason:
        eta === undefined
          ? 'pendingTimelockOps() gave no ETA for this operation'
          : 'pendingTimelockOps() gave ETA 0, which marks an unset ETA, not a time',
    };
  }
  return {
    ...known,
    etaUnix: eta.toString(),
    eta: eta <= MAX_DATE_SECONDS ? new Date(Number(eta) * 1000).toISOString() : null,
    ready: eta <= serverSeconds,
    etaUnknownReason: null,
  };
}

/**
 * `readAt` is the answer's clock; whether a timelock operation is `ready` is a check, so it
 * reads the server's clock.
 */
export async function readVaultV2Status(reader: ChainReader | null, clocks: RequestClocks) {
  const serverSeconds = BigInt(Math.floor(clocks.serverTime.getTime() / 1000));
  const chain = await checkChain(reader);
  const reads = new Reads(chain.ok ? reader! : failingReader(chain.reason));
  const vaultAddress = v2Contract('vault').address;

  const [suiteCode, paused, queueActive, totalAssets, totalSupply, usdgCash, heldCount, pps, pendingRedeemCount, timelockRaw] =
    await Promise.all([
      Promise.all(V2_SUITE.map((c) => reads.code(c.role))),
      reads.call<boolean>('vault', { abi: V2_VAULT_ABI, functionName: 'paused' }, 'published'),
      reads.call<boolean>('vault', { abi: V2_VAULT_ABI, functionName: 'queueActive' }, 'published'),
      reads.call<bigint, UsdgValue>('vault', { abi: V2_VAULT_ABI, functionName: 'totalAssets' }, 'published', (v) => ({
        ok: true,
        value: usdg(v),
      })),
      reads.call<bigint, string>('vault', { abi: V2_VAULT_ABI, functionName: 'totalSupply' }, 'published', (v) => ({
        ok: true,
        value: v.toString(),
      })),
      reads.call<bigint, UsdgValue>('vault', { abi: V2_VAULT_ABI, functionName: 'usdgCash' }, 'published', (v) => ({
        ok: true,
        value: usdg(v),
      })),
      reads.call<bigint>('vault', { abi: V2_VAULT_ABI, functionName: 'heldAssetCount' }, 'published'),
      reads.call<readonly [bigint, number], { pricePerShare: string; markAvailabilityFlag: number }>(
        'vault',
        { abi: V2_VAULT_ABI, functionName: 'pricePerShare' },
        'published',
        ([value, agg]) => ({ ok: true, value: { pricePerShare: value.toString(), markAvailabilityFlag: Number(agg) } }),
      ),
      reads.call<bigint, string>('vault', { abi: V2_VAULT_ABI, functionName: 'pendingRedeemCount' }, 'published', (v) => ({
        ok: true,
        value: v.toString(),
      })),
      reads.call<readonly [readonly Hex[], readonly string[], readonly bigint[]], TimelockOp[]>(
        'vault',
        { abi: V2_VAULT_ABI, functionName: 'pendingTimelockOps' },
        'expected_unpublished',
        ([ids, labels, etas]) => ({ ok: true, value: ids.map((id, i) => timelockOp(id, labels[i], etas[i], serverSeconds)) }),
      ),
    ]);

  const [
    queuePaused,
    pendingCount,
    pendingDepositUsdg,
    pendingRedemptionShares,
    settlementActive,
    keeperActive,
    rebalanceActive,
    liveness,
    submissionReceipts,
    settlementReceipts,
  ] = await Promise.all([
    reads.call<boolean>('request_queue', { abi: V2_QUEUE_ABI, functionName: 'paused' }, 'published'),
    reads.call<bigint, string>('request_queue', { abi: V2_QUEUE_ABI, functionName: 'pendingCount' }, 'published', (v) => ({
      ok: true,
      value: v.toString(),
    })),
    reads.call<bigint, UsdgValue>('request_queue', { abi: V2_QUEUE_ABI, functionName: 'pendingDepositUsdg' }, 'published', (v) => ({
      ok: true,
      value: usdg(v),
    })),
    reads.call<bigint, string>('request_queue', { abi: V2_QUEUE_ABI, functionName: 'pendingRedemptionShares' }, 'published', (v) => ({
      ok: true,
      value: v.toString(),
    })),
    reads.call<boolean>('batch_settler', { abi: V2_SETTLER_ABI, functionName: 'settlementActive' }, 'published'),
    reads.call<boolean>('batch_settler', { abi: V2_SETTLER_ABI, functionName: 'keeperActive' }, 'published'),
    reads.call<boolean>('batch_settler', { abi: V2_SETTLER_ABI, functionName: 'rebalanceActive' }, 'published'),
    reads.call<readonly [number, boolean, boolean, bigint, bigint, bigint, string], LivenessValue>(
      'liveness',
      { abi: V2_LIVENESS_ABI, functionName: 'liveness' },
      'published',
      ([state, executionAllowed, displayAllowed, observedChainId, ageSeconds, producedBlocks, reason]) => {
        const name = LIVENESS_STATES[Number(state)];
        if (!name)
          return {
            ok: false,
            reason: `liveness returned state code ${state}, which names no known state`,
            reasonCode: 'unrecognised_code',
          };
        return {
          ok: true,
          value: {
            state: name,
            executionAllowed,
            displayAllowed,
            observedChainId: observedChainId.toString(),
            ageSeconds: ageSeconds.toString(),
            producedBlocks: producedBlocks.toString(),
            reason,
          },
        };
      },
    ),
    reads.call<bigint, string>(
      'receipt_registry',
      { abi: V2_RECEIPT_REGISTRY_ABI, functionName: 'receiptCountByStage', args: [1] },
      'expected_unpublished',
      (v) => ({ ok: true, value: v.toString() }),
    ),
    reads.call<bigint, string>(
      'receipt_registry',
      { abi: V2_RECEIPT_REGISTRY_ABI, functionName: 'receiptCountByStage', args: [2] },
      'expected_unpublished',
      (v) => ({ ok: true, value: v.toString() }),
    ),
  ]);

  // Held assets: the count, then each address, then each asset's reads.
  let heldAssets: Reading<AssetStatus[]>;
  if (!live(heldCount)) {
    heldAssets = { state: 'unknown', reason: heldCount.reason, reasonCode: heldCount.reasonCode, source: heldCount.source };
  } else {
    const count = Number(heldCount.value);
    const addresses = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        reads.call<Address>('vault', { abi: V2_VAULT_ABI, functionName: 'heldAssets', args: [BigInt(i)] }, 'published'),
      ),
    );
    const missing = addresses.find((a) => !live(a));
    if (missing && !live(missing)) {
      heldAssets = {
        state: 'unknown',
        reason: `a held-asset address could not be read: ${missing.reason}`,
        reasonCode: missing.reasonCode,
        source: missing.source,
      };
    } else {
      const assets = await Promise.all(addresses.map((a) => readAsset(reads, (a as Extract<Reading<Address>, { state: 'live' }>).value)));
      heldAssets = { state: 'live', value: assets, source: heldCount.source };
    }
  }

  const depositCapacity = minCapacity(
    heldAssets,
    'buyCapacityUsdg',
    'the smallest maxSafeBuyNotionalUsdg(token) over the held assets (price mesh)',
  );
  const sellMin = minCapacity(heldAssets, 'sellCapacityUsdg', 'the smallest maxSafeSellNotionalUsdg(token) over the held assets');
  const redemptionDerivation =
    'the smaller of the smallest maxSafeSellNotionalUsdg(token) over the held assets and usdgCash() (the USDG cash buffer)';
  let redemptionCapacity: Capacity;
  let cashIsLimiting = false;
  if (sellMin.state !== 'live') redemptionCapacity = { state: 'unknown', reason: sellMin.reason, derivedFrom: redemptionDerivation };
  else if (!live(usdgCash))
    redemptionCapacity = { state: 'unknown', reason: `USDG cash buffer unknown: ${usdgCash.reason}`, derivedFrom: redemptionDerivation };
  else {
    const cash = BigInt(usdgCash.value.units);
    const sell = BigInt(sellMin.units);
    cashIsLimiting = cash <= sell;
    redemptionCapacity = cashIsLimiting
      ? { state: 'live', ...usdg(cash), limitingAssetTicker: 'USDG', limitingAsset: null, derivedFrom: redemptionDerivation }
      : {
          state: 'live',
          ...usdg(sell),
          limitingAssetTicker: sellMin.limitingAssetTicker,
          limitingAsset: sellMin.limitingAsset,
          derivedFrom: redemptionDerivation,
        };
  }

  const executionHalted = live(liveness) && !liveness.value.executionAllowed;
  const fuseFor = (
    capacity: Capacity & { limitingIndex?: number },
    side: 'depositLimitingFuse' | 'redemptionLimitingFuse',
    derivedFrom: string,
  ): DerivedReading<LimitingFuse> => {
    if (executionHalted) return { state: 'live', value: 'liveness', derivedFrom: 'liveness().executionAllowed is false' };
    if (side === 'redemptionLimitingFuse' && cashIsLimiting)
      return { state: 'live', value: 'usdg_cash_buffer', derivedFrom: 'usdgCash() is at or below the smallest sell capacity' };
    if (!live(liveness)) return { state: 'unknown', reason: `liveness unknown: ${liveness.reason}`, derivedFrom };
    if (capacity.state !== 'live' || capacity.limitingIndex === undefined || !live(heldAssets)) {
      return { state: 'unknown', reason: capacity.state === 'unknown' ? capacity.reason : 'no limiting asset', derivedFrom };
    }
    const fuse = heldAssets.value[capacity.limitingIndex]![side];
    return live(fuse) ? { state: 'live', value: fuse.value, derivedFrom } : { state: 'unknown', reason: fuse.reason, derivedFrom };
  };
  const limitingFuse = {
    deposit: fuseFor(depositCapacity, 'depositLimitingFuse', 'limitingFuse(limiting asset, buy side) of the risk policy'),
    redemption: fuseFor(sellMin, 'redemptionLimitingFuse', 'limitingFuse(limiting asset, sell side) of the risk policy'),
  };

  const keeper = ((): { state: 'HEALTHY' | 'INACTIVE' | 'DEGRADED' | 'UNKNOWN'; reason: string } => {
    if (!live(keeperActive)) return { state: 'UNKNOWN', reason: `keeperActive() unknown: ${keeperActive.reason}` };
    if (!keeperActive.value) return { state: 'INACTIVE', reason: 'keeperActive() is false' };
    if (!live(liveness)) return { state: 'UNKNOWN', reason: `liveness unknown: ${liveness.reason}` };
    return liveness.value.executionAllowed
      ? { state: 'HEALTHY', reason: 'keeper active and liveness allows execution' }
      : { state: 'DEGRADED', reason: 'keeper active but liveness does not allow execution' };
  })();

  const unknownOf = (...rs: Array<Reading<unknown>>) =>
    rs.find((r) => !live(r)) as Extract<Reading<unknown>, { state: 'unknown' }> | undefined;
  const queueLane = (lane: 'queued_usdg_deposit' | 'queued_usdg_redemption'): Lane => {
    const u = unknownOf(paused, queuePaused, queueActive);
    if (u) return { lane, state: 'unknown', reason: `${u.source.call} unknown: ${u.reason}` };
    if ((paused as { value: boolean }).value) return { lane, state: 'paused', reason: 'the vault is paused' };
    if ((queuePaused as { value: boolean }).value) return { lane, state: 'paused', reason: 'the request queue is paused' };
    if (!(queueActive as { value: boolean }).value) return { lane, state: 'inactive', reason: 'queueActive() is false' };
    return {
      lane,
      state: 'open',
      reason: 'requests enter the on-chain queue and wait for a keeper batch epoch; a request is complete only at SETTLEMENT',
    };
  };
  const instantLane = ((): Lane => {
    const lane = 'instant_bounded_usdg_deposit' as const;
    const u = unknownOf(paused, keeperActive, settlementActive, liveness);
    if (u) return { lane, state: 'unknown', reason: `${u.source.call} unknown: ${u.reason}` };
    if ((paused as { value: boolean }).value) return { lane, state: 'paused', reason: 'the vault is paused' };
    if (!(keeperActive as { value: boolean }).value) return { lane, state: 'inactive', reason: 'keeperActive() is false' };
    if (!(settlementActive as { value: boolean }).value) return { lane, state: 'inactive', reason: 'settlementActive() is false' };
    if (executionHalted) return { lane, state: 'halted', reason: 'liveness does not allow execution' };
    if (depositCapacity.state !== 'live') return { lane, state: 'unknown', reason: `deposit capacity unknown: ${depositCapacity.reason}` };
    return { lane, state: 'open', reason: `bounded by immediateDepositCapacityUsdg (${depositCapacity.usdg} USDG)` };
  })();
  const inKindLane = ((): Lane => {
    const lane = 'in_kind_redemption' as const;
    if (!live(totalSupply)) return { lane, state: 'unknown', reason: `totalSupply() unknown: ${totalSupply.reason}` };
    return BigInt(totalSupply.value) > 0n
      ? { lane, state: 'open', reason: 'shares exist; in-kind redemption pays pro-rata holdings with no valuation gate' }
      : { lane, state: 'no_shares', reason: 'no shares exist yet' };
  })();
  const rebalanceLane: Lane = { lane: 'chunked_rebalance', state: 'inactive_by_owner_policy', reason: REBALANCING_POLICY_REASON };

  const attempted = reads.attempted;
  const liveCount = reads.live;
  return {
    statusVersion: V2_STATUS_VERSION,
    vault: { slug: V2_VAULT_SLUG, address: vaultAddress, generation: 'v2' as const, lifecycle: 'canonical_v2' as const },
    readAt: clocks.answerTime.toISOString(),
    chain: chain.ok
      ? { expectedChainId: 4663 as const, state: 'verified' as const, reason: 'eth_chainId answered 4663 before any other read' }
      : { expectedChainId: 4663 as const, state: 'unusable' as const, reason: READ_FAILURE_TEXT[chain.reason] },
    readSummary: {
      attempted,
      live: liveCount,
      unknown: attempted - liveCount,
      overall: liveCount === 0 ? ('unknown' as const) : liveCount === attempted ? ('live' as const) : ('partial' as const),
    },
    suite: V2_SUITE.map((c, i) => ({ role: c.role, name: c.name, address: c.address, codePresent: suiteCode[i]! })),
    stageLadder: [
      {
        stage: 'PREPARATION' as const,
        order: 1,
        provenBy: 'nothing on chain: a compiled request or calldata; nothing is signed or sent',
        onchainCount: null,
      },
      {
        stage: 'SUBMISSION' as const,
        order: 2,
        provenBy:
          "a request in the on-chain queue, created by the user's own signed transaction; not yet a completed deposit or redemption",
        onchainCount: submissionReceipts,
        openQueueRequests: pendingCount,
      },
      {
        stage: 'SETTLEMENT' as const,
        order: 3,
        provenBy:
          'on-chain proof of a keeper batch epoch settlement with exact conservation, or of a completed instant or in-kind path; only this stage is a completed deposit or redemption',
        onchainCount: settlementReceipts,
      },
    ],
    mode: vaultMode(heldAssets),
    liveness,
    keeper,
    flags: { vaultPaused: paused, queuePaused, queueActive, settlementActive, keeperActive, rebalanceActive },
    lanes: [instantLane, queueLane('queued_usdg_deposit'), queueLane('queued_usdg_redemption'), inKindLane, rebalanceLane],
    heldAssets,
    immediateDepositCapacityUsdg: stripIndex(depositCapacity),
    immediateUsdgRedemptionCapacityUsdg: redemptionCapacity,
    limitingFuse,
    usdgCash,
    navUsdg: totalAssets,
    totalSupply,
    pricePerShare: pps,
    queue: { pendingCount, pendingDepositUsdg, pendingRedemptionShares, pendingRedeemCount },
    timelock: timelockRaw,
    rebalancing: {
      state: 'inactive_by_owner_policy' as const,
      active: false as const,
      byOwnerPolicy: true as const,
      faultState: false as const,
      reason: REBALANCING_POLICY_REASON,
      onchainRebalanceFlag: rebalanceActive,
      note: 'An owner policy, not a fault, and not a promise of activation.',
    },
  };
}

export type VaultV2Status = Awaited<ReturnType<typeof readVaultV2Status>>;
