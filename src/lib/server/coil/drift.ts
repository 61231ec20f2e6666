/**
 * Drift check (interface 2.7): per symbol, signed drift = current - target; an entry breaches
 * when |drift| >= the Coil's `driftThresholdBps`. A rebalance proposal appears only when
 * something breaches, and it is a preview: no notional, no quantity, a human confirms.
 * Without current weights there is no reading, and none is invented.
 */
import { FUSE_CATALOGUE } from './fuse-catalogue';
import { effectiveFuses } from './audit';
import { singleAssetCapOf, type Coil } from './manifest';

export const DRIFT_DISCLAIMER =
  'Drift report for planning only: no order is placed and nothing is executed. Any proposal is a preview that needs your own confirmation. Not investment advice.';

export const ABORT_CONDITIONS = [
  'Abort if the user has not confirmed this specific order.',
  'Abort if any fuse is breached (single-asset cap, daily turnover, slippage, oracle staleness, canonical assets only).',
  'Abort if account data is stale or missing.',
] as const;

export const INTENT_FUSE_CHECKS = [
  'singleAssetCap',
  'maxDailyTurnover',
  'maxSlippage',
  'oracleStaleness',
  'canonicalAssetsOnly',
  'humanConfirmation',
] as const;

export interface DriftEntry {
  symbol: string;
  targetWeightBps: number;
  /** null when no current weight was given for this symbol (unknown, never 0). */
  currentWeightBps: number | null;
  driftBps: number | null;
  breachesThreshold: boolean;
  reading: 'provided' | 'missing';
}

export interface RebalanceIntent {
  status: 'preview';
  symbol: string;
  side: 'buy' | 'sell';
  orderType: 'limit';
  timeInForce: 'day';
  maxPositionWeightBps: number;
  maxDailyTurnoverBps: number;
  reason: string;
  fuseChecks: string[];
  abortConditions: string[];
}

export interface RebalanceProposal {
  status: 'proposal';
  requiresHumanConfirmation: true;
  requiresUserApproval: true;
  executable: false;
  intents: RebalanceIntent[];
}

export interface DriftReport {
  coilId: string;
  manifestHash: string;
  generatedAt: string;
  thresholdBps: number;
  readingStatus: 'complete' | 'partial' | 'missing';
  entries: DriftEntry[];
  breachCount: number;
  proposal?: RebalanceProposal;
  note: string;
  disclaimer: string;
}

export interface DriftInput {
  coil: Coil;
  coilId: string;
  manifestHash: string;
  /** Symbol → integer bps; absent means no reading. */
  currentWeightsBps?: Record<string, number>;
  now: Date;
}

/** Whether a signed drift breaches a threshold: exactly at the threshold counts. */
export function breaches(driftBps: number, thresholdBps: number): boolean {
  return Math.abs(driftBps) >= thresholdBps;
}

export function driftCheck(input: DriftInput): DriftReport {
  const { coil } = input;
  const thresholdBps = coil.rebalancePolicy.driftThresholdBps;
  const provided = input.currentWeightsBps;
  const current = new Map<string, number>();
  for (const [symbol, w] of Object.entries(provided ?? {})) current.set(symbol.trim().toUpperCase(), w);

  const entries: DriftEntry[] = [];
  const targets = new Map<string, number>();
  for (const a of coil.assets) {
    const symbol = a.ticker.trim().toUpperCase();
    targets.set(symbol, (targets.get(symbol) ?? 0) + a.weightBps);
  }
  for (const [symbol, target] of targets) {
    const reading = current.get(symbol);
    if (reading === undefined) {
      entries.push({
        symbol,
        targetWeightBps: target,
        currentWeightBps: null,
        driftBps: null,
        breachesThreshold: false,
        reading: 'missing',
      });
    } else {
      const drift = reading - target;
      entries.push({
        symbol,
        targetWeightBps: target,
        currentWeightBps: reading,
        driftBps: drift,
        breachesThreshold: breaches(drift, thresholdBps),
        reading: 'provided',
      });
    }
  }
  // A holding outside the basket drifts from a target of zero.
  for (const [symbol, reading] of [...current].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (targets.has(symbol)) continue;
    entries.push({
      symbol,
      targetWeightBps: 0,
      currentWeightBps: reading,
      driftBps: reading,
      breachesThreshold: breaches(reading, thresholdBps),
      reading: 'provided',
    });
  }

  const missing = entries.filter((e) => e.reading === 'missing').length;
  const readingStatus = provided === undefined || missing === entries.length ? 'missing' : missing > 0 ? 'partial' : 'complete';
  const breaching = entries.filter((e) => e.breachesThreshold);
  const report: DriftReport = {
    coilId: input.coilId,
    manifestHash: input.manifestHash,
    generatedAt: input.now.toISOString(),
    thresholdBps,
    readingStatus,
    entries,
    breachCount: breaching.length,
    note:
      readingStatus === 'missing'
        ? 'No current weights were given, so drift is unknown: no weights are invented and no proposal is made.'
        : readingStatus === 'partial'
          ? `${missing} symbol(s) have no current weight; their drift is unknown and they never breach.`
          : 'Every symbol has a current weight.',
    disclaimer: DRIFT_DISCLAIMER,
  };
  if (breaching.length > 0) report.proposal = proposalFor(coil, breaching, thresholdBps);
  return report;
}

function proposalFor(coil: Coil, breaching: DriftEntry[], thresholdBps: number): RebalanceProposal {
  const fuses = new Map(effectiveFuses(coil).fuses.map((f) => [f.kind, f.limit]));
  const maxDailyTurnoverBps = (fuses.get('maxDailyTurnover') as number | undefined) ?? FUSE_CATALOGUE.maxDailyTurnover.capsuleDefault!;
  const cap = singleAssetCapOf(coil);
  return {
    status: 'proposal',
    requiresHumanConfirmation: true,
    requiresUserApproval: true,
    executable: false,
    intents: breaching.map((e) => {
      const drift = e.driftBps!;
      const direction = drift > 0 ? 'above' : 'below';
      return {
        status: 'preview' as const,
        symbol: e.symbol,
        side: drift > 0 ? ('sell' as const) : ('buy' as const),
        orderType: 'limit' as const,
        timeInForce: 'day' as const,
        maxPositionWeightBps: Math.min(cap, Math.max(e.targetWeightBps, 0)),
        maxDailyTurnoverBps,
        reason: `${e.symbol} is ${Math.abs(drift)} bps ${direction} its ${e.targetWeightBps} bps target (threshold ${thresholdBps} bps); a preview to move it back toward target.`,
        fuseChecks: [...INTENT_FUSE_CHECKS],
        abortConditions: [...ABORT_CONDITIONS],
      };
    }),
  };
}
