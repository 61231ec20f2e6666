/**
 * The named catalogue of risk fuses a Coil can carry. A fuse is a bound a capsule must
 * respect (or an on/off rule); the risk audit reports which are set, which a capsule
 * requires and which are missing. Kept as data so the list can be reviewed in one place.
 */

export const FUSE_KINDS = [
  'oracleStaleness',
  'singleAssetCap',
  'canonicalAssetsOnly',
  'maxTotalNotional',
  'maxSingleOrderNotional',
  'maxSlippage',
  'maxDailyTurnover',
  'humanConfirmation',
  'noOptions',
  'noMargin',
  'marketHoursOnly',
  'stopIfOracleUnhealthy',
  'stopIfReceiptMismatch',
  'maxDrawdownAlert',
] as const;

export type FuseKind = (typeof FUSE_KINDS)[number];
export type FuseUnit = 'seconds' | 'bps' | 'usd' | 'percent' | 'flag';

export interface FuseDefinition {
  kind: FuseKind;
  label: string;
  unit: FuseUnit;
  /** Inclusive bounds of the limit; flags carry no limit. */
  min?: number;
  max?: number;
  requiredForCapsule: boolean;
  /**
   * Mandatory on the autonomy path (an agent acting within the fuses without a per-order
   * prompt): every capsule fuse plus the run's total notional, market hours and the two stop
   * conditions. `GET /api/partnerbot/schema` publishes this list and the autonomy validation
   * applies it.
   */
  requiredForAutonomy: boolean;
  /** The conservative value a capsule uses when the Coil states none (a human confirms it). */
  capsuleDefault: number | null;
}

/** The most a capsule may ever plan in total, in USD (the deposit-pack ceiling of the service). */
export const CAPSULE_NOTIONAL_CEILING_USD = 10_000;

export const FUSE_CATALOGUE: Readonly<Record<FuseKind, FuseDefinition>> = {
  oracleStaleness: {
    kind: 'oracleStaleness',
    label: 'Oracle staleness bound: a price older than this is unknown, never live',
    unit: 'seconds',
    min: 1,
    max: 604_800,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 3600,
  },
  singleAssetCap: {
    kind: 'singleAssetCap',
    label: 'Single-asset cap: no asset above this weight',
    unit: 'bps',
    min: 1,
    max: 10_000,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 4000,
  },
  canonicalAssetsOnly: {
    kind: 'canonicalAssetsOnly',
    label: 'Canonical assets only: every token address must be in the registry',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: null,
  },
  maxTotalNotional: {
    kind: 'maxTotalNotional',
    label: 'Total notional cap of a capsule (on the autonomy path: of one run)',
    unit: 'usd',
    min: 0.01,
    max: CAPSULE_NOTIONAL_CEILING_USD,
    requiredForAutonomy: true,
    requiredForCapsule: false,
    capsuleDefault: 500,
  },
  maxSingleOrderNotional: {
    kind: 'maxSingleOrderNotional',
    label: 'Notional cap of any single order',
    unit: 'usd',
    min: 0.01,
    max: CAPSULE_NOTIONAL_CEILING_USD,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 500,
  },
  maxSlippage: {
    kind: 'maxSlippage',
    label: 'Slippage cap',
    unit: 'bps',
    min: 1,
    max: 500,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 50,
  },
  maxDailyTurnover: {
    kind: 'maxDailyTurnover',
    label: 'Daily turnover cap',
    unit: 'bps',
    min: 1,
    max: 10_000,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 2000,
  },
  humanConfirmation: {
    kind: 'humanConfirmation',
    label: 'Human confirmation of every order above this notional (0: every order)',
    unit: 'usd',
    min: 0,
    max: CAPSULE_NOTIONAL_CEILING_USD,
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: 0,
  },
  noOptions: {
    kind: 'noOptions',
    label: 'No options',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: null,
  },
  noMargin: {
    kind: 'noMargin',
    label: 'No margin or leverage',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: true,
    capsuleDefault: null,
  },
  marketHoursOnly: {
    kind: 'marketHoursOnly',
    label: 'Market hours only (24/5 feeds)',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: false,
    capsuleDefault: null,
  },
  stopIfOracleUnhealthy: {
    kind: 'stopIfOracleUnhealthy',
    label: 'Stop when any price feed is unhealthy or stale',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: false,
    capsuleDefault: null,
  },
  stopIfReceiptMismatch: {
    kind: 'stopIfReceiptMismatch',
    label: 'Stop when the receipt does not verify against the Coil',
    unit: 'flag',
    requiredForAutonomy: true,
    requiredForCapsule: false,
    capsuleDefault: null,
  },
  maxDrawdownAlert: {
    kind: 'maxDrawdownAlert',
    label: 'Alert (never trade) when the basket draws down by this percentage',
    unit: 'percent',
    min: 1,
    max: 100,
    requiredForAutonomy: false,
    requiredForCapsule: false,
    capsuleDefault: null,
  },
};

export const REQUIRED_CAPSULE_FUSES: readonly FuseKind[] = FUSE_KINDS.filter((k) => FUSE_CATALOGUE[k].requiredForCapsule);

/** The mandatory autonomy fuses, in catalogue order (see `requiredForAutonomy`). */
export const REQUIRED_AUTONOMY_FUSES: readonly FuseKind[] = FUSE_KINDS.filter((k) => FUSE_CATALOGUE[k].requiredForAutonomy);

/**
 * Whether `candidate` loosens `reference` for a limited fuse kind. A larger number allows
 * more for every limited kind (a longer staleness, a higher cap, a higher confirmation
 * threshold, a deeper drawdown); on/off flags cannot be loosened by a limit.
 */
export function widensFuse(kind: FuseKind, candidate: number | null, reference: number | null): boolean {
  if (FUSE_CATALOGUE[kind].unit === 'flag' || candidate === null || reference === null) return false;
  return candidate > reference;
}
