/**
 * The vault family under /api/vaults through the real server and the local chain: schema
 * (with the architecture object of 2.11 value by value), asset registry, route precedence,
 * the deposit gate read live and the intents it guards, receipts of packs. Manifests,
 * rebalance policies and what the routes answer without an RPC are tested in process, in
 * tests/inproc/vaults.test.ts.
 */
import { decodeFunctionData, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { V1_VAULT, v2Contract } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, type PlacedV1 } from '../support/chain/vaults';
import { startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let v1: PlacedV1;
let server: TestServer;
let facilitator: TestServer;

const NOW = '2026-11-22T10:00:00.000Z';
const FACILITATOR_ADDRESS = '0x1111111111111111111111111111111111111111';

beforeAll(async () => {
  chain = await startLocalChain();
  v1 = await placeV1Vault(chain, { depositReady: false });
  [server, facilitator] = await Promise.all([
    startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } }),
    startServer({ env: { FACILITATOR_ENABLED: 'true', FACILITATOR_API_KEY: 'svc-test-facilitator-key-0123456789', FACILITATOR_ADDRESS } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), facilitator?.stop()]);
  await chain?.stop();
});

const aapl = () => findAssetByTicker('AAPL')!;

describe('vault schema and registries', () => {
  it('embeds the architecture object of spec 2.11, value by value', async () => {
    const res = await server.get(`/api/vaults/schema?nowIso=${NOW}`);
    expect(res.status).toBe(200);
    expect(res.json.architecture).toEqual({
      vaultChain: 'broker_chain',
      vaultChainId: 4663,
      baseAsset: 'USDG',
      baseAssetAddress: USDG.address,
      x402Providers: {
        partnerCloud: { status: 'live_or_configured', paymentChain: 'base', label: expect.any(String) },
        facilitator: {
          status: 'configured_or_live_or_blocked',
          paymentChain: 'broker_chain',
          chainId: 4663,
          asset: 'USDG',
          facilitator: null,
          label: expect.any(String),
        },
      },
      brokerMcpUsedForVaultExecution: false,
      svcStoresBrokerCredentials: false,
      svcPlacesOrders: false,
    });
    const withFacilitator = (await facilitator.get('/api/vaults/schema')).json;
    expect(withFacilitator.architecture.x402Providers.facilitator.facilitator).toBe(FACILITATOR_ADDRESS);
  });

  it('lists routes, the chain and payment model, the fee schedule and the public deposit gate', async () => {
    const s = (await server.get('/api/vaults/schema')).json;
    expect(s).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    const paths = s.routes.map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
    for (const p of [
      'GET /api/vaults/schema',
      'GET /api/vaults/asset-registry',
      'GET /api/vaults/v2/status',
      'GET /api/vaults/{slug}/deposit-link',
      'POST /api/partnerbot/vault-deposit/submit-intent',
    ]) {
      expect(paths).toContain(p);
    }
    expect(s.feeSchedule).toMatchObject({ managementFeeBps: 0, entryFeeBps: 0, exitFeeBps: 0, performanceFee: { defaultBps: 1000 } });
    expect(s.publicDepositGate).toMatchObject({
      refusalCode: 'DEPOSIT_GATE_CLOSED',
      depositReadinessRegistry: V1_VAULT.depositReadinessRegistryAddress,
    });
    expect(s.depositRail).toMatchObject({
      railId: 'rail_a_vault_deposit',
      packVersion: 'partnerbot-vault-deposit-1.0.0',
      maxAmountPerPackUsdg: '10000',
      plainDepositReverts: true,
      svcExecutesDeposit: false,
    });
    expect(s.chainModel.vaultChain).toMatchObject({ chainId: 4663, baseAsset: 'USDG', baseAssetDecimals: 6 });
    expect(s.vaults.map((v: { slug: string }) => v.slug)).toEqual([V1_VAULT.slug, 'svc-vault-v2']);
  });

  it('keeps vaultChain and x402PaymentChain apart, with the lane chosen from configuration', async () => {
    const partnerLane = (await server.get('/api/vaults/schema')).json;
    expect(partnerLane.vaultChain).toMatchObject({ name: 'broker_chain', chainId: 4663 });
    expect(partnerLane.x402PaymentChain).toMatchObject({
      lane: 'partnerCloud',
      paymentChain: 'base',
      asset: 'USDC',
      facilitatorState: 'disabled',
      settlesHere: false,
    });
    const facilitatorLane = (await facilitator.get('/api/vaults/schema')).json;
    expect(facilitatorLane.vaultChain).toMatchObject({ name: 'broker_chain', chainId: 4663 });
    // Enabled with a key but no FACILITATOR_URL / FACILITATOR_PAYTO_ADDRESS: the facilitator
    // lane is selected and blocked, never shown as settling and never swapped for partner cloud.
    expect(facilitatorLane.x402PaymentChain).toMatchObject({
      lane: 'facilitator',
      paymentChain: 'broker_chain',
      chainId: 4663,
      asset: 'USDG',
      facilitatorState: 'blocked',
      settlesHere: false,
    });
    expect(facilitatorLane.x402PaymentChain.reason).toMatch(/blocked/);
    for (const v of partnerLane.sourceVerification) expect(v.lastVerified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('serves the asset registry with oracle and jurisdiction policies and source verification', async () => {
    const r = (await server.get('/api/vaults/asset-registry')).json;
    expect(r.chainId).toBe(4663);
    expect(r.assets).toHaveLength(17);
    const a = r.assets.find((x: { ticker: string }) => x.ticker === 'AAPL');
    expect(a).toMatchObject({
      address: aapl().address,
      v2ExecutionGrade: true,
      oraclePolicy: { priceBasis: 'EXCHANGE_LIVE', maxPriceAgeSeconds: 3600 },
    });
    expect(a.jurisdictionPolicy).toMatchObject({ svcGatesOnJurisdiction: false, svcCollectsLocation: false });
    expect(a.sourceVerification.lastVerified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.assets.find((x: { ticker: string }) => x.ticker === 'SGOV').oraclePolicy).toMatchObject({
      priceBasis: 'MODEL_ACCRUAL',
      maxPriceAgeSeconds: 93_600,
    });
    expect(r.assets.find((x: { ticker: string }) => x.ticker === 'USDG').oraclePolicy.priceBasis).toBe('ACCOUNTING_IDENTITY');
    expect(r.assets.filter((x: { v2ExecutionGrade: boolean }) => x.v2ExecutionGrade)).toHaveLength(1);
  });
});

describe('route precedence', () => {
  it('static paths win over /vaults/{slug}; a slug still resolves a vault', async () => {
    expect((await server.get('/api/vaults/schema')).json.schemaVersion).toBe('svc-vault-schema-1.0.0');
    expect((await server.get('/api/vaults/asset-registry')).json.assetRegistryVersion).toBeDefined();
    expect((await server.get('/api/vaults/readiness')).json.gate).toBeDefined();
    expect((await server.get('/api/vaults/v2/status')).json.statusVersion).toBe('svc-vault-v2-status-1.0.0');
    const byslug = await server.get(`/api/vaults/${V1_VAULT.slug}`);
    expect(byslug.json.vault).toMatchObject({ slug: V1_VAULT.slug, railId: 'rail_a_vault_deposit', generation: 'v1' });
    const byAddress = await server.get(`/api/vaults/${v2Contract('vault').address.toLowerCase()}`);
    expect(byAddress.json.vault).toMatchObject({ slug: 'svc-vault-v2', acceptsDepositPacks: false });
    const unknown = await server.get('/api/vaults/not-a-vault');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('VAULT_UNKNOWN');
    // A static POST path is not a slug either.
    expect((await server.post('/api/vaults/manifests/validate', {})).json.error.code).not.toBe('VAULT_UNKNOWN');
    const list = await server.get('/api/vaults');
    expect(list.json.vaults).toHaveLength(2);
  });

  it('documents every vault route in the OpenAPI document', async () => {
    const doc = (await server.get('/api/openapi.json')).json;
    for (const p of [
      '/vaults',
      '/vaults/schema',
      '/vaults/asset-registry',
      '/vaults/readiness',
      '/vaults/v2/status',
      '/vaults/{slug}',
      '/vaults/{slug}/deposit-link',
      '/vaults/{slug}/deposit-partnerbot-intent',
      '/vaults/{slug}/deposit-intent',
      '/vaults/{slug}/withdraw-intent',
      '/vaults/manifests/create',
      '/vaults/manifests/validate',
      '/vaults/rebalance-policy/compile',
      '/vaults/receipt',
      '/partnerbot/vault-deposit/prepare-command',
      '/partnerbot/vault-deposit/submit-intent',
      '/partnerbot/vault-deposit/status/{jobId}',
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    // The vault schema lists every vault route the OpenAPI document has, with its method.
    const listed = new Set(
      (await server.get('/api/vaults/schema')).json.routes.map((r: { method: string; path: string }) => `${r.method} ${r.path}`),
    );
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!path.startsWith('/vaults') && !path.startsWith('/partnerbot/vault-deposit')) continue;
      for (const method of ['get', 'post'])
        if (item[method]) expect(listed, `${method} ${path}`).toContain(`${method.toUpperCase()} /api${path}`);
    }
    const v2 = JSON.stringify(doc.paths['/vaults/v2/status']);
    for (const field of [
      'immediateDepositCapacityUsdg',
      'immediateUsdgRedemptionCapacityUsdg',
      'limitingFuse',
      'stageLadder',
      'timelock',
      'rebalancing',
    ]) {
      expect(v2).toContain(field);
    }
  });
});

describe('deposit gate and the intents it guards', () => {
  const body = () => ({ amountUsdg: '100', receiver: chain.accounts[1]!.address, nowIso: NOW });

  it('reads the gate live: closed while the readiness registry says not ready', async () => {
    const res = await server.get('/api/vaults/readiness');
    expect(res.json.gate).toMatchObject({ state: 'BLOCKED', open: false, source: 'onchain_eth_call' });
    expect(res.json.gate.checks.find((c: { name: string }) => c.name === 'deposit_readiness').result).toBe('fail');
  });

  it('refuses deposit and withdraw intents while the gate is closed (409 DEPOSIT_GATE_CLOSED)', async () => {
    const dep = await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-intent`, body());
    expect(dep.status).toBe(409);
    expect(dep.json.error.code).toBe('DEPOSIT_GATE_CLOSED');
    expect(dep.json.error.message).toMatch(/BLOCKED/);
    const wd = await server.post(`/api/vaults/${V1_VAULT.slug}/withdraw-intent`, { shares: '1000', receiver: chain.accounts[1]!.address });
    expect(wd.status).toBe(409);
    expect(wd.json.error.code).toBe('DEPOSIT_GATE_CLOSED');
  });

  it('validates before reading the gate: a bad amount is its own code', async () => {
    const res = await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-intent`, { ...body(), amountUsdg: '0' });
    expect(res.json.error.code).toBe('AMOUNT_NOT_POSITIVE');
  });

  it('prepares the intents once the vault is deposit-ready; a paused vault closes the gate again', async () => {
    await v1.setReadiness(true);
    try {
      const gate = (await server.get('/api/vaults/readiness')).json.gate;
      expect(gate).toMatchObject({ state: 'OPEN', open: true });
      const dep = await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-intent`, body());
      expect(dep.status).toBe(200);
      expect(dep.json.intent).toMatchObject({
        kind: 'deposit',
        stage: 'PREPARATION',
        liveTransactionSent: false,
        planHash: dep.json.pack.planHash,
      });
      expect(dep.json.intent.calls.map((c: { to: string }) => c.to)).toEqual([USDG.address, V1_VAULT.address]);

      const wd = await server.post(`/api/vaults/${V1_VAULT.slug}/withdraw-intent`, {
        shares: '1000',
        receiver: chain.accounts[1]!.address,
        nowIso: NOW,
      });
      expect(wd.status).toBe(200);
      const decoded = decodeFunctionData({
        abi: parseAbi(['function redeem(uint256 shares, address receiver, address owner) returns (uint256)']),
        data: wd.json.intent.calls[0].data,
      });
      expect(decoded.args).toEqual([1000n, chain.accounts[1]!.address, chain.accounts[1]!.address]);
      const badShares = await server.post(`/api/vaults/${V1_VAULT.slug}/withdraw-intent`, {
        shares: '0',
        receiver: chain.accounts[1]!.address,
      });
      expect(badShares.json.error.code).toBe('SHARES_NOT_POSITIVE');

      await chain.send(V1_VAULT.address, v1.vaultAbi, 'setPaused', [true]);
      const paused = (await server.get('/api/vaults/readiness')).json.gate;
      expect(paused).toMatchObject({ state: 'PAUSED', open: false });
      expect((await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-intent`, body())).json.error.code).toBe('DEPOSIT_GATE_CLOSED');
    } finally {
      await chain.send(V1_VAULT.address, v1.vaultAbi, 'setPaused', [false]);
      await v1.setReadiness(false);
    }
  });
});

describe('manifests, rebalance policies and receipts', () => {
  // Manifest receipts need no chain and are tested in process (tests/inproc/vaults.test.ts);
  // a pack's receipt binds acknowledgment pins read from the live chain.
  it('issues a deterministic receipt for a pack, and refuses an edited pack', async () => {
    const prepared = await server.post('/api/partnerbot/vault-deposit/prepare-command', {
      amountUsdg: '5',
      receiver: chain.accounts[1]!.address,
      nowIso: NOW,
    });
    const packReceipt = await server.post('/api/vaults/receipt', { pack: prepared.json.pack, nowIso: NOW });
    expect(packReceipt.json.receipt).toMatchObject({
      kind: 'deposit_pack',
      subjectHash: prepared.json.pack.planHash,
      stage: 'PREPARATION',
    });
    const edited = { ...prepared.json.pack, amountUnits: '5000001' };
    const refused = await server.post('/api/vaults/receipt', { pack: edited });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('PACK_HASH_MISMATCH');
    const none = await server.post('/api/vaults/receipt', {});
    expect(none.status).toBe(400);
  });
});
