/**
 * The autonomy path in process (tRPC's server-side caller): validate-autonomy,
 * compile-broker-path, generate-command-pack, broker-mcp-instructions and post-run-audit,
 * their refusals, symbol-space confusion, the acknowledgment against the server clock, and
 * receipts that the receipt and Coil verifiers recompute. What crosses HTTP (stamped error
 * envelopes, the share-card image) is in tests/api/autonomy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ADDR, AUTONOMY_FUSES, autonomyCoil, fullAck } from '../support/autonomy';
import { inProcess } from '../support/caller';
import { rawCoil } from '../support/coils';
import { withoutSignatures } from '../support/signatures';

const server = inProcess();
const lowCap = inProcess({ env: { PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD: '100' } });
const NOW = '2026-01-01T00:00:00.000Z';

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);
const liveOptions = () => ({ autonomyMode: 'live_candidate', liveAutonomyAck: fullAck(new Date()) });
/** A Tuesday inside the 24/5 session, in the past of any server clock. */
const TUESDAY = '2026-03-03T15:00:00Z';

describe('validate-autonomy', () => {
  it('answers 200 with the issues, the gate and the fuse set in force; ready in paper mode with every mandatory fuse', async () => {
    const res = await server.call('autonomy.validateAutonomy', { coil: autonomyCoil(), nowIso: NOW });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      generatedAt: NOW,
      issues: [],
      gate: { verdict: 'ready', mode: 'paper', missing: [] },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(res.json.receipt).toMatchObject({
      kind: 'autonomy_validation',
      anchoring: 'paper',
      liveOrderSent: false,
      receiptId: expect.stringMatching(/^arcpt_[0-9a-f]{32}$/),
    });
    const schema = (await server.call('partnerbot.schema')).json;
    expect(res.json.fuses.map((f: { kind: string }) => f.kind).sort()).toEqual(
      schema.mandatoryFuses.map((f: { kind: string }) => f.kind).sort(),
    );
  });

  it('an invalid Coil and missing fuses are issues of a 200 answer, never an error status', async () => {
    const res = await server.call('autonomy.validateAutonomy', {
      coil: rawCoil({ assets: [{ ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 9000, rationale: 'x' }] }),
    });
    expect(res.status).toBe(200);
    expect(codes(res.json.issues)).toContain('WEIGHTS_SUM');
    expect(codes(res.json.issues)).toContain('AUTONOMY_FUSE_MISSING');
    expect(res.json.gate.verdict).toBe('blocked');
    expect(res.json.gate.missing).toEqual(expect.arrayContaining(['coil_valid', 'fuse:marketHoursOnly', 'fuse:noMargin']));
  });

  it('a widened fuse is an issue and the Coil value stays in force', async () => {
    const res = await server.call('autonomy.validateAutonomy', { coil: autonomyCoil(), fuses: [{ kind: 'maxSlippage', limit: 400 }] });
    expect(res.json.issues).toEqual([expect.objectContaining({ code: 'AUTONOMY_FUSE_WIDENED', path: 'fuses[0].limit' })]);
    expect(res.json.fuses.find((f: { kind: string }) => f.kind === 'maxSlippage')).toMatchObject({ limit: 50, source: 'coil.fuses[3]' });
  });

  it('live_candidate needs the acknowledgment; a stale one is checked against the server clock, whatever nowIso says', async () => {
    const none = await server.call('autonomy.validateAutonomy', { coil: autonomyCoil(), autonomyMode: 'live_candidate' });
    expect(codes(none.json.issues)).toEqual(['LIVE_ACK_REQUIRED']);
    const fresh = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil(),
      ...liveOptions(),
      nowIso: '2020-01-01T00:00:00Z',
    });
    expect(fresh.json.gate).toMatchObject({ verdict: 'ready', mode: 'live_candidate' });
    // Pinning the answer's clock to the acknowledgment's time does not make an old one fresh.
    const old = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil(),
      autonomyMode: 'live_candidate',
      liveAutonomyAck: fullAck('2020-01-01T00:00:00Z'),
      nowIso: '2020-01-01T00:00:05Z',
    });
    expect(codes(old.json.issues)).toEqual(['LIVE_ACK_EXPIRED']);
    const partial = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil(),
      autonomyMode: 'live_candidate',
      liveAutonomyAck: { ...fullAck(new Date()), userCanRevokeAtAnyTime: 'true' },
    });
    expect(partial.json.issues).toEqual([
      expect.objectContaining({ code: 'LIVE_ACK_STATEMENT_NOT_TRUE', path: 'liveAutonomyAck.userCanRevokeAtAnyTime' }),
    ]);
    const extra = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil(),
      autonomyMode: 'live_candidate',
      liveAutonomyAck: { ...fullAck(new Date()), userAlsoAgrees: true },
    });
    expect(extra.json.issues).toEqual([
      expect.objectContaining({ code: 'LIVE_ACK_UNKNOWN_FIELD', path: 'liveAutonomyAck.userAlsoAgrees' }),
    ]);
    // A key that is a sentence is the caller's text: it is refused without being repeated.
    const sentenceKey = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil(),
      autonomyMode: 'live_candidate',
      liveAutonomyAck: { ...fullAck(new Date()), 'we sold it all': true },
    });
    expect(sentenceKey.status).toBe(200);
    expect(sentenceKey.json.issues).toEqual([expect.objectContaining({ code: 'LIVE_ACK_UNKNOWN_FIELD', path: 'liveAutonomyAck' })]);
    expect(sentenceKey.text).not.toContain('we sold');
    const unknownKey = await server.call('autonomy.postRunAudit', {
      receipt: { kind: 'autonomy_path' },
      activity: [{ symbol: 'NVDA', side: 'buy', notionalUsd: 1, at: TUESDAY, 'I sold everything': 1 }],
    });
    expect([unknownKey.status, unknownKey.json.error.code]).toEqual([400, 'ACTIVITY_SHAPE']);
    expect(unknownKey.text).not.toContain('I sold');
  });

  it('a Coil whose execution mode wants a human on every order cannot become live_candidate', async () => {
    const res = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil({ executionMode: 'human_confirm' }),
      ...liveOptions(),
    });
    expect(codes(res.json.issues)).toEqual(['AUTONOMY_MODE_ABOVE_EXECUTION_MODE']);
  });

  it('a chain address where a broker ticker belongs (or the reverse) is 400 SYMBOL_SPACE_CONFUSION', async () => {
    const asTicker = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil({ assets: [{ ticker: ADDR.NVDA, tokenAddress: ADDR.NVDA, weightBps: 10_000, rationale: 'x' }] }),
    });
    expect(asTicker.status).toBe(400);
    expect(asTicker.json.error.code).toBe('SYMBOL_SPACE_CONFUSION');
    expect(asTicker.json.error.issues[0]).toMatchObject({ code: 'SYMBOL_SPACE_CONFUSION', path: 'coil.assets.0.ticker' });
    const asAddress = await server.call('autonomy.validateAutonomy', {
      coil: autonomyCoil({ assets: [{ ticker: 'NVDA', tokenAddress: 'NVDA', weightBps: 10_000, rationale: 'x' }] }),
    });
    expect(asAddress.json.error.code).toBe('SYMBOL_SPACE_CONFUSION');
    // The tools refuse the same Coil the same way.
    expect(
      (
        await server.call('tools.validateCoil', {
          coil: autonomyCoil({ assets: [{ ticker: 'NVDA', tokenAddress: 'NVDA', weightBps: 10_000, rationale: 'x' }] }),
        })
      ).json.error.code,
    ).toBe('SYMBOL_SPACE_CONFUSION');
  });

  it('refuses a value that is not a Coil (400 COIL_SHAPE) and a bad nowIso (400 NOW_ISO_INVALID)', async () => {
    const shape = await server.call('autonomy.validateAutonomy', { coil: { slug: 'x' } });
    expect(shape.status).toBe(400);
    expect(shape.json).toMatchObject({ error: { code: 'COIL_SHAPE' } });
    const mode = await server.call('autonomy.validateAutonomy', { coil: autonomyCoil(), autonomyMode: 'live' });
    expect(mode.status).toBe(400);
    const clock = await server.call('autonomy.validateAutonomy', { coil: autonomyCoil(), nowIso: 'tomorrow' });
    expect(clock.json.error.code).toBe('NOW_ISO_INVALID');
  });
});

describe('compile-broker-path', () => {
  it('answers the whole path: command pack, instructions, paper runbook, gate, live readiness, receipts, share card', async () => {
    const res = await server.call('autonomy.compileBrokerPath', { coil: autonomyCoil(), nowIso: NOW });
    expect(res.status).toBe(200);
    const j = res.json;
    expect(j).toMatchObject({
      autonomyMode: 'paper',
      gate: { verdict: 'ready' },
      liveReadiness: { verdict: 'blocked', missing: ['live_autonomy_ack'] },
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    expect(j.commandPack.commands.map((c: { commandPack: { social: string } }) => c.commandPack.social)).toEqual([
      '@partnerbot buy $200 of NVDA on broker',
      '@partnerbot buy $150 of AMD on broker',
      '@partnerbot buy $150 of MSFT on broker',
    ]);
    expect(j.commandPack.commands[0].commandPack.agentApi).toMatchObject({
      url: '{partner_api_url}/agent/prompt',
      authHeaderName: 'X-API-Key',
      apiKeyEnvVar: 'PARTNER_API_KEY',
    });
    expect(j.brokerMcpInstructions).toMatchObject({
      executor: 'user_broker_mcp_session',
      symbolSpace: 'broker_ticker',
      svcExecutes: false,
      containsOrders: false,
    });
    expect(j.paperRunbook.liveOrderPossible).toBe(false);
    expect(j.receipt.kind).toBe('autonomy_path');
    expect(j.receipt.binding.symbols.map((s: { brokerTicker: string }) => s.brokerTicker)).toEqual(['NVDA', 'AMD', 'MSFT']);
    expect(j.shareCard.receiptId).toBe(j.coilReceipt.receiptId);

    const verified = await server.call('tools.verifyArtifactReceipt', { receipt: j.receipt });
    expect(verified.json.verification).toMatchObject({ ok: true, mismatches: [] });
    const coilVerified = await server.call('tools.verifyCoil', { coil: autonomyCoil(), receipt: j.coilReceipt });
    expect(coilVerified.json.verification.ok).toBe(true);
  });

  it('refuses a share link that carries credentials (400 naming shareUrlBase), by the same rule as the share-card tool', async () => {
    for (const shareUrlBase of ['https://user:pw@share.example', 'https://token@share.example/c', 'http://u%40x:p@share.example']) {
      for (const procedure of ['autonomy.compileBrokerPath', 'tools.shareCard']) {
        const res = await server.call(procedure, { coil: autonomyCoil(), shareUrlBase, nowIso: NOW });
        expect(res.status, `${procedure} ${shareUrlBase}`).toBe(400);
        expect(res.json.error.issues.map((i: { path?: string }) => i.path)).toContain('shareUrlBase');
        expect(res.text).not.toContain('share.example');
      }
    }
    const plain = await server.call('autonomy.compileBrokerPath', {
      coil: autonomyCoil(),
      shareUrlBase: 'https://share.example/c',
      nowIso: NOW,
    });
    expect(plain.status).toBe(200);
    expect(plain.json.shareCard.shareUrl).toMatch(/^https:\/\/share\.example\/c\/.+\.svg$/);
  });

  it('refuses a blocked gate (422 AUTONOMY_GATE_BLOCKED), an invalid Coil (422 COIL_INVALID) and a notional above the fuse (422 CAPSULE_COMPILE)', async () => {
    const blocked = await server.call('autonomy.compileBrokerPath', { coil: rawCoil(), nowIso: NOW });
    expect(blocked.status).toBe(422);
    expect(blocked.json).toMatchObject({ error: { code: 'AUTONOMY_GATE_BLOCKED' } });
    expect(new Set(codes(blocked.json.error.issues))).toEqual(new Set(['AUTONOMY_FUSE_MISSING']));
    const live = await server.call('autonomy.compileBrokerPath', { coil: autonomyCoil(), options: { autonomyMode: 'live_candidate' } });
    expect(live.json.error).toMatchObject({
      code: 'AUTONOMY_GATE_BLOCKED',
      issues: [expect.objectContaining({ code: 'LIVE_ACK_REQUIRED' })],
    });
    const invalid = await server.call('autonomy.compileBrokerPath', {
      coil: autonomyCoil({ assets: [{ ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 9000, rationale: 'x' }] }),
    });
    expect(invalid.json.error.code).toBe('COIL_INVALID');
    const notional = await server.call('autonomy.compileBrokerPath', { coil: autonomyCoil(), options: { maxTotalNotionalUsd: 900 } });
    expect(notional.status).toBe(422);
    expect(notional.json.error).toMatchObject({
      code: 'CAPSULE_COMPILE',
      issues: [expect.objectContaining({ code: 'NOTIONAL_ABOVE_FUSE' })],
    });
  });

  it('refuses a share card that reads as a performance claim (422 SHARE_CARD_REJECTED)', async () => {
    const res = await server.call('autonomy.compileBrokerPath', {
      coil: autonomyCoil({ memo: { title: 'Guaranteed returns', body: 'This basket returned 40% last year.', disclaimer: 'x' } }),
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('SHARE_CARD_REJECTED');
  });
});

describe('generate-command-pack', () => {
  it('answers the partner command pack with its receipt, the partner never contacted', async () => {
    const res = await server.call('autonomy.generateCommandPack', { coil: autonomyCoil(), nowIso: NOW });
    expect(res.status).toBe(200);
    expect(res.json.commandPack).toMatchObject({
      venuePhrase: 'on broker',
      executor: 'partner',
      svcExecutesTrade: false,
      partnerContacted: false,
      totalNotionalUsd: 500,
    });
    for (const c of res.json.commandPack.commands) {
      expect(c.commandPack.social.endsWith(' on broker')).toBe(true);
      // The template is an intent the stock lane prepares once the user adds the two acknowledgments.
      const prepared = await server.call('stocks.prepare', {
        intent: {
          ...c.intentTemplate,
          userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
          userAcknowledgedPartnerExecutesTrade: true,
        },
        nowIso: NOW,
      });
      expect(prepared.status).toBe(200);
      expect(prepared.json.commandPack.social).toBe(c.commandPack.social);
    }
    expect(res.json.receipt.kind).toBe('partnerbot_command_pack');
  });

  it("refuses an order above the single-order fuse, and above this server's stock notional cap (422 COMMAND_PACK_INVALID)", async () => {
    const tight = await server.call('autonomy.generateCommandPack', {
      coil: autonomyCoil(),
      options: { fuses: [{ kind: 'maxSingleOrderNotional', limit: 160 }] },
    });
    expect(tight.status).toBe(422);
    expect(tight.json.error).toMatchObject({
      code: 'COMMAND_PACK_INVALID',
      issues: [expect.objectContaining({ code: 'ORDER_ABOVE_SINGLE_ORDER_FUSE' })],
    });
    const capped = await lowCap.call('autonomy.generateCommandPack', { coil: autonomyCoil() });
    expect(capped.json.error.code).toBe('COMMAND_PACK_INVALID');
    expect(codes(capped.json.error.issues)).toEqual(['NOTIONAL_ABOVE_CAP', 'NOTIONAL_ABOVE_CAP', 'NOTIONAL_ABOVE_CAP']);
  });
});

describe('broker-mcp-instructions and post-run-audit', () => {
  it('answers the instruction pack alone, with the same autonomy_path receipt as the whole path', async () => {
    const body = { coil: autonomyCoil(), nowIso: NOW };
    const instructions = await server.call('autonomy.brokerMcpInstructions', body);
    const path = await server.call('autonomy.compileBrokerPath', body);
    expect(instructions.status).toBe(200);
    expect(instructions.json.instructions).toEqual(path.json.brokerMcpInstructions);
    // The same receipt body and id; each issuance has its own signature block (issue 36).
    expect(withoutSignatures(instructions.json.receipt)).toEqual(withoutSignatures(path.json.receipt));
    expect(JSON.stringify(instructions.json.instructions.symbols)).not.toMatch(/0x/);
  });

  it('audits reported activity against the receipt: every item reported_unverified, every breach named, claims quoted', async () => {
    const { receipt } = (await server.call('autonomy.brokerMcpInstructions', { coil: autonomyCoil(), options: liveOptions(), nowIso: NOW }))
      .json;
    const res = await server.call('autonomy.postRunAudit', {
      receipt,
      activity: [
        { symbol: 'NVDA', side: 'buy', notionalUsd: 80, at: TUESDAY, brokerOrderId: 'ord-1', note: 'I bought 0.4 NVDA. Order filled.' },
        { symbol: 'AAPL', side: 'buy', notionalUsd: 300, at: TUESDAY },
        { symbol: 'AMD', side: 'buy_to_open', notionalUsd: 10, at: '2026-03-07T15:00:00Z' },
      ],
      nowIso: NOW,
    });
    expect(res.status).toBe(200);
    const report = res.json.report;
    expect(report.items.map((i: { status: string }) => i.status)).toEqual([
      'reported_unverified',
      'reported_unverified',
      'reported_unverified',
    ]);
    expect(report.items[0].reportedNote).toEqual({
      claimsExecution: true,
      quoted: ['Unconfirmed, in the agent\'s words: "I bought 0.4 NVDA."', 'Unconfirmed, in the agent\'s words: "Order filled."'],
    });
    expect(report.items[1].breaches).toEqual(
      expect.arrayContaining(['SYMBOL_NOT_IN_COIL', 'ORDER_NOTIONAL_ABOVE_CAP', 'HUMAN_CONFIRMATION_MISSING', 'DAILY_TURNOVER_ABOVE_CAP']),
    );
    expect(report.items[2].breaches).toEqual(expect.arrayContaining(['OPTIONS_NOT_ALLOWED', 'OUTSIDE_MARKET_SESSION']));
    expect(report.verdict).toMatchObject({ status: 'breaches_found', breachCount: report.verdict.breaches.length });
    expect(res.text).not.toMatch(/"status":"(filled|executed)"/);
    expect(res.json.receipt.kind).toBe('post_run_audit');
    expect((await server.call('tools.verifyArtifactReceipt', { receipt: res.json.receipt, subject: report })).json.verification.ok).toBe(
      true,
    );
    expect(
      (
        await server.call('tools.verifyArtifactReceipt', {
          receipt: res.json.receipt,
          subject: { ...report, verdict: { ...report.verdict, status: 'no_breach_found' } },
        })
      ).json.verification,
    ).toMatchObject({ ok: false, mismatches: ['subjectHash', 'receiptId'] });
  });

  it('refuses a receipt of another kind or with a widened binding (422 AUTONOMY_RECEIPT_INVALID), and bad activity (400)', async () => {
    const { receipt } = (await server.call('autonomy.brokerMcpInstructions', { coil: autonomyCoil(), nowIso: NOW })).json;
    const widened = {
      ...receipt,
      binding: { ...receipt.binding, fuses: receipt.binding.fuses.filter((f: { kind: string }) => f.kind !== 'noMargin') },
    };
    const tampered = await server.call('autonomy.postRunAudit', { receipt: widened, activity: [] });
    expect(tampered.status).toBe(422);
    expect(tampered.json.error.code).toBe('AUTONOMY_RECEIPT_INVALID');
    const other = await server.call('autonomy.postRunAudit', { receipt: { ...receipt, kind: 'post_run_audit' }, activity: [] });
    expect(other.json.error.issues[0].code).toBe('RECEIPT_KIND');
    const side = await server.call('autonomy.postRunAudit', {
      receipt,
      activity: [{ symbol: 'NVDA', side: 'yolo', notionalUsd: 1, at: TUESDAY }],
    });
    expect(side.status).toBe(400);
    expect(side.json.error.code).toBe('ACTIVITY_SHAPE');
    const confused = await server.call('autonomy.postRunAudit', {
      receipt,
      activity: [{ symbol: ADDR.NVDA, side: 'buy', notionalUsd: 1, at: TUESDAY }],
    });
    expect(confused.json.error.code).toBe('SYMBOL_SPACE_CONFUSION');
    // A symbol is a ticker, never a sentence: the caller's words cannot reach the answer unquoted.
    const sentence = await server.call('autonomy.postRunAudit', {
      receipt,
      activity: [{ symbol: 'I sold all', side: 'buy', notionalUsd: 1, at: TUESDAY }],
    });
    expect([sentence.status, sentence.json.error.code]).toEqual([400, 'ACTIVITY_SHAPE']);
    const notObject = await server.call('autonomy.postRunAudit', { receipt: 'arcpt_x', activity: [] });
    expect(notObject.json.error.code).toBe('RECEIPT_SHAPE');
  });
});

describe('the autonomy schema and the validation share one list', () => {
  it('supplying exactly the published mandatory fuses leaves none missing; leaving any one out names it', async () => {
    const schema = (await server.call('partnerbot.schema')).json;
    const kinds: string[] = schema.mandatoryFuses.map((f: { kind: string }) => f.kind);
    const byKind = new Map(AUTONOMY_FUSES.map((f) => [f.kind, f]));
    const supplied = kinds.filter((k) => byKind.has(k as never)).map((k) => byKind.get(k as never)!);
    const all = await server.call('autonomy.validateAutonomy', { coil: rawCoil({ mode: 'brokerage-mcp-plan' }), fuses: supplied });
    expect(all.json.gate).toMatchObject({ verdict: 'ready', missing: [] });
    const dropped = supplied.filter((f) => f.kind !== 'stopIfReceiptMismatch');
    const one = await server.call('autonomy.validateAutonomy', { coil: rawCoil({ mode: 'brokerage-mcp-plan' }), fuses: dropped });
    expect(one.json.gate.missing).toEqual(['fuse:stopIfReceiptMismatch']);
  });
});
