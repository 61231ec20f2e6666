import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  ALL_ASSETS,
  checkCanonical,
  findAssetByAddress,
  findAssetByTicker,
  publicRegistry,
  STOCK_TOKENS,
  USDG,
} from '../../src/lib/server/registry';

describe('canonical registry', () => {
  it('holds 15 stock and ETF tokens plus USDG and WETH on chain 4663', () => {
    expect(STOCK_TOKENS).toHaveLength(15);
    expect(ALL_ASSETS.map((a) => a.ticker)).toEqual(expect.arrayContaining(['USDG', 'WETH']));
    expect(new Set(ALL_ASSETS.map((a) => a.address.toLowerCase())).size).toBe(ALL_ASSETS.length);
    expect(new Set(ALL_ASSETS.map((a) => a.ticker)).size).toBe(ALL_ASSETS.length);
  });

  it('pins USDG at the published address with 6 decimals; stock tokens have 18', () => {
    expect(USDG.address).toBe('0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168');
    expect(USDG.decimals).toBe(6);
    for (const t of STOCK_TOKENS) expect(t.decimals).toBe(18);
  });

  it('checksums every address and explains its source', () => {
    for (const a of ALL_ASSETS) {
      expect(a.address).toBe(getAddress(a.address));
      expect(a.addressSource.length).toBeGreaterThan(10);
      expect(['stock', 'etf', 'stablecoin', 'wrapped_native']).toContain(a.kind);
    }
  });

  it('looks up by ticker and by address case-insensitively', () => {
    const nvda = findAssetByTicker('nvda')!;
    expect(findAssetByAddress(nvda.address.toLowerCase())?.ticker).toBe('NVDA');
    expect(findAssetByAddress(nvda.address.toUpperCase().replace('0X', '0x'))?.ticker).toBe('NVDA');
  });

  it('rejects a canonical ticker at another address', () => {
    expect(checkCanonical('NVDA', '0x' + '12'.repeat(20)).status).toBe('ticker_address_mismatch');
    const aapl = findAssetByTicker('AAPL')!;
    expect(checkCanonical('NVDA', aapl.address).status).toBe('ticker_address_mismatch');
    expect(checkCanonical('AAPL', aapl.address.toLowerCase()).status).toBe('canonical');
    expect(checkCanonical('ZZZZ', '0x' + '12'.repeat(20)).status).toBe('unknown_address');
    expect(checkCanonical('AAPL', '0x123').status).toBe('malformed_address');
  });

  it('publishes versions with the table', () => {
    const table = publicRegistry();
    expect(table.registryVersion).toMatch(/\S/);
    expect(table.oraclePolicyVersion).toMatch(/\S/);
    expect(table.assets).toHaveLength(17);
  });
});
