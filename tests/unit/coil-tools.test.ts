/** Coil health, risk audit and capsule compilation as pure functions. */
import { describe, expect, it } from 'vitest';
import { riskAudit, fuseChecksumOf } from '../../src/lib/server/coil/audit';
import { compileCapsule } from '../../src/lib/server/coil/capsule';
import { REQUIRED_CAPSULE_FUSES } from '../../src/lib/server/coil/fuse-catalogue';
import { scoreCoil } from '../../src/lib/server/coil/health';
import { ADDR, FULL_FUSES, makeCoil, UNKNOWN_ADDRESS } from '../support/coils';
import { svcError } from '../support/svc-error';

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  return out;
}

describe('Coil health', () => {
  it('is 0 to 100 and the sum of its explained components', () => {
    const health = scoreCoil(makeCoil({ fuses: FULL_FUSES }));
    expect(health.total).toBe(health.components.reduce((s, c) => s + c.points, 0));
    expect(health.total).toBeGreaterThan(0);
    expect(health.total).toBeLessThanOrEqual(100);
    for (const c of health.components) {
      expect(c.points).toBeGreaterThanOrEqual(0);
      expect(c.points).toBeLessThanOrEqual(c.maxPoints);
      expect(c.explanation.length).toBeGreaterThan(5);
    }
    expect(health.components.reduce((s, c) => s + c.maxPoints, 0)).toBe(100);
  });

  it('reads structure and readiness only, never returns or prices', () => {
    const health = scoreCoil(makeCoil());
    expect(health.basis).toBe('structure_and_readiness_only');
    expect(health.explanation).toContain('does not estimate returns, prices or performance');
    const names = health.components.map((c) => c.name);
    expect(names).toEqual(['validity', 'canonicalAssets', 'diversification', 'riskPosture', 'documentation']);
  });

  it('gives an invalid Coil no validity points and a concentrated one no diversification points', () => {
    const invalid = scoreCoil(makeCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 9000, rationale: 'x' }] }));
    expect(invalid.components.find((c) => c.name === 'validity')!.points).toBe(0);
    expect(invalid.components.find((c) => c.name === 'diversification')!.points).toBe(0);
  });

  it('rewards canonical weight, declared fuses and explained assets', () => {
    const bare = scoreCoil(makeCoil());
    const fused = scoreCoil(makeCoil({ fuses: FULL_FUSES }));
    expect(fused.components.find((c) => c.name === 'riskPosture')!.points).toBeGreaterThan(
      bare.components.find((c) => c.name === 'riskPosture')!.points,
    );
    const unknown = scoreCoil(
      makeCoil({
        assets: [
          { ticker: 'ZZZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 5000, rationale: 'x' },
          { ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 5000, rationale: 'x' },
        ],
      }),
    );
    expect(unknown.components.find((c) => c.name === 'canonicalAssets')!.points).toBe(10);
  });
});

describe('risk audit', () => {
  it('derives fuses from the Coil fields and lists the missing required ones', () => {
    const audit = riskAudit(makeCoil());
    expect(audit.fuses.map((f) => f.kind).sort()).toEqual(['canonicalAssetsOnly', 'oracleStaleness']);
    expect(audit.requiredForCapsule).toEqual([...REQUIRED_CAPSULE_FUSES]);
    expect(audit.missingRequired.sort()).toEqual([
      'humanConfirmation',
      'maxDailyTurnover',
      'maxSingleOrderNotional',
      'maxSlippage',
      'noMargin',
      'noOptions',
      'singleAssetCap',
    ]);
    expect(audit.issues.filter((i) => i.code === 'MISSING_REQUIRED_FUSE')).toHaveLength(7);
    expect(audit.fuseChecksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has nothing missing when every required fuse is declared', () => {
    const audit = riskAudit(makeCoil({ fuses: FULL_FUSES }));
    expect(audit.missingRequired).toEqual([]);
    expect(audit.issues).toEqual([]);
    expect(audit.fuses.find((f) => f.kind === 'maxSlippage')).toMatchObject({
      limit: 50,
      unit: 'bps',
      source: 'fuses[2]',
      requiredForCapsule: true,
    });
  });

  it('flags duplicate, out-of-bounds and conflicting fuses', () => {
    const audit = riskAudit(
      makeCoil({
        rebalancePolicy: { method: 'drift', driftThresholdBps: 500, maxSlippageBps: 40 },
        fuses: [
          { kind: 'maxDailyTurnover', limit: 0 },
          { kind: 'noOptions', limit: 5 },
          { kind: 'maxSlippage', limit: 50 },
          { kind: 'noMargin' },
          { kind: 'noMargin' },
          { kind: 'maxSingleOrderNotional' },
        ],
      }),
    );
    const byCode = (code: string) => audit.issues.filter((i) => i.code === code).map((i) => i.path);
    expect(byCode('FUSE_BOUNDS')).toEqual(['fuses[0].limit', 'fuses[1].limit', 'fuses[5].limit']);
    expect(byCode('DUPLICATE_FUSE')).toEqual(['fuses[4]']);
    expect(byCode('FUSE_CONFLICT')).toEqual(['fuses[2]']);
    expect(audit.fuses.find((f) => f.kind === 'maxSlippage')!.limit).toBe(40);
  });

  it('warns about concentration when no cap is set', () => {
    const audit = riskAudit(
      makeCoil({
        assets: [
          { ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 6000, rationale: 'x' },
          { ticker: 'SGOV', tokenAddress: ADDR.SGOV, weightBps: 4000, rationale: 'x' },
        ],
      }),
    );
    expect(audit.issues.filter((i) => i.code === 'CONCENTRATION').map((i) => i.path)).toEqual(['assets[0].weightBps']);
  });

  it('checksums the fuses in canonical form: order-free, limit-sensitive', () => {
    const a = fuseChecksumOf([
      { kind: 'noMargin', limit: null },
      { kind: 'maxSlippage', limit: 50 },
    ]);
    const b = fuseChecksumOf([
      { kind: 'maxSlippage', limit: 50 },
      { kind: 'noMargin', limit: null },
    ]);
    const c = fuseChecksumOf([
      { kind: 'maxSlippage', limit: 51 },
      { kind: 'noMargin', limit: null },
    ]);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('capsule', () => {
  it('refuses a paper Coil (422 CAPSULE_COMPILE, PAPER_COIL)', () => {
    const error = svcError(() => compileCapsule(makeCoil({ mode: 'paper' })));
    expect(error.code).toBe('CAPSULE_COMPILE');
    expect(error.issues[0]!.code).toBe('PAPER_COIL');
  });

  it('refuses an invalid Coil with COIL_INVALID and its errors', () => {
    const error = svcError(() =>
      compileCapsule(makeCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 9999, rationale: 'x' }] })),
    );
    expect(error.code).toBe('COIL_INVALID');
    expect(error.issues.map((i) => i.code)).toEqual(['WEIGHTS_SUM']);
  });

  it("needs the user's acknowledgment for agentic_mcp_enabled", () => {
    const coil = makeCoil({ executionMode: 'agentic_mcp_enabled', fuses: FULL_FUSES });
    const error = svcError(() => compileCapsule(coil));
    expect(error.code).toBe('CAPSULE_COMPILE');
    expect(error.issues[0]!.code).toBe('AGENTIC_ACK_REQUIRED');
    expect(svcError(() => compileCapsule(coil, { userAcknowledgedAgenticMode: false })).issues[0]!.code).toBe('AGENTIC_ACK_REQUIRED');
    const capsule = compileCapsule(coil, { userAcknowledgedAgenticMode: true });
    expect(capsule.agenticModeAcknowledged).toBe(true);
    expect(capsule.humanConfirmation.mustConfirm.join(' ')).toContain('humanConfirmation threshold');
  });

  it("bounds maxTotalNotionalUsd: rejected above 10000 and above the Coil's own fuse, never clamped", () => {
    expect(svcError(() => compileCapsule(makeCoil(), { maxTotalNotionalUsd: 10_000.01 })).issues[0]!.code).toBe('NOTIONAL_CAP_EXCEEDED');
    const fused = makeCoil({ fuses: [...FULL_FUSES!, { kind: 'maxTotalNotional', limit: 300 }] });
    expect(svcError(() => compileCapsule(fused, { maxTotalNotionalUsd: 301 })).issues[0]!.code).toBe('NOTIONAL_ABOVE_FUSE');
    expect(compileCapsule(fused).maxTotalNotionalUsd).toBe(300);
    expect(compileCapsule(makeCoil(), { maxTotalNotionalUsd: 10_000 }).maxTotalNotionalUsd).toBe(10_000);
  });

  it('fills missing required fuses with defaults that a human must confirm', () => {
    const capsule = compileCapsule(makeCoil());
    expect(capsule.fusesDefaulted.sort()).toEqual([
      'humanConfirmation',
      'maxDailyTurnover',
      'maxSingleOrderNotional',
      'maxSlippage',
      'maxTotalNotional',
      'noMargin',
      'noOptions',
      'singleAssetCap',
    ]);
    expect(capsule.fuses.find((f) => f.kind === 'singleAssetCap')!.limit).toBe(4000);
    expect(capsule.humanConfirmation.required).toBe(true);
    expect(capsule.humanConfirmation.mustConfirm.some((s) => s.includes('singleAssetCap'))).toBe(true);
    expect(capsule.allocations.map((a) => a.notionalCeilingUsd)).toEqual([200, 150, 150]);
  });

  it('never contains an order, a quantity or a notional per order', () => {
    const capsule = compileCapsule(makeCoil({ mode: 'brokerage-mcp-plan', executionMode: 'human_confirm', fuses: FULL_FUSES }));
    expect(capsule.containsOrders).toBe(false);
    expect(capsule.svcExecutes).toBe(false);
    const keys = keysDeep(capsule);
    for (const k of ['orders', 'order', 'quantity', 'qty', 'side', 'txHash']) expect(keys.has(k)).toBe(false);
    expect(capsule.planSteps.length).toBeGreaterThan(3);
    expect(capsule.capsuleHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic', () => {
    expect(compileCapsule(makeCoil())).toEqual(compileCapsule(makeCoil()));
  });

  it.each(['paper_only', 'preview_only', 'human_confirm'] as const)('says what a human must still confirm in %s', (executionMode) => {
    const capsule = compileCapsule(makeCoil({ executionMode, fuses: FULL_FUSES }));
    expect(capsule.executionMode).toBe(executionMode);
    expect(capsule.humanConfirmation.mustConfirm.length).toBeGreaterThanOrEqual(3);
  });
});
