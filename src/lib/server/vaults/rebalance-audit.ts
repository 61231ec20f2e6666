/**
 * Vault rebalance audit: a rebalance someone reports after the fact, checked against the
 * vault's compiled rebalance policy (`compileRebalancePolicy`: drift threshold, minimum
 * trade, targets, fuses). The report is the reporter's word: every trade is labelled
 * `reported_unverified` (a transaction hash is recorded, not verified here), a note that
 * claims an execution is quoted as an unconfirmed claim, and the verdict names every breach.
 * What the report leaves out is unknown, never a pass.
 */
import { parseIsoInstant, type ServerTime } from '../clock';
import { quoteReportedText } from '../guards/reported-text';
import { buildArtifactReceipt } from '../receipts/artifact';
import { checkCanonical, findAssetByAddress } from '../registry';
import { formatUsdgUnits } from './amount';
import { parseUsdgUnits } from './fees';
import { validateVaultManifest, type VaultManifest } from './manifest';
import { compileRebalancePolicy, type CompileOptions } from './rebalance-policy';

export const REBALANCE_AUDIT_VERSION = 'svc-vault-rebalance-audit-1.0.0';

const FREQUENCY_SECONDS = { daily: 86_400, weekly: 604_800, monthly: 2_592_000 } as const;
/** Post-rebalance weight checks the manifest's own rules apply (allocation caps, exposures, reserve). */
const POST_WEIGHT_RULES = new Set([
  'ALLOCATION_ABOVE_ASSET_CAP',
  'EQUITY_EXPOSURE_CAP',
  'ETF_EXPOSURE_CAP',
  'USDG_RESERVE_BELOW_MIN',
  'WEIGHTS_SUM',
  'NONCANONICAL_ASSET',
  'TICKER_ADDRESS_MISMATCH',
  'DUPLICATE_ALLOCATION',
]);

export interface ReportedTrade {
  tokenAddress: string;
  side: 'buy' | 'sell';
  notionalUsdg: string;
  slippageBps?: number;
  txHash?: string;
  note?: string;
}

export interface ReportedRebalance {
  reportedAt: string;
  previousRebalanceAt?: string;
  navUsdg: string;
  preWeights?: Array<{ tokenAddress: string; weightBps: number }>;
  postWeights?: Array<{ tokenAddress: string; weightBps: number }>;
  trades: ReportedTrade[];
}

interface Finding {
  code: string;
  message: string;
  trade?: number;
}

export interface RebalanceAuditDeps {
  now: Date;
  /** The server's clock: a report dated ahead of it cannot be true yet. */
  serverTime: ServerTime;
}

const key = (address: string) => address.toLowerCase();

export function auditVaultRebalance(
  manifest: VaultManifest,
  policyOptions: CompileOptions,
  report: ReportedRebalance,
  deps: RebalanceAuditDeps,
) {
  const { policy, policyHash } = compileRebalancePolicy(manifest, policyOptions, deps.now);
  const targets = new Map(policy.targets.map((t) => [key(t.tokenAddress), t]));
  const breaches: Finding[] = [];
  const unknowns: Finding[] = [];
  const nav = parseUsdgUnits(report.navUsdg);
  const minTrade = parseUsdgUnits(policy.minTradeUsdg);

  // Trades: allowed assets, minimum trade, slippage.
  let traded = 0n;
  const trades = report.trades.map((t, i) => {
    const check = checkCanonical(undefined, t.tokenAddress);
    const units = parseUsdgUnits(t.notionalUsdg);
    traded += units;
    const own: string[] = [];
    const flag = (code: string, message: string) => {
      own.push(code);
      breaches.push({ code, message: `Reported trade ${i} (unconfirmed): ${message}`, trade: i });
    };
    if (check.status !== 'canonical') flag('NONCANONICAL_ASSET', `${t.tokenAddress} is not a canonical asset`);
    else if (!targets.has(key(t.tokenAddress))) flag('ASSET_NOT_IN_POLICY', `${check.asset.ticker} is not one of the policy's targets`);
    else if (check.asset.kind === 'stablecoin')
      flag('TRADE_IN_BASE_ASSET', 'USDG is the base asset: a trade is of a target asset against USDG');
    if (units < minTrade)
      flag('TRADE_BELOW_MIN', `${formatUsdgUnits(units)} USDG is below the policy's minimum trade of ${policy.minTradeUsdg} USDG`);
    if (t.slippageBps === undefined)
      unknowns.push({
        code: 'SLIPPAGE_NOT_REPORTED',
        message: `Reported trade ${i}: no slippage reported, so the slippage fuse is not checked`,
        trade: i,
      });
    else if (t.slippageBps > policy.fuses.maxSlippageBps)
      flag('SLIPPAGE_ABOVE_FUSE', `${t.slippageBps} bps is above the maxSlippageBps fuse of ${policy.fuses.maxSlippageBps}`);
    const note = t.note === undefined ? null : quoteReportedText(t.note, 'the reporter');
    return {
      index: i,
      status: 'reported_unverified' as const,
      tokenAddress: check.status === 'canonical' ? check.asset.address : t.tokenAddress,
      ticker: check.status === 'canonical' ? check.asset.ticker : null,
      side: t.side,
      notionalUsdg: formatUsdgUnits(units),
      slippageBps: t.slippageBps ?? null,
      txHash: t.txHash ?? null,
      txHashVerified: false as const,
      breaches: own,
      reportedNote: note ? { quoted: note.quoted, claimsExecution: note.claimsExecution } : null,
    };
  });

  // Drift: a rebalance is due only when some weight drifted at least the threshold.
  let requiredTurnoverBps: number | null = null;
  if (report.preWeights) {
    const pre = new Map(report.preWeights.map((w) => [key(w.tokenAddress), w.weightBps]));
    const drifts = [...new Set([...targets.keys(), ...pre.keys()])].map((a) =>
      Math.abs((pre.get(a) ?? 0) - (targets.get(a)?.targetWeightBps ?? 0)),
    );
    const largest = Math.max(0, ...drifts);
    requiredTurnoverBps = drifts.reduce((n, d) => n + d, 0);
    if (largest < policy.driftThresholdBps) {
      breaches.push({
        code: 'REBALANCE_NOT_TRIGGERED',
        message: `The largest reported drift before the rebalance is ${largest} bps, below the policy's threshold of ${policy.driftThresholdBps} bps`,
      });
    }
  } else {
    unknowns.push({
      code: 'PRE_WEIGHTS_NOT_REPORTED',
      message: 'No weights before the rebalance: whether it was due, and the turnover it needed, are unknown',
    });
  }

  // Turnover: what was traded against what the drift needed (plus the threshold as tolerance).
  const turnoverBps = nav > 0n ? Number((traded * 10_000n) / nav) : null;
  if (turnoverBps === null) unknowns.push({ code: 'NAV_ZERO', message: 'A NAV of 0 USDG gives no turnover ratio' });
  else if (requiredTurnoverBps !== null && turnoverBps > requiredTurnoverBps + policy.driftThresholdBps) {
    breaches.push({
      code: 'EXCESS_TURNOVER',
      message: `Reported trades total ${turnoverBps} bps of NAV; returning to the targets needed about ${requiredTurnoverBps} bps (tolerance ${policy.driftThresholdBps} bps)`,
    });
  }

  // After: close to the targets, and within the manifest's own caps.
  if (report.postWeights) {
    const post = new Map(report.postWeights.map((w) => [key(w.tokenAddress), w.weightBps]));
    for (const [address, target] of targets) {
      const drift = Math.abs((post.get(address) ?? 0) - target.targetWeightBps);
      if (drift >= policy.driftThresholdBps)
        breaches.push({
          code: 'TARGET_NOT_REACHED',
          message: `${target.ticker} ends ${drift} bps from its target, at or beyond the ${policy.driftThresholdBps} bps threshold`,
        });
    }
    for (const address of post.keys()) {
      if (!targets.has(address))
        breaches.push({
          code: 'ASSET_NOT_IN_POLICY',
          message: `${address} is held after the rebalance but is not one of the policy's targets`,
        });
    }
    // The manifest's own allocation rules, applied to the weights as reported held.
    const held = report.postWeights.map((w) => ({
      ticker: findAssetByAddress(w.tokenAddress)?.ticker ?? '',
      tokenAddress: w.tokenAddress,
      targetWeightBps: w.weightBps,
    }));
    const asHeld = validateVaultManifest({ ...manifest, allocations: held });
    for (const i of asHeld.issues)
      if (i.severity === 'error' && POST_WEIGHT_RULES.has(i.code))
        breaches.push({ code: i.code, message: `After the rebalance: ${i.message}` });
  } else {
    unknowns.push({
      code: 'POST_WEIGHTS_NOT_REPORTED',
      message: 'No weights after the rebalance: whether it reached the targets within the fuses is unknown',
    });
  }

  // Cadence and time.
  const reportedAt = parseIsoInstant(report.reportedAt)!;
  if (report.previousRebalanceAt !== undefined) {
    const previous = parseIsoInstant(report.previousRebalanceAt)!;
    const gap = Math.floor((reportedAt.getTime() - previous.getTime()) / 1000);
    const min = FREQUENCY_SECONDS[policy.fuses.maxRebalanceFrequency];
    if (gap < min)
      breaches.push({
        code: 'FREQUENCY_EXCEEDED',
        message: `${gap} seconds after the previous rebalance; maxRebalanceFrequency ${policy.fuses.maxRebalanceFrequency} needs at least ${min}`,
      });
  } else {
    unknowns.push({ code: 'PREVIOUS_REBALANCE_NOT_REPORTED', message: 'No previous rebalance time: the frequency fuse is not checked' });
  }
  if (reportedAt.getTime() > deps.serverTime.getTime() + 120_000)
    breaches.push({ code: 'REPORTED_TIME_IN_FUTURE', message: 'The rebalance is reported for a time that has not come yet' });

  const report_ = {
    auditVersion: REBALANCE_AUDIT_VERSION,
    vaultSlug: policy.vaultSlug,
    manifestHash: policy.manifestHash,
    policyHash,
    driftThresholdBps: policy.driftThresholdBps,
    evidence: 'reported_unverified' as const,
    reportedAt: reportedAt.toISOString(),
    navUsdg: formatUsdgUnits(nav),
    turnoverBps,
    requiredTurnoverBps,
    trades,
    rebalanceLane: policy.lane,
    executionClaimsQuoted: trades.filter((t) => t.reportedNote?.claimsExecution).length,
    verdict: {
      status: breaches.length ? ('breaches_found' as const) : ('no_breach_found' as const),
      breachCount: breaches.length,
      breaches: breaches.map((b) => ({ code: b.code, message: b.message, trade: b.trade ?? null })),
      unknowns: unknowns.map((u) => ({ code: u.code, message: u.message, trade: u.trade ?? null })),
      meaning: breaches.length
        ? "The reported rebalance breaks the policy where named. It is the reporter's word: nothing here is verified on chain."
        : 'No reported fact breaks the policy; what was not reported is listed as unknown. Nothing here is verified on chain.',
    },
    disclaimer:
      "A reported rebalance is the reporter's word (reported_unverified); transaction hashes are recorded, not verified. This service executes no rebalance.",
  };
  return { audit: report_, receipt: buildArtifactReceipt('vault_rebalance_audit', report_, deps.now) };
}
