/**
 * The vault family in process (tRPC's server-side caller): manifests, rebalance policies and
 * manifest receipts, and what the routes answer without BROKER_CHAIN_RPC_URL or with an RPC
 * that does not answer. The live chain reads are in tests/api/vaults.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { inProcess } from '../support/caller';
import { RECEIVER } from '../support/new-routes';

const NOW = '2026-11-22T10:00:00.000Z';
const server = inProcess();
const offline = server;

function allocations() {
  return [
    { ticker: 'AAPL', tokenAddress: findAssetByTicker('AAPL')!.address, targetWeightBps: 3000 },
    { ticker: 'SPY', tokenAddress: findAssetByTicker('SPY')!.address, targetWeightBps: 3000 },
    { ticker: 'NVDA', tokenAddress: findAssetByTicker('NVDA')!.address, targetWeightBps: 2000 },
    { ticker: 'USDG', tokenAddress: USDG.address, targetWeightBps: 2000 },
  ];
}

describe('manifests, rebalance policies and receipts', () => {
  it('creates a manifest with the documented default fuses and validates it', async () => {
    const res = await server.call('vaults.createManifest', {
      slug: 'mega-tech',
      name: 'Mega tech',
      allocations: allocations(),
      nowIso: NOW,
    });
    expect(res.status).toBe(200);
    expect(res.json.validation).toEqual({ valid: true, status: 'valid', issues: [] });
    expect(res.json.manifest).toMatchObject({
      manifestVersion: 'vault-manifest-1.0.0',
      chainId: 4663,
      baseAsset: 'USDG',
      liveExecutionAllowed: false,
      feeConfig: { performanceFeeBps: 1000, managementFeeBps: 0 },
    });
    expect(res.json.manifest.fuses).toMatchObject({ maxAllocationPerAssetBps: 3000, minUsdgCashReserveBps: 1000, maxSlippageBps: 50 });
    expect(res.json.manifestHash).toMatch(/^[0-9a-f]{64}$/);
    const again = await server.call('vaults.validateManifest', { manifest: res.json.manifest });
    expect(again.json.manifestHash).toBe(res.json.manifestHash);
    expect(again.json.validation.valid).toBe(true);
  });

  it('an invalid manifest answers 200 with issues: caps, weights, non-canonical assets, fees', async () => {
    const { json } = await server.call('vaults.createManifest', { slug: 'mega-tech', name: 'Mega tech', allocations: allocations() });
    const bad = structuredClone(json.manifest);
    bad.allocations[0].targetWeightBps = 4000; // above the 3000 bps asset cap, sum now 11000
    bad.allocations[1].tokenAddress = '0x' + '22'.repeat(20); // SPY at a look-alike address
    bad.feeConfig.managementFeeBps = 100;
    bad.liveExecutionAllowed = true;
    const res = await server.call('vaults.validateManifest', { manifest: bad });
    expect(res.status).toBe(200);
    expect(res.json.validation.valid).toBe(false);
    const codes = res.json.validation.issues.map((i: { code: string }) => i.code);
    for (const code of [
      'ALLOCATION_ABOVE_ASSET_CAP',
      'TICKER_ADDRESS_MISMATCH',
      'WEIGHTS_SUM',
      'MANAGEMENT_FEE_NOT_SUPPORTED',
      'LIVE_EXECUTION_NOT_ALLOWED',
    ]) {
      expect(codes).toContain(code);
    }
    const shape = await server.call('vaults.validateManifest', { manifest: { slug: 1 } });
    expect(shape.status).toBe(400);
  });

  it("compiles a rebalance policy that is never executable and always needs the user's approval", async () => {
    const { json } = await server.call('vaults.createManifest', { slug: 'mega-tech', name: 'Mega tech', allocations: allocations() });
    const res = await server.call('vaults.compileRebalancePolicy', {
      manifest: json.manifest,
      options: { driftThresholdBps: 300 },
      nowIso: NOW,
    });
    expect(res.status).toBe(200);
    expect(res.json.policy).toMatchObject({
      executable: false,
      requiresUserApproval: true,
      status: 'preview',
      driftThresholdBps: 300,
      manifestHash: json.manifestHash,
      lane: { state: 'inactive_by_owner_policy' },
    });
    expect(res.json.policy.abortConditions).toHaveLength(3);
    const bad = structuredClone(json.manifest);
    bad.allocations[3].targetWeightBps = 500;
    const refused = await server.call('vaults.compileRebalancePolicy', { manifest: bad });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('VAULT_MANIFEST_INVALID');
  });

  it('issues the same receipt for the same manifest and nowIso; refuses anything but exactly one subject', async () => {
    const { json } = await server.call('vaults.createManifest', { slug: 'mega-tech', name: 'Mega tech', allocations: allocations() });
    const r1 = await server.call('vaults.receipt', { manifest: json.manifest, nowIso: NOW });
    const r2 = await server.call('vaults.receipt', { manifest: json.manifest, nowIso: NOW });
    expect(r1.text).toBe(r2.text);
    expect(r1.json.receipt).toMatchObject({
      kind: 'vault_manifest',
      stage: 'PREPARATION',
      status: 'paper',
      subjectHash: json.manifestHash,
      validationStatus: 'valid',
      anchoring: 'paper',
    });
    expect((await server.call('vaults.receipt', {})).status).toBe(400);
  });

  it('a transaction receipt without an RPC stays unverified at PREPARATION', async () => {
    const res = await offline.call('vaults.receipt', { txHash: `0x${'cd'.repeat(32)}`, nowIso: NOW });
    expect(res.json.receipt).toMatchObject({ stage: 'PREPARATION', status: 'unverified' });
    expect(res.json.verification).toMatchObject({
      found: false,
      txStatus: 'unknown',
      chainIdVerified: false,
      confirmedVaultDeposit: false,
    });
    expect(res.json.verification.reason).toMatch(/not configured/);
  });
});

describe('without an RPC', () => {
  it('an unknown gate is closed, never open', async () => {
    const gate = (await offline.call('vaults.readiness')).json.gate;
    expect(gate).toMatchObject({ state: 'UNKNOWN', open: false, source: 'none' });
    const dep = await offline.call('vaults.depositIntent', { slug: V1_VAULT.slug, amountUsdg: '100', receiver: RECEIVER, nowIso: NOW });
    expect(dep.json.error.code).toBe('DEPOSIT_GATE_CLOSED');
  });

  it('builds packs against the registry copy of the pins and says so; status says nothing was verified', async () => {
    const res = await offline.call('partnerbot.prepareCommand', { amountUsdg: '5', receiver: RECEIVER });
    expect(res.status).toBe(200);
    expect(res.json.ackVerification).toMatchObject({ source: 'registry_pinned_copy', chainRead: false, readAddress: null });
    expect(res.json.ackVerification.note).toMatch(/not read/);
    expect(res.json.sourceVerification.find((s: { subject: string }) => s.subject === 'vault ack-hash pins').method).toBe('registry_copy');
    const status = await offline.call('partnerbot.depositStatus', { jobId: `0x${'ab'.repeat(32)}` });
    expect(status.json).toMatchObject({ complete: false, verification: { found: false, txStatus: 'unknown', chainIdVerified: false } });
  });

  it('an unreachable RPC refuses the pack (503 ACK_PIN_UNVERIFIABLE) rather than pretending', async () => {
    const dead = inProcess({ env: { BROKER_CHAIN_RPC_URL: 'http://127.0.0.1:9/closed-rpc-path' } });
    const res = await dead.call('partnerbot.prepareCommand', { amountUsdg: '5', receiver: RECEIVER });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('ACK_PIN_UNVERIFIABLE');
    expect(res.text).not.toContain('closed-rpc-path');
    // Mode C still works: the deposit link needs no chain.
    const link = await dead.call('vaults.depositLink', { slug: V1_VAULT.slug, amount: '5' });
    expect(link.status).toBe(200);
  });
});
