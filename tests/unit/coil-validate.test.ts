/** Coil validation (interface 2.4): every code with its severity, and the status derived from the issues (3.4). */
import { describe, expect, it } from 'vitest';
import { coilSchema, LIVE_COIL_MODES, READINESS_COIL_MODES, COIL_MODES } from '../../src/lib/server/coil/manifest';
import { validateCoil, validationStatusOf, VALIDATION_CODES, type ValidationIssue } from '../../src/lib/server/coil/validate';
import { ADDR, makeCoil, rawCoil, UNKNOWN_ADDRESS } from '../support/coils';

const codes = (issues: ValidationIssue[]) => issues.map((i) => i.code);
const only = (coil: ReturnType<typeof makeCoil>, code: string) => validateCoil(coil).issues.filter((i) => i.code === code);

function withWeights(...weights: number[]) {
  const tickers = ['NVDA', 'AMD', 'MSFT'] as const;
  return makeCoil({
    assets: weights.map((w, i) => ({ ticker: tickers[i]!, tokenAddress: ADDR[tickers[i]!], weightBps: w, rationale: 'x' })),
  });
}

describe('a well-formed canonical Coil', () => {
  it('is valid with no issues', () => {
    expect(validateCoil(makeCoil())).toEqual({ valid: true, validationStatus: 'valid', issues: [] });
  });
});

describe('WEIGHTS_SUM', () => {
  it.each([
    [9999, [4000, 3000, 2999]],
    [10001, [4000, 3000, 3001]],
  ])('is an error when the weights sum to %i', (sum, weights) => {
    const result = validateCoil(withWeights(...weights));
    expect(result.valid).toBe(false);
    expect(result.validationStatus).toBe('invalid');
    const issue = result.issues.find((i) => i.code === 'WEIGHTS_SUM')!;
    expect(issue).toMatchObject({ severity: 'error', path: 'assets' });
    expect(issue.message).toContain(String(sum));
  });

  it('accepts exactly 10000', () => {
    expect(validateCoil(withWeights(5000, 2500, 2500)).valid).toBe(true);
  });

  it.each([[0], [-500], [2500.5], [10_001], [1e308]])(
    'a weight that is not an integer from 1 to 10000 (%d) is not a Coil at all: the schema refuses it before any arithmetic',
    (w) => {
      const parsed = coilSchema.safeParse(rawCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: w, rationale: 'x' }] }));
      expect(parsed.success).toBe(false);
      expect([...new Set(parsed.error!.issues.map((i) => i.path.join('.')))]).toEqual(['assets.0.weightBps']);
    },
  );

  it.each([[0], [-500], [2500.5]])('still reports the non-positive-integer weight %d of an unparsed Coil as WEIGHTS_SUM', (w) => {
    const coil = { ...withWeights(5000, 2500, 2500) };
    coil.assets = coil.assets.map((a, i) => (i === 2 ? { ...a, weightBps: w } : a));
    const issues = only(coil, 'WEIGHTS_SUM');
    expect(issues.some((i) => i.path === 'assets[2].weightBps' && i.severity === 'error')).toBe(true);
  });

  it("holds every weight to the Coil's single-asset cap: at the cap is fine, one above is an error", () => {
    const atCap = makeCoil({ ...rawCoil(), risk: { ...rawCoil().risk, maxSingleAssetWeightBps: 4000 } });
    expect(validateCoil(atCap).valid).toBe(true);
    const over = makeCoil({ ...rawCoil(), risk: { ...rawCoil().risk, maxSingleAssetWeightBps: 3999 } });
    const issues = only(over, 'WEIGHTS_SUM');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'error', path: 'assets[0].weightBps' });
    expect(issues[0]!.message).toContain('3999');
  });

  it('uses 10000 bps as the cap when the Coil states none', () => {
    const single = makeCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 10_000, rationale: 'x' }] });
    expect(validateCoil(single).valid).toBe(true);
  });
});

describe('canonical assets', () => {
  it('TICKER_ADDRESS_MISMATCH: a canonical ticker at another address is an error in every mode', () => {
    for (const mode of COIL_MODES) {
      const coil = makeCoil({
        mode,
        executionMode: 'paper_only',
        assets: [{ ticker: 'NVDA', tokenAddress: UNKNOWN_ADDRESS, weightBps: 10_000, rationale: 'x' }],
      });
      expect(only(coil, 'TICKER_ADDRESS_MISMATCH')[0]).toMatchObject({ severity: 'error', path: 'assets[0].tokenAddress' });
      expect(codes(validateCoil(coil).issues)).not.toContain('UNKNOWN_ADDRESS');
    }
  });

  it('TICKER_ADDRESS_MISMATCH: a canonical ticker on another canonical token is an error too', () => {
    const coil = makeCoil({ assets: [{ ticker: 'NVDA', tokenAddress: ADDR.AMD, weightBps: 10_000, rationale: 'x' }] });
    expect(codes(validateCoil(coil).issues)).toContain('TICKER_ADDRESS_MISMATCH');
  });

  it.each([...LIVE_COIL_MODES])('NONCANONICAL_ASSET: an unknown address in the live mode %s is an error', (mode) => {
    const coil = makeCoil({ mode, assets: [{ ticker: 'ZZZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 10_000, rationale: 'x' }] });
    const result = validateCoil(coil);
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'NONCANONICAL_ASSET', severity: 'error', path: 'assets[0].tokenAddress' }),
    ]);
    expect(result.validationStatus).toBe('invalid');
  });

  it.each([...READINESS_COIL_MODES])('UNKNOWN_ADDRESS: an unknown address in the readiness mode %s is a warning', (mode) => {
    const coil = makeCoil({ mode, assets: [{ ticker: 'ZZZ', tokenAddress: UNKNOWN_ADDRESS, weightBps: 10_000, rationale: 'x' }] });
    const result = validateCoil(coil);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'UNKNOWN_ADDRESS', severity: 'warning' })]);
    expect(result).toMatchObject({ valid: true, validationStatus: 'valid-with-warnings' });
  });

  it('matches addresses case-insensitively', () => {
    const coil = makeCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY.toLowerCase(), weightBps: 10_000, rationale: 'x' }] });
    expect(validateCoil(coil).issues).toEqual([]);
  });

  it('DUPLICATE_ASSET: the same token twice is an error', () => {
    const coil = makeCoil({
      assets: [
        { ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: 5000, rationale: 'x' },
        { ticker: 'SPY', tokenAddress: ADDR.SPY.toLowerCase(), weightBps: 5000, rationale: 'y' },
      ],
    });
    expect(only(coil, 'DUPLICATE_ASSET')[0]).toMatchObject({ severity: 'error', path: 'assets[1].tokenAddress' });
  });

  it('NO_ASSETS: an empty basket is an error', () => {
    expect(only(makeCoil({ assets: [] }), 'NO_ASSETS')[0]).toMatchObject({ severity: 'error' });
  });
});

describe('risk flags', () => {
  const risk = rawCoil().risk;

  it('LIVE_FLAG_ON_PAPER: a paper Coil that sets liveExecutionAllowed is an error', () => {
    const coil = makeCoil({ mode: 'paper', risk: { ...risk, liveExecutionAllowed: true } });
    expect(only(coil, 'LIVE_FLAG_ON_PAPER')[0]).toMatchObject({ severity: 'error', path: 'risk.liveExecutionAllowed' });
    expect(validateCoil(makeCoil({ mode: 'paper', risk: { ...risk, liveExecutionAllowed: false } })).valid).toBe(true);
  });

  it.each(['readiness-check', 'brokerage-mcp-plan'] as const)('LIVE_FLAG_DURING_READINESS: %s keeps liveExecutionAllowed off', (mode) => {
    const coil = makeCoil({ mode, risk: { ...risk, liveExecutionAllowed: true } });
    expect(only(coil, 'LIVE_FLAG_DURING_READINESS')[0]).toMatchObject({ severity: 'error' });
  });

  it('only a live Coil may state liveExecutionAllowed', () => {
    expect(validateCoil(makeCoil({ mode: 'live', risk: { ...risk, liveExecutionAllowed: true } })).issues).toEqual([]);
  });

  it('EXECUTION_MODE_ON_PAPER: a paper Coil is paper_only', () => {
    const coil = makeCoil({ mode: 'paper', executionMode: 'human_confirm' });
    expect(only(coil, 'EXECUTION_MODE_ON_PAPER')[0]).toMatchObject({ severity: 'error', path: 'executionMode' });
  });

  it('RISK_ALLOW_NONCANONICAL: allowNonCanonicalAssets must be false', () => {
    expect(only(makeCoil({ risk: { ...risk, allowNonCanonicalAssets: true } }), 'RISK_ALLOW_NONCANONICAL')[0]).toMatchObject({
      severity: 'error',
    });
  });

  it('RISK_NOT_INVESTMENT_ADVICE: notInvestmentAdvice must be true', () => {
    expect(only(makeCoil({ risk: { ...risk, notInvestmentAdvice: false } }), 'RISK_NOT_INVESTMENT_ADVICE')[0]).toMatchObject({
      severity: 'error',
    });
  });

  it('ORACLE_STALENESS_ABOVE_POLICY: a staleness bound looser than the oracle policy is a warning', () => {
    expect(only(makeCoil({ risk: { ...risk, oracleStalenessSeconds: 3601 } }), 'ORACLE_STALENESS_ABOVE_POLICY')[0]).toMatchObject({
      severity: 'warning',
    });
    expect(only(makeCoil({ risk: { ...risk, oracleStalenessSeconds: 3600 } }), 'ORACLE_STALENESS_ABOVE_POLICY')).toEqual([]);
  });

  it('EXECUTION_CLAIM_TEXT: a memo or rationale that claims an execution is flagged (warning)', () => {
    const coil = makeCoil({ memo: { title: 'Thesis', body: 'The agent bought 10 NVDA for you.', disclaimer: 'Not advice.' } });
    expect(only(coil, 'EXECUTION_CLAIM_TEXT')[0]).toMatchObject({ severity: 'warning', path: 'memo.body' });
  });
});

describe('validation status (spec 3.4)', () => {
  it('is derived from the issues only', () => {
    expect(validationStatusOf([])).toBe('valid');
    expect(validationStatusOf([{ severity: 'warning', code: 'UNKNOWN_ADDRESS', message: '' }])).toBe('valid-with-warnings');
    expect(
      validationStatusOf([
        { severity: 'warning', code: 'X', message: '' },
        { severity: 'error', code: 'Y', message: '' },
      ]),
    ).toBe('invalid');
  });

  it('documents a severity for every code it emits', () => {
    const coil = makeCoil({
      mode: 'paper',
      executionMode: 'agentic_mcp_enabled',
      assets: [
        { ticker: 'NVDA', tokenAddress: UNKNOWN_ADDRESS, weightBps: 1, rationale: 'The service placed the order.' },
        { ticker: 'ZZZ', tokenAddress: '0x2222222222222222222222222222222222222222', weightBps: 9000, rationale: 'x' },
        { ticker: 'ZZZ', tokenAddress: '0x2222222222222222222222222222222222222222', weightBps: 9000, rationale: 'x' },
      ],
      risk: {
        allowNonCanonicalAssets: true,
        notInvestmentAdvice: false,
        liveExecutionAllowed: true,
        oracleStalenessSeconds: 99999,
        notes: [],
      },
    });
    for (const issue of validateCoil(coil).issues) expect(issue.severity).toBe(VALIDATION_CODES[issue.code]);
  });
});

describe('Coil shape (400 COIL_SHAPE material)', () => {
  it('rejects a string where a number is expected, never coercing it', () => {
    const parsed = coilSchema.safeParse(
      rawCoil({ assets: [{ ticker: 'SPY', tokenAddress: ADDR.SPY, weightBps: '10000' as unknown as number, rationale: 'x' }] }),
    );
    expect(parsed.success).toBe(false);
  });

  it('rejects a string where a boolean is expected', () => {
    const parsed = coilSchema.safeParse(rawCoil({ risk: { ...rawCoil().risk, notInvestmentAdvice: 'true' as unknown as boolean } }));
    expect(parsed.success).toBe(false);
  });

  it('reports a wrong executionMode as the field issue COIL_EXECUTION_MODE', () => {
    const parsed = coilSchema.safeParse({ ...rawCoil(), executionMode: 'yolo' });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(issue.path).toEqual(['executionMode']);
    expect((issue as { params?: { code?: string } }).params?.code).toBe('COIL_EXECUTION_MODE');
  });

  it('rejects unknown modes and malformed addresses', () => {
    expect(coilSchema.safeParse({ ...rawCoil(), mode: 'turbo' }).success).toBe(false);
    expect(
      coilSchema.safeParse(rawCoil({ assets: [{ ticker: 'SPY', tokenAddress: '0x123', weightBps: 10_000, rationale: 'x' }] })).success,
    ).toBe(false);
  });

  it('fills the documented defaults', () => {
    const coil = makeCoil();
    expect(coil.executionMode).toBe('paper_only');
    expect(coil.rebalancePolicy).toEqual({ method: 'drift', driftThresholdBps: 500 });
  });
});
