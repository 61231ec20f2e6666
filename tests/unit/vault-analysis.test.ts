/** Vault fee schedule and calculation, risk score and the comparison that never recommends. */
import { describe, expect, it } from 'vitest';
import { findSvcError } from '../../src/lib/server/errors';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { compareVaultsWithoutRecommendation } from '../../src/lib/server/vaults/compare';
import { formatUsdgUnits } from '../../src/lib/server/vaults/amount';
import { calculateVaultFees, FEE_SCHEDULE, parseUsdgUnits } from '../../src/lib/server/vaults/fees';
import { scoreVaultRisk } from '../../src/lib/server/vaults/risk-score';

const addr = (t: string) => findAssetByTicker(t)!.address;

function codeOf(fn: () => unknown): { code: string; issues: { code: string; path?: string }[] } {
  try {
    fn();
  } catch (error) {
    const svc = findSvcError(error);
    if (svc) return { code: svc.code, issues: svc.issues };
    throw error;
  }
  throw new Error('expected an error');
}

describe('FEE_SCHEDULE', () => {
  it('has no management, entry or exit fee; performance fee 10% capped at 10% (20% verified); protocol share 10% up to 20%', () => {
    expect(FEE_SCHEDULE).toMatchObject({
      managementFeeBps: 0,
      entryFeeBps: 0,
      exitFeeBps: 0,
      performanceFee: { defaultBps: 1000, capBps: 1000, verifiedCreatorCapBps: 2000 },
      protocolShare: { defaultBps: 1000, maxBps: 2000 },
    });
  });
});

describe('USDG amounts', () => {
  it('parses and formats 6-decimal units exactly', () => {
    expect(parseUsdgUnits('1250.5')).toBe(1_250_500_000n);
    expect(parseUsdgUnits('0.000001')).toBe(1n);
    expect(formatUsdgUnits(1_250_500_000n)).toBe('1250.5');
    expect(formatUsdgUnits(1n)).toBe('0.000001');
    expect(formatUsdgUnits(3_000_000n)).toBe('3');
  });
});

describe('calculateVaultFees', () => {
  it('charges the performance fee on profit above the high-water mark only, the protocol share out of it', () => {
    const r = calculateVaultFees({ highWaterMarkUsdg: '10000', navUsdg: '12000' });
    expect(r.profitAboveHighWaterMark.usdg).toBe('2000');
    expect(r.performanceFee.usdg).toBe('200');
    expect(r.protocolShare.usdg).toBe('20');
    expect(r.creatorShare.usdg).toBe('180');
    expect(r.totalFees.usdg).toBe('200');
    expect(r.navAfterFees.usdg).toBe('11800');
    expect(r.nextHighWaterMark.usdg).toBe('11800');
    expect([r.managementFee.units, r.entryFee.units, r.exitFee.units]).toEqual(['0', '0', '0']);
  });

  it('charges nothing below or at the high-water mark, and the peak stays', () => {
    const r = calculateVaultFees({ highWaterMarkUsdg: '10000', navUsdg: '9000' });
    expect(r.aboveHighWaterMark).toBe(false);
    expect(r.performanceFee.units).toBe('0');
    expect(r.nextHighWaterMark.usdg).toBe('10000');
  });

  it('rounds down; the protocol share is rounded down so dust never costs a depositor', () => {
    const r = calculateVaultFees({ highWaterMarkUsdg: '0', navUsdg: '0.000099', protocolShareBps: 1500 });
    // 99 units x 10% = 9.9 -> 9 units; 9 x 15% = 1.35 -> 1 unit to the protocol, 8 to the creator.
    expect(r.performanceFee.units).toBe('9');
    expect(r.protocolShare.units).toBe('1');
    expect(r.creatorShare.units).toBe('8');
    expect(BigInt(r.protocolShare.units) + BigInt(r.creatorShare.units)).toBe(BigInt(r.performanceFee.units));
  });

  it('refuses a rate above its cap instead of clamping it', () => {
    expect(codeOf(() => calculateVaultFees({ highWaterMarkUsdg: '1', navUsdg: '2', performanceFeeBps: 1500 }))).toMatchObject({
      code: 'PERF_FEE_CAP',
      issues: [{ path: 'performanceFeeBps' }],
    });
    expect(
      calculateVaultFees({ highWaterMarkUsdg: '1', navUsdg: '2', performanceFeeBps: 2000, creatorVerified: true }).rates.performanceFeeBps,
    ).toBe(2000);
    expect(
      codeOf(() => calculateVaultFees({ highWaterMarkUsdg: '1', navUsdg: '2', performanceFeeBps: 2001, creatorVerified: true })).code,
    ).toBe('PERF_FEE_CAP');
    expect(codeOf(() => calculateVaultFees({ highWaterMarkUsdg: '1', navUsdg: '2', protocolShareBps: 2001 })).code).toBe(
      'PROTOCOL_SHARE_CAP',
    );
  });
});

describe('scoreVaultRisk', () => {
  const balanced = {
    allocations: [
      { tokenAddress: addr('SPY'), weightBps: 3000 },
      { tokenAddress: addr('QQQ'), weightBps: 2000 },
      { tokenAddress: addr('AAPL'), weightBps: 1500 },
      { tokenAddress: addr('MSFT'), weightBps: 1500 },
      { tokenAddress: addr('SGOV'), weightBps: 1000 },
      { tokenAddress: USDG.address, weightBps: 1000 },
    ],
  };
  const concentrated = {
    allocations: [{ tokenAddress: addr('TSLA'), weightBps: 10000 }],
    performanceFeeBps: 2000,
    creatorVerified: true,
    lockupSeconds: 7 * 86400,
  };

  it('is deterministic and bounded', () => {
    const a = scoreVaultRisk(balanced);
    expect(scoreVaultRisk(balanced)).toEqual(a);
    expect(a.score.total).toBeGreaterThanOrEqual(0);
    expect(a.score.total).toBeLessThanOrEqual(100);
    expect(a.components.map((c) => c.id)).toEqual([
      'concentration',
      'equity_exposure',
      'cash_reserve',
      'diversification',
      'fee_incentive',
      'lockup',
    ]);
    expect(a.score.total).toBeCloseTo(
      a.components.reduce((s, c) => s + c.points, 0),
      5,
    );
  });

  it('scores a single-stock, no-cash, high-fee, locked vault higher than a diversified one with a reserve', () => {
    const low = scoreVaultRisk(balanced);
    const high = scoreVaultRisk(concentrated);
    expect(high.score.total).toBeGreaterThan(low.score.total);
    expect(high.score.band).toBe('elevated');
    expect(low.score.band).toBe('lower');
    expect(high.profile).toMatchObject({ holdingCount: 1, maxSingleWeightBps: 10000, maxSingleWeightTicker: 'TSLA', cashReserveBps: 0 });
  });

  it('refuses a non-canonical address, a ticker at the wrong address and weights that do not sum to 10000, all at once', () => {
    const result = codeOf(() =>
      scoreVaultRisk({
        allocations: [
          { tokenAddress: '0x1111111111111111111111111111111111111111', weightBps: 5000 },
          { tokenAddress: addr('MSFT'), ticker: 'AAPL', weightBps: 3000 },
          { tokenAddress: 'nope', weightBps: 1000 },
        ],
      }),
    );
    expect(result.code).toBe('VAULT_COMPOSITION_INVALID');
    expect(result.issues.map((i) => i.code)).toEqual(['NONCANONICAL_ASSET', 'TICKER_ADDRESS_MISMATCH', 'ADDRESS_MALFORMED', 'WEIGHTS_SUM']);
  });
});

describe('compareVaultsWithoutRecommendation', () => {
  const vaults = [
    { label: 'Concentrated', allocations: [{ tokenAddress: addr('NVDA'), weightBps: 10000 }], performanceFeeBps: 1000 },
    {
      label: 'Balanced',
      allocations: [
        { tokenAddress: addr('SPY'), weightBps: 5000 },
        { tokenAddress: USDG.address, weightBps: 5000 },
      ],
      performanceFeeBps: 500,
    },
  ];

  it('keeps the given order, never ranks and never recommends', () => {
    const r = compareVaultsWithoutRecommendation({ vaults });
    expect(r.columns.map((c) => c.label)).toEqual(['Concentrated', 'Balanced']);
    const reversed = compareVaultsWithoutRecommendation({ vaults: [...vaults].reverse() });
    expect(reversed.columns.map((c) => c.label)).toEqual(['Balanced', 'Concentrated']);
    expect(r).toMatchObject({ ranked: false, recommendation: null, order: 'as_given' });
    const text = JSON.stringify(r).toLowerCase();
    for (const word of ['best', 'better', 'winner', 'preferred vault', 'we recommend', 'top pick', 'safest'])
      expect(text).not.toContain(word);
  });

  it('agrees with the fee calculation and the risk score for each vault', () => {
    const r = compareVaultsWithoutRecommendation({ vaults, exampleProfitUsdg: '1000' });
    const fee = calculateVaultFees({ highWaterMarkUsdg: '0', navUsdg: '1000', performanceFeeBps: 500 });
    expect(r.columns[1]!.fees.exampleOnProfit.performanceFee).toEqual(fee.performanceFee);
    expect(r.columns[1]!.fees.exampleOnProfit.creatorShare).toEqual(fee.creatorShare);
    expect(r.columns[0]!.risk.total).toBe(scoreVaultRisk(vaults[0]!).score.total);
  });

  it('names the vault whose input is invalid, and refuses duplicate labels', () => {
    const bad = codeOf(() => compareVaultsWithoutRecommendation({ vaults: [vaults[0]!, { ...vaults[1]!, performanceFeeBps: 3000 }] }));
    expect(bad).toMatchObject({ code: 'PERF_FEE_CAP', issues: [{ path: 'vaults.1.performanceFeeBps' }] });
    const noncanonical = codeOf(() =>
      compareVaultsWithoutRecommendation({
        vaults: [
          vaults[0]!,
          { label: 'X', allocations: [{ tokenAddress: '0x1111111111111111111111111111111111111111', weightBps: 10000 }] },
        ],
      }),
    );
    expect(noncanonical.issues[0]!.path).toBe('vaults.1.allocations.0.tokenAddress');
    expect(codeOf(() => compareVaultsWithoutRecommendation({ vaults: [vaults[0]!, { ...vaults[1]!, label: 'Concentrated' }] })).code).toBe(
      'VAULT_COMPARISON_INVALID',
    );
  });
});
