/**
 * GET /api/vaults/{slug}/figures through the real server and the local chain: the V1 vault's
 * total assets and share price read live (totalAssets / totalSupply at decimals()), an empty
 * vault's share price unknown (never 0), every value unknown with the reason when the chain
 * cannot be read, and the answer that neither vault previews a deposit; an unknown slug is 404.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { ACK_HASHES, V1_VAULT, V2_VAULT_SLUG } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits, type PlacedV1 } from '../support/chain/vaults';
import { freePort, startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let server: TestServer;
let down: TestServer;
let v1: PlacedV1;
const DEPOSITOR = 2;

beforeAll(async () => {
  chain = await startLocalChain();
  v1 = await placeV1Vault(chain, { depositReady: true });
  server = await startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } });
  down = await startServer({ env: { BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${await freePort()}/closed` } });
});
afterAll(async () => {
  await server?.stop();
  await down?.stop();
  await chain?.stop();
});

const figures = (s: TestServer, slug = V1_VAULT.slug) => s.get(`/api/vaults/${slug}/figures`);

describe('vault figures', () => {
  it('an empty vault: total assets 0 read live, and no share price (unknown with why, never 0)', async () => {
    const res = await figures(server);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    expect(res.json.figures).toMatchObject({
      vaultAddress: V1_VAULT.address,
      generation: 'v1',
      chainIdVerified: true,
      totalAssets: { state: 'live', units: '0', usdg: '0' },
      sharePrice: { state: 'unknown', reasonCode: 'no_shares' },
      depositPreview: { available: false },
    });
    expect(res.json.figures.depositPreview.reason).toContain('The V1 vault has no preview function');
  });

  it('after a deposit: total assets and the share price, read live', async () => {
    const depositor = chain.accounts[DEPOSITOR]!.address;
    await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [depositor, usdgUnits('120.5')]);
    await chain.send(USDG.address as Address, v1.usdgAbi, 'approve', [v1.vault, usdgUnits('120.5')], DEPOSITOR);
    await chain.send(
      v1.vault,
      v1.vaultAbi,
      'depositWithAcks',
      [usdgUnits('120.5'), depositor, ACK_HASHES.risk, ACK_HASHES.jurisdiction],
      DEPOSITOR,
    );
    const res = await figures(server);
    expect(res.json.figures.totalAssets).toEqual({ state: 'live', units: '120500000', usdg: '120.5' });
    expect(res.json.figures.sharePrice).toMatchObject({ state: 'live', usdgPerShare: '1', shareDecimals: 6 });
  });

  it('the V2 vault, whose shares answer no decimals() here: its share price is unknown with the reason, and it has no preview', async () => {
    const res = await figures(server, V2_VAULT_SLUG);
    expect(res.status).toBe(200);
    expect(res.json.figures.generation).toBe('v2');
    expect(res.json.figures.sharePrice.state).toBe('unknown');
    expect(res.json.figures.depositPreview.reason).toContain('request queue');
  });

  it('when the chain cannot be read, every figure is unknown with the reason, never 0', async () => {
    const res = await figures(down);
    expect(res.status).toBe(200);
    expect(res.json.figures.chainIdVerified).toBe(false);
    expect(res.json.figures.totalAssets).toMatchObject({ state: 'unknown', reasonCode: 'rpc_unreachable' });
    expect(res.json.figures.sharePrice.state).toBe('unknown');
    expect(JSON.stringify(res.json.figures)).not.toMatch(/"units":"0"/);
  });

  it('an unknown slug is 404 VAULT_UNKNOWN', async () => {
    const res = await figures(server, 'no-such-vault');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('VAULT_UNKNOWN');
  });
});
