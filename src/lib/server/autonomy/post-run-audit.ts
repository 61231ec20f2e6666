/**
 * Post-run audit (`POST /api/partnerbot/post-run-audit`): the activity an agent reports after
 * a session, checked item by item against the path it ran under (the binding of an
 * `autonomy_path` receipt): symbol in the Coil, the per-order and run notional caps, daily
 * turnover, the market session, no options, no margin, human confirmation, and what the
 * autonomy mode allows.
 *
 * Reported activity is the agent's word. Every item is labelled `reported_unverified`,
 * never filled or executed; a note that claims an execution is quoted as an unconfirmed
 * claim, never relayed as a fact. The verdict names every breach.
 */
import { z } from 'zod';
import { parseIsoInstant, type ServerTime } from '../clock';
import { SvcError } from '../errors';
import { quoteReportedText, type QuotedReport } from '../guards/reported-text';
import { FUSE_KINDS, type FuseKind } from '../coil/fuse-catalogue';
import { buildArtifactReceipt, verifyArtifactReceipt } from '../receipts/artifact';
import { isWithinMarketSession, MARKET_SESSION } from '../registry/market-session';
import { AUTONOMY_MODES } from './modes';

export const POST_RUN_AUDIT_VERSION = 'svc-post-run-audit-1.0.0';

/** Sides an agent may report; the option and short sides exist so that a breach can be named. */
export const ACTIVITY_SIDES = [
  'buy',
  'sell',
  'sell_short',
  'buy_to_cover',
  'buy_to_open',
  'sell_to_open',
  'buy_to_close',
  'sell_to_close',
] as const;
export type ActivitySide = (typeof ACTIVITY_SIDES)[number];
const OPTION_SIDES = new Set<ActivitySide>(['buy_to_open', 'sell_to_open', 'buy_to_close', 'sell_to_close']);
const MARGIN_SIDES = new Set<ActivitySide>(['sell_short', 'buy_to_cover']);

export interface ReportedActivity {
  symbol: string;
  side: ActivitySide;
  notionalUsd: number;
  /** When it happened, per the agent (ISO 8601 with a zone). */
  at: string;
  brokerOrderId?: string;
  note?: string;
  instrument?: 'equity' | 'etf' | 'option';
  margin?: boolean;
  humanConfirmed?: boolean;
  /** A paper or preview order: planned, never submitted. */
  simulated?: boolean;
}

/** The binding as the audit reads it (the receipt is untrusted input until it verifies). */
const bindingSchema = z.object({
  coilId: z.string(),
  manifestHash: z.string(),
  autonomyMode: z.enum(AUTONOMY_MODES),
  symbols: z.array(z.object({ brokerTicker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number() })),
  totalNotionalUsd: z.number(),
  fuses: z.array(z.object({ kind: z.enum(FUSE_KINDS), unit: z.string(), limit: z.number().nullable() })),
});

export const AUDIT_CHECKS = [
  'symbol_in_coil',
  'order_notional_cap',
  'run_notional_cap',
  'daily_turnover',
  'market_session',
  'no_options',
  'no_margin',
  'human_confirmation',
  'mode_allows_orders',
  'time_not_in_future',
] as const;
type AuditCheck = (typeof AUDIT_CHECKS)[number];

const BREACH_CODE: Readonly<Record<AuditCheck, string>> = {
  symbol_in_coil: 'SYMBOL_NOT_IN_COIL',
  order_notional_cap: 'ORDER_NOTIONAL_ABOVE_CAP',
  run_notional_cap: 'RUN_NOTIONAL_ABOVE_CAP',
  daily_turnover: 'DAILY_TURNOVER_ABOVE_CAP',
  market_session: 'OUTSIDE_MARKET_SESSION',
  no_options: 'OPTIONS_NOT_ALLOWED',
  no_margin: 'MARGIN_NOT_ALLOWED',
  human_confirmation: 'HUMAN_CONFIRMATION_MISSING',
  mode_allows_orders: 'ORDER_OUTSIDE_LIVE_CANDIDATE',
  time_not_in_future: 'REPORTED_TIME_IN_FUTURE',
};

/** Reported times more than this far ahead of the server clock cannot have happened yet. */
const FUTURE_SKEW_MS = 120_000;

interface CheckResult {
  check: AuditCheck;
  result: 'pass' | 'breach' | 'not_applicable';
  detail: string;
}

const cents = (n: number) => Math.round(n * 100) / 100;

function invalidReceipt(message: string, issues: { code: string; message: string; path?: string }[]): SvcError {
  return new SvcError('AUTONOMY_RECEIPT_INVALID', message, { issues });
}

/** Verifies the receipt and returns its binding, or throws 422 AUTONOMY_RECEIPT_INVALID. */
export function bindingOfReceipt(receipt: Record<string, unknown>): z.infer<typeof bindingSchema> & { receiptId: string } {
  if (receipt.kind !== 'autonomy_path') {
    throw invalidReceipt(
      'The audit needs the autonomy_path receipt of POST /api/partnerbot/compile-broker-path or /broker-mcp-instructions',
      [
        {
          code: 'RECEIPT_KIND',
          message: `expected kind autonomy_path, got ${typeof receipt.kind === 'string' ? receipt.kind : typeof receipt.kind}`,
          path: 'receipt.kind',
        },
      ],
    );
  }
  const verification = verifyArtifactReceipt(receipt);
  if (!verification.ok) {
    throw invalidReceipt(
      'The receipt does not verify: its binding or its id was altered, so its fuses cannot be trusted',
      verification.mismatches.map((m) => ({
        code: 'RECEIPT_MISMATCH',
        message: `${m} does not match its recomputed value`,
        path: `receipt.${m}`,
      })),
    );
  }
  const parsed = bindingSchema.safeParse(receipt.binding);
  if (!parsed.success) {
    throw invalidReceipt(
      'The receipt verifies but its binding is not a broker path binding',
      parsed.error.issues.map((i) => ({ code: 'BINDING_SHAPE', message: i.message, path: `receipt.binding.${i.path.join('.')}` })),
    );
  }
  return { ...parsed.data, receiptId: receipt.receiptId as string };
}

export interface AuditDeps {
  /** The answer's clock (`nowIso`). */
  now: Date;
  /** The server's clock: a reported time ahead of it cannot have happened yet. */
  serverTime: ServerTime;
}

export function postRunAudit(receipt: Record<string, unknown>, activity: readonly ReportedActivity[], deps: AuditDeps) {
  const binding = bindingOfReceipt(receipt);
  const limit = (kind: FuseKind) => {
    const f = binding.fuses.find((x) => x.kind === kind);
    return f ? { present: true as const, limit: f.limit } : { present: false as const, limit: null };
  };
  const symbols = new Set(binding.symbols.map((s) => s.brokerTicker.toUpperCase()));
  const orderCap = limit('maxSingleOrderNotional');
  const runCap = limit('maxTotalNotional');
  const turnover = limit('maxDailyTurnover');
  const session = limit('marketHoursOnly');
  const noOptions = limit('noOptions');
  const noMargin = limit('noMargin');
  const human = limit('humanConfirmation');
  const dailyCapUsd = turnover.present && turnover.limit !== null ? (binding.totalNotionalUsd * turnover.limit) / 10_000 : null;

  // Activity in time order; the running totals (run and day) follow it.
  const order = activity
    .map((a, index) => ({ a, index, at: parseIsoInstant(a.at)! }))
    .sort((x, y) => x.at.getTime() - y.at.getTime() || x.index - y.index);
  let runTotal = 0;
  const byDay = new Map<string, number>();
  const results = new Map<number, { checks: CheckResult[]; note: QuotedReport | null }>();

  for (const { a, index, at } of order) {
    const checks: CheckResult[] = [];
    const add = (check: AuditCheck, breach: boolean | null, detail: string) =>
      checks.push({ check, result: breach === null ? 'not_applicable' : breach ? 'breach' : 'pass', detail });
    const counts = !a.simulated;
    const day = at.toISOString().slice(0, 10);
    if (counts) {
      runTotal += a.notionalUsd;
      byDay.set(day, (byDay.get(day) ?? 0) + a.notionalUsd);
    }
    const sym = a.symbol.trim().toUpperCase();
    add(
      'symbol_in_coil',
      !symbols.has(sym),
      symbols.has(sym) ? `${sym} is in the Coil` : `${sym} is not one of the Coil's symbols (${[...symbols].join(', ')})`,
    );
    add(
      'order_notional_cap',
      orderCap.limit === null ? null : a.notionalUsd > orderCap.limit,
      orderCap.limit === null
        ? 'no maxSingleOrderNotional fuse in force'
        : `${a.notionalUsd} USD against the per-order cap of ${orderCap.limit} USD`,
    );
    add(
      'run_notional_cap',
      !counts || runCap.limit === null ? null : runTotal > runCap.limit,
      !counts
        ? 'simulated: not counted'
        : runCap.limit === null
          ? 'no maxTotalNotional fuse in force'
          : `${cents(runTotal)} USD reported so far in the run against the cap of ${runCap.limit} USD`,
    );
    add(
      'daily_turnover',
      !counts || dailyCapUsd === null ? null : byDay.get(day)! > dailyCapUsd,
      !counts
        ? 'simulated: not counted'
        : dailyCapUsd === null
          ? 'no maxDailyTurnover fuse in force'
          : `${cents(byDay.get(day)!)} USD reported on ${day} (UTC) against ${turnover.limit} bps of ${binding.totalNotionalUsd} USD = ${cents(dailyCapUsd)} USD`,
    );
    const inSession = isWithinMarketSession(at);
    add(
      'market_session',
      session.present ? !inSession : null,
      session.present
        ? `${at.toISOString()} is ${inSession ? 'inside' : 'outside'} the ${MARKET_SESSION.id} session`
        : 'no marketHoursOnly fuse in force',
    );
    const option = a.instrument === 'option' || OPTION_SIDES.has(a.side);
    add(
      'no_options',
      noOptions.present ? option : null,
      noOptions.present
        ? option
          ? `side ${a.side}${a.instrument ? `, instrument ${a.instrument}` : ''} is an option order`
          : 'not an option order'
        : 'no noOptions fuse in force',
    );
    const margin = a.margin === true || MARGIN_SIDES.has(a.side);
    add(
      'no_margin',
      noMargin.present ? margin : null,
      noMargin.present
        ? margin
          ? `side ${a.side}${a.margin ? ', margin' : ''} needs margin`
          : 'no margin reported'
        : 'no noMargin fuse in force',
    );
    const needsConfirmation = human.present && human.limit !== null && a.notionalUsd > human.limit;
    add(
      'human_confirmation',
      !counts || !human.present || human.limit === null ? null : needsConfirmation && a.humanConfirmed !== true,
      !counts
        ? 'simulated: nothing to confirm'
        : !human.present || human.limit === null
          ? 'no humanConfirmation fuse in force'
          : needsConfirmation
            ? `above ${human.limit} USD: the user's confirmation is ${a.humanConfirmed === true ? 'reported' : 'not reported'}`
            : `at or below ${human.limit} USD: no confirmation needed`,
    );
    add(
      'mode_allows_orders',
      a.simulated ? false : binding.autonomyMode !== 'live_candidate',
      a.simulated
        ? 'simulated: allowed in every mode'
        : `the path was compiled for ${binding.autonomyMode}${binding.autonomyMode === 'live_candidate' ? '' : ', which allows no submitted order'}`,
    );
    const future = at.getTime() > deps.serverTime.getTime() + FUTURE_SKEW_MS;
    add('time_not_in_future', future, future ? 'reported for a time that has not come yet' : 'not in the future');
    results.set(index, { checks, note: a.note === undefined ? null : quoteReportedText(a.note, 'the agent') });
  }

  const items = activity.map((a, index) => {
    const r = results.get(index)!;
    return {
      index,
      status: 'reported_unverified' as const,
      symbol: a.symbol.trim().toUpperCase(),
      side: a.side,
      notionalUsd: a.notionalUsd,
      at: parseIsoInstant(a.at)!.toISOString(),
      brokerOrderId: a.brokerOrderId ?? null,
      simulated: a.simulated === true,
      checks: r.checks,
      breaches: r.checks.filter((c) => c.result === 'breach').map((c) => BREACH_CODE[c.check]),
      reportedNote: r.note ? { quoted: r.note.quoted, claimsExecution: r.note.claimsExecution } : null,
    };
  });
  const breaches = items.flatMap((item) =>
    item.checks
      .filter((c) => c.result === 'breach')
      .map((c) => ({
        item: item.index,
        code: BREACH_CODE[c.check],
        message: `Reported item ${item.index} (${item.symbol}, unconfirmed): ${c.detail}`,
      })),
  );
  const report = {
    auditVersion: POST_RUN_AUDIT_VERSION,
    pathReceiptId: binding.receiptId,
    coilId: binding.coilId,
    manifestHash: binding.manifestHash,
    autonomyMode: binding.autonomyMode,
    evidence: 'reported_unverified' as const,
    items,
    totals: {
      reportedNotionalUsd: cents(activity.filter((a) => !a.simulated).reduce((n, a) => n + a.notionalUsd, 0)),
      byDay: [...byDay.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, usd]) => ({ day, notionalUsd: cents(usd), turnoverBps: Math.round((usd / binding.totalNotionalUsd) * 10_000) })),
    },
    executionClaimsQuoted: items.filter((i) => i.reportedNote?.claimsExecution).length,
    verdict: {
      status: breaches.length ? ('breaches_found' as const) : ('no_breach_found' as const),
      breachCount: breaches.length,
      breaches,
      meaning: breaches.length
        ? "The reported activity breaks the fuses where named. It is the agent's report: nothing here is verified against the broker."
        : 'No reported item breaks a fuse. That is a statement about the report, which is unverified, not about the broker account.',
    },
    disclaimer:
      "Every item is the agent's report (reported_unverified). This service has no access to the broker account and confirms no order; the broker's own records are the only proof.",
  };
  return { report, receipt: buildArtifactReceipt('post_run_audit', report, deps.now, binding.manifestHash) };
}
