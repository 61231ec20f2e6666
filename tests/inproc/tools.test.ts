/**
 * The tools procedures (interface 4.3) in process, through tRPC's server-side caller: answers,
 * issues, refusal codes and their statuses, determinism under `nowIso`, receipts,
 * provenance and the passport. What crosses HTTP (stamped error envelopes, input coercion
 * switched off on REST, the share-card image, the OpenAPI document, /trpc) is in
 * tests/api/tools.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadThesisNlp } from '../../src/lib/server/strategist';
import { inProcess } from '../support/caller';
import { ADDR, FULL_FUSES, rawCoil, UNKNOWN_ADDRESS } from '../support/coils';

// The strategist's language model loads on the first thesis; loaded here, no test's clock pays it.
beforeAll(() => loadThesisNlp(), 60_000);

const server = inProcess({ env: { STRATEGIST_PROVIDER: 'mock' } });
const NOW = '2026-03-01T12:00:00Z';

function expectToolEnvelope(json: Record<string, unknown>, tool: string) {
  expect(json).toMatchObject({ tool, notInvestmentAdvice: true, liveOrderSent: false });
  expect(typeof json.generatedAt).toBe('string');
}

async function generate(prompt: string, extra: Record<string, unknown> = {}) {
  const res = await server.call('tools.generateCoil', { prompt, nowIso: NOW, ...extra });
  expect(res.status).toBe(200);
  return res.json;
}

describe('POST /api/tools/generate-coil', () => {
  it('returns a Coil that validates, its health, a receipt, provider labels and disclaimers', async () => {
    const json = await generate('AI chips and data-center GPUs');
    expectToolEnvelope(json, 'generate-coil');
    expect(json.generatedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(json.coil.assets.map((a: { ticker: string }) => a.ticker)).toContain('NVDA');
    expect(json.health.total).toBeGreaterThan(50);
    expect(json.receipt).toMatchObject({
      kind: 'coil_manifest',
      anchoring: 'paper',
      validationStatus: 'valid',
      generatedAt: '2026-03-01T12:00:00.000Z',
    });
    expect(json.receipt.receiptId).toMatch(/^hrcpt_[0-9a-f]{32}$/);
    expect(json.providerMeta).toEqual({ provider: 'mock', requested: 'mock', usedFallback: false });
    expect(json.disclaimers.length).toBeGreaterThan(2);
    const validation = await server.call('tools.validateCoil', { coil: json.coil });
    expect(validation.json.validation).toEqual({ valid: true, validationStatus: 'valid', issues: [] });
  });

  it('is byte-identical for the same request and nowIso', async () => {
    const a = await server.call('tools.generateCoil', { prompt: 'defensive index exposure', nowIso: NOW });
    const b = await server.call('tools.generateCoil', { prompt: 'defensive index exposure', nowIso: NOW });
    expect(a.text).toBe(b.text);
  });

  it('sets the requested execution mode and rejects an unknown one with COIL_EXECUTION_MODE', async () => {
    expect((await generate('AI chips', { executionMode: 'human_confirm' })).coil.executionMode).toBe('human_confirm');
    const bad = await server.call('tools.generateCoil', { prompt: 'AI chips', executionMode: 'yolo' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0]).toMatchObject({ code: 'COIL_EXECUTION_MODE', path: 'executionMode' });
  });

  it('answers PROMPT_REQUIRED without a prompt and PROMPT_TOO_LONG over 2000 characters', async () => {
    const missing = await server.call('tools.generateCoil', {});
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('PROMPT_REQUIRED');
    expect((await server.call('tools.generateCoil', { prompt: 42 })).json.error.code).toBe('PROMPT_REQUIRED');
    const long = await server.call('tools.generateCoil', { prompt: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.json.error.code).toBe('PROMPT_TOO_LONG');
    expect((await server.call('tools.generateCoil', { prompt: 'x'.repeat(2000) })).status).toBe(200);
  });

  it('answers 400 PROMPT_REQUIRED for an empty or whitespace-only thesis, and coils no default basket', async () => {
    const coiled = async () =>
      (await server.call('tools.passport', { agentId: 'mock' })).json.passport.components.find(
        (c: { name: string }) => c.name === 'manifestsCoiled',
      ).value;
    const before = await coiled();
    for (const prompt of ['', '   ', '\n\t \u00a0\u3000']) {
      const res = await server.call('tools.generateCoil', { prompt, nowIso: NOW });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'PROMPT_REQUIRED', issues: [expect.objectContaining({ path: 'prompt' })] });
      expect(res.text).not.toMatch(/Default diversified basket/);
    }
    expect(await coiled()).toBe(before);
  });
});

describe('POST /api/tools/validate-coil', () => {
  it('answers 200 with issues for an invalid Coil, and a validation receipt', async () => {
    const coil = rawCoil({ assets: [{ ticker: 'NVDA', tokenAddress: UNKNOWN_ADDRESS, weightBps: 9999, rationale: 'x' }] });
    const res = await server.call('tools.validateCoil', { coil, nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'validate-coil');
    expect(res.json.validation.valid).toBe(false);
    expect(res.json.validation.validationStatus).toBe('invalid');
    expect(res.json.validation.issues.map((i: { code: string }) => i.code).sort()).toEqual(['TICKER_ADDRESS_MISMATCH', 'WEIGHTS_SUM']);
    expect(res.json.validation.issues[0]).toMatchObject({ severity: 'error', message: expect.any(String) });
    expect(res.json.receipt).toMatchObject({ kind: 'validation', validationStatus: 'invalid' });
  });

  it('reports warnings as valid-with-warnings (readiness check, unknown address)', async () => {
    const coil = rawCoil({ assets: [{ ticker: 'ZZZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 10_000, rationale: 'x' }] });
    const res = await server.call('tools.validateCoil', { coil });
    expect(res.json.validation).toMatchObject({ valid: true, validationStatus: 'valid-with-warnings' });
    expect(res.json.validation.issues[0]).toMatchObject({ code: 'UNKNOWN_ADDRESS', severity: 'warning' });
    const live = await server.call('tools.validateCoil', { coil: { ...coil, mode: 'live' } });
    expect(live.json.validation.issues[0]).toMatchObject({ code: 'NONCANONICAL_ASSET', severity: 'error' });
  });

  it('answers 400 COIL_SHAPE with field issues for something that is not a Coil', async () => {
    for (const coil of [undefined, 'a coil', { name: 'half' }, [1, 2]]) {
      const res = await server.call('tools.validateCoil', coil === undefined ? {} : { coil });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('COIL_SHAPE');
      expect(res.json.error.issues.length).toBeGreaterThan(0);
      expect(res.json.error.issues[0].path).toMatch(/^coil/);
    }
  });
});

describe('POST /api/tools/score-coil', () => {
  it('answers health 0 to 100 with explained components, never a return', async () => {
    const res = await server.call('tools.scoreCoil', { coil: rawCoil({ fuses: FULL_FUSES }), nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'score-coil');
    expect(res.json.health.total).toBeGreaterThanOrEqual(0);
    expect(res.json.health.total).toBeLessThanOrEqual(100);
    expect(res.json.health.components).toHaveLength(5);
    expect(res.json.health.basis).toBe('structure_and_readiness_only');
    expect(res.text).not.toMatch(/"(expectedReturn|apy|performance|price)"/i);
  });
});

describe('POST /api/tools/compile-capsule', () => {
  const coil = rawCoil({ fuses: FULL_FUSES });
  it('compiles a valid non-paper Coil: fuses, what a human must confirm, no order', async () => {
    const res = await server.call('tools.compileCapsule', { coil, options: { maxTotalNotionalUsd: 1000 }, nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'compile-capsule');
    expect(res.json.capsule).toMatchObject({
      executionMode: 'paper_only',
      maxTotalNotionalUsd: 1000,
      containsOrders: false,
      svcExecutes: false,
      chainId: 4663,
    });
    expect(res.json.capsule.humanConfirmation.mustConfirm.length).toBeGreaterThan(1);
    expect(res.text).not.toMatch(/"(orders|quantity)"/);
  });

  it('answers 422 CAPSULE_COMPILE for a paper Coil and 422 COIL_INVALID for an invalid one', async () => {
    const paper = await server.call('tools.compileCapsule', { coil: { ...coil, mode: 'paper' } });
    expect(paper.status).toBe(422);
    expect(paper.json.error).toMatchObject({ code: 'CAPSULE_COMPILE', issues: [expect.objectContaining({ code: 'PAPER_COIL' })] });
    const invalid = await server.call('tools.compileCapsule', {
      coil: rawCoil({
        assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 6000, rationale: 'x' }],
        risk: { ...rawCoil().risk, maxSingleAssetWeightBps: 5000 },
      }),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.code).toBe('COIL_INVALID');
    expect(invalid.json.error.issues).toEqual([
      expect.objectContaining({ code: 'WEIGHTS_SUM', path: 'coil.assets[0].weightBps' }),
      expect.objectContaining({ code: 'WEIGHTS_SUM', path: 'coil.assets' }),
    ]);
  });

  it('needs userAcknowledgedAgenticMode: true for agentic_mcp_enabled (422 AGENTIC_ACK_REQUIRED)', async () => {
    const agentic = { ...coil, executionMode: 'agentic_mcp_enabled' };
    const refused = await server.call('tools.compileCapsule', { coil: agentic });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: 'CAPSULE_COMPILE',
      issues: [expect.objectContaining({ code: 'AGENTIC_ACK_REQUIRED' })],
    });
    const stringAck = await server.call('tools.compileCapsule', { coil: agentic, options: { userAcknowledgedAgenticMode: 'true' } });
    expect(stringAck.status).toBe(400);
    expect(stringAck.json.error.issues[0].path).toBe('options.userAcknowledgedAgenticMode');
    const ok = await server.call('tools.compileCapsule', { coil: agentic, options: { userAcknowledgedAgenticMode: true } });
    expect(ok.status).toBe(200);
    expect(ok.json.capsule.agenticModeAcknowledged).toBe(true);
  });
});

describe('POST /api/tools/risk-audit', () => {
  it('lists fuses, required and missing ones, issues and the fuse checksum, with a risk_fuse receipt', async () => {
    const res = await server.call('tools.riskAudit', { coil: rawCoil(), nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'risk-audit');
    expect(res.json.requiredForCapsule).toEqual(
      expect.arrayContaining([
        'oracleStaleness',
        'singleAssetCap',
        'canonicalAssetsOnly',
        'maxSlippage',
        'maxDailyTurnover',
        'humanConfirmation',
      ]),
    );
    expect(res.json.missingRequired).toContain('maxSlippage');
    expect(res.json.issues.some((i: { code: string }) => i.code === 'MISSING_REQUIRED_FUSE')).toBe(true);
    expect(res.json.fuseChecksum).toMatch(/^[0-9a-f]{64}$/);
    expect(res.json.receipt).toMatchObject({ kind: 'risk_fuse', fuseChecksum: res.json.fuseChecksum });
    const full = await server.call('tools.riskAudit', { coil: rawCoil({ fuses: FULL_FUSES }) });
    expect(full.json.missingRequired).toEqual([]);
    expect(full.json.fuseChecksum).not.toBe(res.json.fuseChecksum);
  });
});

describe('POST /api/tools/drift-check', () => {
  const coil = rawCoil({ rebalancePolicy: { method: 'drift', driftThresholdBps: 500 } });
  it('reports signed drift, breaches at the threshold and a preview proposal', async () => {
    const res = await server.call('tools.driftCheck', { coil, currentWeightsBps: { NVDA: 4500, AMD: 2500, MSFT: 3000 }, nowIso: NOW });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'drift-check');
    const { report } = res.json;
    expect(report).toMatchObject({
      thresholdBps: 500,
      breachCount: 2,
      generatedAt: '2026-03-01T12:00:00.000Z',
      manifestHash: res.json.receipt.manifestHash,
      coilId: res.json.receipt.coilId,
    });
    expect(report.entries.map((e: { driftBps: number }) => e.driftBps)).toEqual([500, -500, 0]);
    expect(report.proposal.intents.every((i: { status: string }) => i.status === 'preview')).toBe(true);
    expect(report.proposal.requiresHumanConfirmation).toBe(true);
    expect(report.proposal.intents[0].abortConditions).toHaveLength(3);
    expect(res.text).not.toMatch(/"(notional|quantity)"/i);
  });

  it('has no proposal under the threshold and no invented reading without current weights', async () => {
    const under = await server.call('tools.driftCheck', { coil, currentWeightsBps: { NVDA: 4499, AMD: 2501, MSFT: 3000 } });
    expect(under.json.report.breachCount).toBe(0);
    expect(under.json.report.proposal).toBeUndefined();
    const none = await server.call('tools.driftCheck', { coil });
    expect(none.json.report.readingStatus).toBe('missing');
    expect(none.json.report.entries.every((e: { currentWeightBps: unknown }) => e.currentWeightBps === null)).toBe(true);
  });

  it('rejects non-integer or string weights, and needs a valid Coil', async () => {
    expect((await server.call('tools.driftCheck', { coil, currentWeightsBps: { NVDA: '4500' } })).status).toBe(400);
    expect((await server.call('tools.driftCheck', { coil, currentWeightsBps: { NVDA: 45.5 } })).status).toBe(400);
    const invalid = await server.call('tools.driftCheck', { coil: { ...coil, risk: { ...coil.risk, notInvestmentAdvice: false } } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.code).toBe('COIL_INVALID');
  });
});

describe('POST /api/tools/receipt and /api/coil/verify', () => {
  it('issues deterministic receipts of each kind and verifies them', async () => {
    const coil = rawCoil({ fuses: FULL_FUSES });
    for (const kind of ['coil_manifest', 'validation', 'risk_fuse']) {
      const a = await server.call('tools.receipt', { coil, kind, nowIso: NOW });
      const b = await server.call('tools.receipt', { coil, kind, nowIso: NOW });
      expect(a.status).toBe(200);
      expectToolEnvelope(a.json, 'receipt');
      expect(a.text).toBe(b.text);
      expect(a.json.receipt.kind).toBe(kind);
      expect(a.json.provenance).toMatchObject({ forkDepth: 0, manifestHash: a.json.receipt.manifestHash });
      const verify = await server.call('tools.verifyCoil', { coil, receipt: a.json.receipt });
      expect(verify.status).toBe(200);
      expectToolEnvelope(verify.json, 'verify-coil');
      expect(verify.json.verification).toMatchObject({ ok: true, mismatches: [] });
    }
    const defaultKind = await server.call('tools.receipt', { coil });
    expect(defaultKind.json.receipt.kind).toBe('coil_manifest');
    expect((await server.call('tools.receipt', { coil, kind: 'other' })).status).toBe(400);
  });

  it('names each mismatch of a tampered receipt or an edited Coil', async () => {
    const coil = rawCoil();
    const { receipt } = (await server.call('tools.receipt', { coil, kind: 'risk_fuse', nowIso: NOW })).json;
    const tampered = await server.call('tools.verifyCoil', {
      coil,
      receipt: { ...receipt, weightsChecksum: '0'.repeat(64), fuseChecksum: '1'.repeat(64) },
    });
    // Every field is under the service's signature: changed bytes also break it.
    expect(tampered.json.verification).toMatchObject({
      ok: false,
      mismatches: ['weightsChecksum', 'fuseChecksum', 'signature'],
      signature: { status: 'invalid' },
    });
    // The receipt as issued is signed by the key the service publishes.
    const asIssued = await server.call('tools.verifyCoil', { coil, receipt });
    expect(asIssued.json.verification).toMatchObject({ ok: true, signature: { status: 'valid', keyId: receipt.signature.keyId } });
    const edited = rawCoil({ name: 'renamed' });
    const mismatch = await server.call('tools.verifyCoil', { coil: edited, receipt });
    expect(mismatch.json.verification.mismatches).toEqual(['manifestHash', 'receiptId', 'coilId']);
    const notObject = await server.call('tools.verifyCoil', { coil, receipt: 'hrcpt_x' });
    expect(notObject.status).toBe(400);
    expect(notObject.json.error.code).toBe('RECEIPT_SHAPE');
  });
});

describe('POST /api/tools/share-card and the SVG image', () => {
  it('refuses a performance claim (422) and a share link with credentials (400)', async () => {
    const claim = await server.call('tools.shareCard', {
      coil: rawCoil({ memo: { title: 'x', body: 'Guaranteed returns of 30% a year.', disclaimer: 'x' } }),
    });
    expect(claim.status).toBe(422);
    expect(claim.json.error).toMatchObject({
      code: 'SHARE_CARD_REJECTED',
      issues: [expect.objectContaining({ code: 'PERFORMANCE_CLAIM', path: 'coil.memo.body' })],
    });
    expect((await server.call('tools.shareCard', { coil: rawCoil(), shareUrlBase: 'https://user:pw@share.example' })).status).toBe(400);
    expect((await server.call('tools.shareCard', { coil: rawCoil(), shareUrlBase: 'javascript:alert(1)' })).status).toBe(400);
  });
});

describe("the caller's own words in tool answers: never a 500", () => {
  it('a share card whose memo claims an execution is refused at input (422 SHARE_CARD_REJECTED naming the field); validate and receipt repeat nothing and answer 200', async () => {
    const coil = rawCoil({
      memo: { title: 'Update', body: 'The agent bought 10 NVDA for you this morning.', disclaimer: 'Not investment advice.' },
    });
    const res = await server.call('tools.shareCard', { coil, nowIso: NOW });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'SHARE_CARD_REJECTED',
      issues: [expect.objectContaining({ code: 'EXECUTION_CLAIM_TEXT', path: 'coil.memo.body' })],
    });
    expect(res.text).not.toContain('bought 10 NVDA');
    const validate = await server.call('tools.validateCoil', { coil });
    expect(validate.status).toBe(200);
    expect(validate.json.validation.issues).toEqual([
      expect.objectContaining({ code: 'EXECUTION_CLAIM_TEXT', severity: 'warning', path: 'memo.body' }),
    ]);
    expect((await server.call('tools.receipt', { coil })).status).toBe(200);
  });

  it('a card text that only a combination makes a claim (a ticker of an unknown token in the alt text) is refused naming the card field', async () => {
    const coil = rawCoil({
      assets: [
        { ticker: 'The agent sold', tokenAddress: UNKNOWN_ADDRESS, weightBps: 5000, rationale: 'A token outside the registry.' },
        { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 5000, rationale: 'Leads accelerators.' },
      ],
    });
    const res = await server.call('tools.shareCard', { coil, nowIso: NOW });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('SHARE_CARD_REJECTED');
    expect(res.json.error.issues[0].path).toMatch(/^card\./);
  });

  it('a basket to refine named "The agent sold NVDA": the refined Coil quotes the caller\'s words inside its own ("… (refined)"), which is never a 500', async () => {
    const res = await server.call('strategist.generate', {
      prompt: 'AI chips',
      basketContext: { name: 'The agent sold NVDA', assets: [{ tokenAddress: ADDR.NVDA, weightBps: 10000 }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.manifest.name).toBe('The agent sold NVDA (refined)');
  });

  it("a drift check whose ticker (upper-cased in the service's reasons) and reading keys claim an execution: 200, never a 500", async () => {
    const coil = rawCoil({
      assets: [
        { ticker: 'The agent sold', tokenAddress: UNKNOWN_ADDRESS, weightBps: 5000, rationale: 'A token outside the registry.' },
        { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 5000, rationale: 'Leads accelerators.' },
      ],
    });
    const res = await server.call('tools.driftCheck', { coil, currentWeightsBps: { 'The agent sold': 9000, NVDA: 1000 } });
    expect(res.status).toBe(200);
    expect(res.json.report.proposal.intents[0].reason).toMatch(/^THE AGENT SOLD is 4000 bps above/);
    const validate = await server.call('tools.validateCoil', {
      coil: { ...coil, assets: [{ ...coil.assets[0]!, weightBps: 9000 }, coil.assets[1]!] },
    });
    expect(validate.status).toBe(200);
  });
});

describe('GET /api/coil/provenance/{manifestHash} and GET /api/agents/passport/{agentId}', () => {
  it('renders lineage from stored receipts and 404s an unknown manifest', async () => {
    const root = rawCoil({ slug: 'lineage-root' });
    const rootReceipt = (await server.call('tools.receipt', { coil: root, nowIso: NOW })).json.receipt;
    const child = rawCoil({ slug: 'lineage-child', forkOf: 'lineage-root', parentManifestHash: rootReceipt.manifestHash });
    const childReceipt = (await server.call('tools.receipt', { coil: child, nowIso: NOW })).json.receipt;
    expect(childReceipt.parentManifestHash).toBe(rootReceipt.manifestHash);
    const res = await server.call('tools.provenance', { manifestHash: childReceipt.manifestHash });
    expect(res.status).toBe(200);
    expectToolEnvelope(res.json, 'provenance');
    expect(res.json.provenance.forkDepth).toBe(1);
    expect(res.json.provenance.chain.map((l: { slug: string }) => l.slug)).toEqual(['lineage-root', 'lineage-child']);
    expect(res.json.provenance.chain[0].receiptIds).toContain(rootReceipt.receiptId);
    const unknown = await server.call('tools.provenance', { manifestHash: 'e'.repeat(64) });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('MANIFEST_NOT_FOUND');
    expect((await server.call('tools.provenance', { manifestHash: 'nothex' })).status).toBe(400);
  });

  it('computes the strategist passport from stored Coils and receipts, capped per component', async () => {
    const before = (await server.call('tools.passport', { agentId: 'mock' })).json.passport;
    const generated = await server.call('tools.generateCoil', { prompt: 'passport thesis about oil and energy', nowIso: NOW });
    await server.call('tools.generateCoil', { prompt: 'passport thesis about oil and energy', nowIso: NOW });
    const after = (await server.call('tools.passport', { agentId: 'mock' })).json;
    expectToolEnvelope(after, 'passport');
    const component = (p: { components: Array<{ name: string; value: number }> }, name: string) =>
      p.components.find((c) => c.name === name)!.value;
    expect(component(after.passport, 'manifestsCoiled')).toBe(component(before, 'manifestsCoiled') + 1);
    expect(component(after.passport, 'receipts')).toBe(component(before, 'receipts') + 1);
    expect(after.passport).toMatchObject({
      agentId: 'mock',
      agentKind: 'strategist',
      policyVersion: 'passport-policy-1.0.0',
      maxReputation: 1000,
    });
    expect(after.passport.reputation).toBeGreaterThan(0);
    expect(after.passport.components.map((c: { cap: number }) => c.cap)).toEqual([300, 250, 200, 250]);
    expect(generated.json.receipt.receiptId).toMatch(/^hrcpt_/);

    const wallet = await server.call('tools.passport', { agentId: '0x' + 'ab'.repeat(20) });
    expect(wallet.json.passport).toMatchObject({ agentKind: 'wallet', reputation: 0 });
    expect(wallet.json.passport.components.find((c: { name: string }) => c.name === 'averageScore').value).toBeNull();
    expect((await server.call('tools.passport', { agentId: 'somebody' })).status).toBe(400);
  });
});
