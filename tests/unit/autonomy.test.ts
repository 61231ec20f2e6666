/**
 * The autonomy domain: fuses that may tighten and never widen, the mandatory list, modes
 * bounded by the Coil, the acknowledgment against the server clock, symbol spaces, the
 * broker path and the post-run audit's labelling of reported activity.
 */
import { describe, expect, it } from 'vitest';
import { coilSchema } from '../../src/lib/server/coil/manifest';
import { REQUIRED_AUTONOMY_FUSES, REQUIRED_CAPSULE_FUSES, widensFuse } from '../../src/lib/server/coil/fuse-catalogue';
import { checkLiveAutonomyAck, LIVE_ACK_MAX_AGE_SECONDS } from '../../src/lib/server/autonomy/modes';
import { validateAutonomy } from '../../src/lib/server/autonomy/validate';
import { compileBrokerPath, generateBrokerMcpInstructions, generatePartnerbotCommandPack } from '../../src/lib/server/autonomy/broker-path';
import { postRunAudit, type ReportedActivity } from '../../src/lib/server/autonomy/post-run-audit';
import { findExecutionClaim, scanForExecutionClaims } from '../../src/lib/server/guards/output-guard';
import { quoteReportedText } from '../../src/lib/server/guards/reported-text';
import { isWithinMarketSession } from '../../src/lib/server/registry/market-session';
import { looksLikeBrokerTicker, looksLikeChainAddress } from '../../src/lib/server/registry/symbol-space';
import { verifyArtifactReceipt } from '../../src/lib/server/receipts/artifact';
import { ADDR, autonomyCoil, fullAck } from '../support/autonomy';
import { rawCoil } from '../support/coils';
import { svcError } from '../support/svc-error';
import { serverTimeAt } from '../support/clocks';

const SERVER = serverTimeAt('2026-03-04T15:00:00Z');
const NOW = new Date('2026-01-01T00:00:00Z');
const coil = (o: Parameters<typeof autonomyCoil>[0] = {}) => coilSchema.parse(autonomyCoil(o));
const deps = { now: NOW, serverTime: SERVER, stockNotionalCapUsd: 500 };
const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

describe('mandatory autonomy fuses', () => {
  it('include every capsule-required fuse, plus the run notional, market hours and the stop conditions', () => {
    for (const kind of REQUIRED_CAPSULE_FUSES) expect(REQUIRED_AUTONOMY_FUSES).toContain(kind);
    for (const kind of ['maxTotalNotional', 'marketHoursOnly', 'stopIfOracleUnhealthy', 'stopIfReceiptMismatch'] as const)
      expect(REQUIRED_AUTONOMY_FUSES).toContain(kind);
  });

  it('a Coil with all of them is ready in paper mode; without them each is missing, by name, with no default', () => {
    expect(validateAutonomy(coil(), {}, SERVER).gate).toMatchObject({ verdict: 'ready', mode: 'paper', missing: [] });
    const bare = validateAutonomy(coilSchema.parse(rawCoil()), {}, SERVER);
    expect(bare.gate.verdict).toBe('blocked');
    const missing = bare.issues.filter((i) => i.code === 'AUTONOMY_FUSE_MISSING').map((i) => /^(\w+) is/.exec(i.message)![1]);
    // oracleStaleness and canonicalAssetsOnly are implied by the Coil's risk fields.
    expect(missing.sort()).toEqual(REQUIRED_AUTONOMY_FUSES.filter((k) => k !== 'oracleStaleness' && k !== 'canonicalAssetsOnly').sort());
    expect(bare.gate.missing).toContain('fuse:marketHoursOnly');
    expect(bare.fuses.map((f) => f.kind)).toEqual(['oracleStaleness', 'canonicalAssetsOnly']);
  });

  it('added fuses fill what the Coil lacks', () => {
    const added = validateAutonomy(
      coilSchema.parse(rawCoil({ executionMode: 'paper_only' })),
      { fuses: coilSchema.parse(autonomyCoil()).fuses },
      SERVER,
    );
    expect(added.gate.verdict).toBe('ready');
    expect(added.fuses.find((f) => f.kind === 'maxSlippage')).toMatchObject({ limit: 50, source: 'fuses[3]' });
  });
});

describe('fuse widening', () => {
  it('a larger limit widens every limited kind; flags and nulls never do', () => {
    expect(widensFuse('maxSlippage', 60, 50)).toBe(true);
    expect(widensFuse('maxSlippage', 40, 50)).toBe(false);
    expect(widensFuse('humanConfirmation', 10, 0)).toBe(true);
    expect(widensFuse('oracleStaleness', 7200, 3600)).toBe(true);
    expect(widensFuse('noOptions', null, null)).toBe(false);
  });

  it('an added fuse looser than the Coil is an issue, and the Coil value stays in force (never widened, never clamped)', () => {
    const result = validateAutonomy(
      coil(),
      {
        fuses: [
          { kind: 'maxSingleOrderNotional', limit: 400 },
          { kind: 'maxSlippage', limit: 30 },
        ],
      },
      SERVER,
    );
    expect(codes(result.issues)).toEqual(['AUTONOMY_FUSE_WIDENED']);
    expect(result.issues[0]).toMatchObject({ severity: 'error', path: 'fuses[0].limit' });
    expect(result.gate).toMatchObject({ verdict: 'blocked', missing: ['fuse_not_widened:maxSingleOrderNotional'] });
    expect(result.fuses.find((f) => f.kind === 'maxSingleOrderNotional')).toMatchObject({ limit: 250, source: 'coil.fuses[2]' });
    // A tighter fuse is taken as given.
    expect(result.fuses.find((f) => f.kind === 'maxSlippage')).toMatchObject({ limit: 30, source: 'fuses[1]' });
  });

  it('an out-of-bounds added fuse is FUSE_BOUNDS and is not taken; a repeated kind is DUPLICATE_FUSE', () => {
    const result = validateAutonomy(
      coil(),
      { fuses: [{ kind: 'maxSlippage', limit: 900 }, { kind: 'noMargin' }, { kind: 'noMargin' }] },
      SERVER,
    );
    expect(codes(result.issues)).toEqual(['FUSE_BOUNDS', 'DUPLICATE_FUSE']);
    expect(result.fuses.find((f) => f.kind === 'maxSlippage')!.limit).toBe(50);
  });

  it('a per-order cap above the run cap conflicts', () => {
    const result = validateAutonomy(
      coil({ fuses: [...autonomyCoil().fuses!.filter((f) => f.kind !== 'maxTotalNotional'), { kind: 'maxTotalNotional', limit: 200 }] }),
      {},
      SERVER,
    );
    expect(codes(result.issues)).toEqual(['AUTONOMY_FUSE_CONFLICT']);
  });
});

describe('modes and the acknowledgment', () => {
  it("never goes further than the Coil's execution mode", () => {
    const human = coil({ executionMode: 'human_confirm' });
    expect(validateAutonomy(human, { autonomyMode: 'preview' }, SERVER).gate.verdict).toBe('ready');
    const live = validateAutonomy(human, { autonomyMode: 'live_candidate', liveAutonomyAck: fullAck(SERVER) }, SERVER);
    expect(codes(live.issues)).toEqual(['AUTONOMY_MODE_ABOVE_EXECUTION_MODE']);
  });

  it('live_candidate needs the acknowledgment; no mode string stands in for it', () => {
    expect(codes(validateAutonomy(coil(), { autonomyMode: 'live_candidate' }, SERVER).issues)).toEqual(['LIVE_ACK_REQUIRED']);
    expect(validateAutonomy(coil(), { autonomyMode: 'live_candidate', liveAutonomyAck: fullAck(SERVER) }, SERVER).gate).toMatchObject({
      verdict: 'ready',
      mode: 'live_candidate',
    });
  });

  it('each statement must be literally true; the record has nothing else', () => {
    const ack = { ...fullAck(SERVER), userCanRevokeAtAnyTime: 'true', userKeepsOwnKeysAndCredentials: 1, extra: true };
    const issues = checkLiveAutonomyAck(ack, SERVER);
    expect(issues.map((i) => `${i.code}@${i.path}`)).toEqual([
      'LIVE_ACK_STATEMENT_NOT_TRUE@liveAutonomyAck.userKeepsOwnKeysAndCredentials',
      'LIVE_ACK_STATEMENT_NOT_TRUE@liveAutonomyAck.userCanRevokeAtAnyTime',
      'LIVE_ACK_UNKNOWN_FIELD@liveAutonomyAck.extra',
    ]);
  });

  it('acknowledgedAt is checked against the server clock: ahead of it, or older than a day, is refused', () => {
    const at = (ms: number) => fullAck(new Date(SERVER.getTime() + ms));
    expect(checkLiveAutonomyAck(at(0), SERVER)).toEqual([]);
    expect(checkLiveAutonomyAck(at(10 * 60_000), SERVER).map((i) => i.code)).toEqual(['LIVE_ACK_IN_FUTURE']);
    expect(checkLiveAutonomyAck(at(-(LIVE_ACK_MAX_AGE_SECONDS + 1) * 1000), SERVER).map((i) => i.code)).toEqual(['LIVE_ACK_EXPIRED']);
    expect(checkLiveAutonomyAck({ ...fullAck(SERVER), acknowledgedAt: '2026-03-04' }, SERVER).map((i) => i.code)).toEqual([
      'LIVE_ACK_TIMESTAMP_INVALID',
    ]);
  });

  it('an acknowledgment sent outside live_candidate is a warning that grants nothing', () => {
    const result = validateAutonomy(coil(), { autonomyMode: 'preview', liveAutonomyAck: { anything: 1 } }, SERVER);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'LIVE_ACK_NOT_USED', severity: 'warning' })]);
    expect(result.gate.verdict).toBe('ready');
  });

  it('WETH or an unknown address is not a tradable asset on the path', () => {
    const weth = coil({
      mode: 'readiness-check',
      assets: [{ ticker: 'WETH', tokenAddress: '0x0Bd7D308f8E1639FAb988df18A8011f41EAcAD73', weightBps: 10_000, rationale: 'x' }],
      fuses: [...autonomyCoil().fuses!.filter((f) => f.kind !== 'singleAssetCap')],
    });
    expect(codes(validateAutonomy(weth, {}, SERVER).issues)).toContain('AUTONOMY_ASSET_NOT_TRADABLE');
  });
});

describe('symbol spaces', () => {
  it('tell a chain address from a broker ticker', () => {
    expect(looksLikeChainAddress(ADDR.NVDA)).toBe(true);
    expect(looksLikeChainAddress('0xd0601CE1')).toBe(true);
    expect(looksLikeChainAddress('NVDA')).toBe(false);
    expect(looksLikeBrokerTicker('NVDA')).toBe(true);
    expect(looksLikeBrokerTicker('$nvda')).toBe(true);
    expect(looksLikeBrokerTicker('BRK.B')).toBe(true);
    expect(looksLikeBrokerTicker(ADDR.NVDA)).toBe(false);
  });

  it('a chain address as a Coil ticker, or a ticker as its token address, is SYMBOL_SPACE_CONFUSION', () => {
    const asTicker = coilSchema.safeParse(
      rawCoil({ assets: [{ ticker: ADDR.NVDA, tokenAddress: ADDR.NVDA, weightBps: 10_000, rationale: 'x' }] }),
    );
    expect(asTicker.success).toBe(false);
    expect(asTicker.error!.issues[0]).toMatchObject({ params: { code: 'SYMBOL_SPACE_CONFUSION' }, path: ['assets', 0, 'ticker'] });
    const asAddress = coilSchema.safeParse(
      rawCoil({ assets: [{ ticker: 'NVDA', tokenAddress: 'NVDA', weightBps: 10_000, rationale: 'x' }] }),
    );
    expect(asAddress.error!.issues[0]).toMatchObject({ params: { code: 'SYMBOL_SPACE_CONFUSION' }, path: ['assets', 0, 'tokenAddress'] });
  });
});

describe('the broker path', () => {
  it('refuses a blocked gate with every blocking issue, and an invalid Coil as COIL_INVALID', () => {
    const blocked = svcError(() => compileBrokerPath(coilSchema.parse(rawCoil()), {}, { ...deps, serviceOrigin: 'http://svc.test' }));
    expect(blocked.code).toBe('AUTONOMY_GATE_BLOCKED');
    expect(blocked.issues.every((i) => i.code === 'AUTONOMY_FUSE_MISSING')).toBe(true);
    const invalid = svcError(() =>
      generatePartnerbotCommandPack(
        coil({ assets: [{ ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 9000, rationale: 'x' }] }),
        {},
        deps,
      ),
    );
    expect(invalid.code).toBe('COIL_INVALID');
  });

  it('builds one "on broker" command per token from the run notional, each a stock-lane intent but for the acknowledgments', () => {
    const { commandPack } = generatePartnerbotCommandPack(coil(), {}, deps);
    expect(commandPack.commands.map((c) => [c.brokerTicker, c.notionalUsd, c.commandPack.social])).toEqual([
      ['NVDA', 200, '@partnerbot buy $200 of NVDA on broker'],
      ['AMD', 150, '@partnerbot buy $150 of AMD on broker'],
      ['MSFT', 150, '@partnerbot buy $150 of MSFT on broker'],
    ]);
    for (const c of commandPack.commands) {
      expect(c.commandPack.cli.endsWith('on broker"')).toBe(true);
      expect(c.intentTemplate).not.toHaveProperty('userAcknowledgedPartnerExecutesTrade');
    }
  });

  it('refuses an order above the single-order fuse, and one above the stock lane cap, rather than lowering it', () => {
    const tight = svcError(() => generatePartnerbotCommandPack(coil(), { fuses: [{ kind: 'maxSingleOrderNotional', limit: 160 }] }, deps));
    expect(tight.code).toBe('COMMAND_PACK_INVALID');
    expect(tight.issues).toEqual([expect.objectContaining({ code: 'ORDER_ABOVE_SINGLE_ORDER_FUSE', path: 'commands[0]' })]);
    const capped = svcError(() => generatePartnerbotCommandPack(coil(), {}, { ...deps, stockNotionalCapUsd: 150 }));
    expect(capped.issues.map((i) => `${i.code}@${i.path}`)).toContain('NOTIONAL_ABOVE_CAP@commands[0].intent.maxNotionalUsd');
  });

  it('names broker tickers only in the instruction pack, and seals the fuses in a self-contained receipt', () => {
    const { instructions, receipt } = generateBrokerMcpInstructions(coil(), {}, deps);
    expect(instructions.symbols.map((s) => s.brokerTicker)).toEqual(['NVDA', 'AMD', 'MSFT']);
    expect(JSON.stringify(instructions.symbols)).not.toMatch(/0x/);
    expect(scanForExecutionClaims(instructions)).toBeUndefined();
    expect(receipt.kind).toBe('autonomy_path');
    expect(receipt.binding.fuses.find((f) => f.kind === 'maxSingleOrderNotional')!.limit).toBe(250);
    expect(verifyArtifactReceipt(receipt as unknown as Record<string, unknown>).ok).toBe(true);
    // The whole path answers the same receipt for the same request.
    expect(compileBrokerPath(coil(), {}, { ...deps, serviceOrigin: 'http://svc.test' }).receipt).toEqual(receipt);
  });
});

describe('the post-run audit', () => {
  const { receipt } = generateBrokerMcpInstructions(coil(), { autonomyMode: 'live_candidate', liveAutonomyAck: fullAck(SERVER) }, deps);
  const run = (activity: ReportedActivity[]) =>
    postRunAudit(receipt as unknown as Record<string, unknown>, activity, { now: NOW, serverTime: SERVER });
  // 2026-03-03 is a Tuesday: inside the 24/5 session at 15:00 UTC.
  const item = (o: Partial<ReportedActivity> = {}): ReportedActivity => ({
    symbol: 'NVDA',
    side: 'buy',
    notionalUsd: 50,
    at: '2026-03-03T15:00:00Z',
    ...o,
  });

  it('labels every item reported_unverified and finds no breach in a clean report', () => {
    const { report } = run([item(), item({ symbol: 'amd', notionalUsd: 40 })]);
    expect(report.items.map((i) => i.status)).toEqual(['reported_unverified', 'reported_unverified']);
    expect(report.verdict).toMatchObject({ status: 'no_breach_found', breachCount: 0 });
    expect(JSON.stringify(report)).not.toMatch(/"(filled|executed)"/);
  });

  it('names every breach with its item', () => {
    const { report } = run([
      item({ symbol: 'AAPL' }),
      item({ notionalUsd: 260, humanConfirmed: true }),
      item({ side: 'buy_to_open' }),
      item({ side: 'sell_short' }),
      item({ notionalUsd: 150 }),
      item({ at: '2026-03-07T15:00:00Z' }),
      item({ at: '2026-03-05T16:00:00Z' }),
    ]);
    const byItem = report.items.map((i) => i.breaches);
    expect(byItem[0]).toContain('SYMBOL_NOT_IN_COIL');
    expect(byItem[1]).toContain('ORDER_NOTIONAL_ABOVE_CAP');
    expect(byItem[2]).toContain('OPTIONS_NOT_ALLOWED');
    expect(byItem[3]).toContain('MARGIN_NOT_ALLOWED');
    expect(byItem[4]).toContain('HUMAN_CONFIRMATION_MISSING');
    expect(byItem[5]).toContain('OUTSIDE_MARKET_SESSION');
    expect(byItem[6]).toContain('REPORTED_TIME_IN_FUTURE');
    expect(byItem[6]).not.toContain('OUTSIDE_MARKET_SESSION');
    expect(byItem[5]).toContain('RUN_NOTIONAL_ABOVE_CAP');
    expect(report.verdict.breachCount).toBe(report.verdict.breaches.length);
    expect(new Set(report.verdict.breaches.map((b) => b.item))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  });

  it('counts the run total and the daily turnover in time order, simulated orders excluded', () => {
    const { report } = run([
      item({ notionalUsd: 90, at: '2026-03-03T16:00:00Z' }),
      item({ notionalUsd: 20, at: '2026-03-03T15:00:00Z' }),
      item({ notionalUsd: 200, simulated: true }),
    ]);
    // 20 then 90: the day reaches 110 USD, above 2000 bps of 500 USD.
    expect(report.items[0]!.breaches).toEqual(['DAILY_TURNOVER_ABOVE_CAP']);
    expect(report.items[1]!.breaches).toEqual([]);
    expect(report.items[2]!.checks.find((c) => c.check === 'daily_turnover')!.result).toBe('not_applicable');
    expect(report.totals.byDay).toEqual([{ day: '2026-03-03', notionalUsd: 110, turnoverBps: 2200 }]);
  });

  it('quotes a note that claims an execution as an unconfirmed claim, never relaying it as a fact', () => {
    const { report } = run([item({ note: 'I bought 2 NVDA. The order was filled at market.\nAll good' })]);
    const note = report.items[0]!.reportedNote!;
    expect(note.claimsExecution).toBe(true);
    expect(note.quoted).toEqual([
      'Unconfirmed, in the agent\'s words: "I bought 2 NVDA."',
      'Unconfirmed, in the agent\'s words: "The order was filled at market."',
      'Unconfirmed, in the agent\'s words: "All good"',
    ]);
    expect(findExecutionClaim('I bought 2 NVDA.')).toBeDefined();
    expect(scanForExecutionClaims(report)).toBeUndefined();
    expect(report.executionClaimsQuoted).toBe(1);
    expect(quoteReportedText('Looked at the chart', 'the agent').claimsExecution).toBe(false);
  });

  it('in a path compiled for paper, any submitted order is a breach; simulated ones are not', () => {
    const paper = generateBrokerMcpInstructions(coil(), {}, deps).receipt as unknown as Record<string, unknown>;
    const { report } = postRunAudit(paper, [item(), item({ simulated: true })], { now: NOW, serverTime: SERVER });
    expect(report.items.map((i) => i.breaches)).toEqual([['ORDER_OUTSIDE_LIVE_CANDIDATE'], []]);
  });

  it('refuses a receipt of another kind or one whose binding was altered', () => {
    expect(svcError(() => postRunAudit({ ...receipt, kind: 'post_run_audit' }, [], { now: NOW, serverTime: SERVER })).code).toBe(
      'AUTONOMY_RECEIPT_INVALID',
    );
    const widened = {
      ...receipt,
      binding: {
        ...receipt.binding,
        fuses: receipt.binding.fuses.map((f) => (f.kind === 'maxSingleOrderNotional' ? { ...f, limit: 10_000 } : f)),
      },
    };
    const error = svcError(() => postRunAudit(widened, [], { now: NOW, serverTime: SERVER }));
    expect(error.code).toBe('AUTONOMY_RECEIPT_INVALID');
    expect(error.issues.map((i) => i.path)).toEqual(['receipt.subjectHash', 'receipt.receiptId']);
  });
});

describe('the market session (24/5, New York time)', () => {
  it('opens Sunday 20:00 and closes Friday 20:00, daylight saving included', () => {
    expect(isWithinMarketSession(new Date('2026-01-12T00:59:00Z'))).toBe(false); // Sunday 19:59 EST
    expect(isWithinMarketSession(new Date('2026-01-12T01:00:00Z'))).toBe(true); // Sunday 20:00 EST
    expect(isWithinMarketSession(new Date('2026-01-14T08:00:00Z'))).toBe(true); // Wednesday 03:00 EST
    expect(isWithinMarketSession(new Date('2026-07-10T23:59:00Z'))).toBe(true); // Friday 19:59 EDT
    expect(isWithinMarketSession(new Date('2026-07-11T00:00:00Z'))).toBe(false); // Friday 20:00 EDT
    expect(isWithinMarketSession(new Date('2026-07-11T16:00:00Z'))).toBe(false); // Saturday
  });
});
