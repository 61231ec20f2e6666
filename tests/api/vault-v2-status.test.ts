/**
 * GET /api/vaults/v2/status through the real server against the project's own reference V2
 * suite on the local chain: live values first, then a suite contract gone, then the chain
 * stopped mid-way. A failed read is unknown with a reason: never a number, never zero, never
 * live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker } from '../../src/lib/server/registry';
import { v2Contract, V2_SUITE } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV2Suite, V2_FIXTURE } from '../support/chain/vaults';
import { startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let server: TestServer;
let offline: TestServer;

const NOW = '2026-11-22T10:00:00.000Z';

beforeAll(async () => {
  chain = await startLocalChain();
  await placeV2Suite(chain);
  [server, offline] = await Promise.all([startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } }), startServer()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), offline?.stop()]);
  await chain?.stop();
});

type Json = Record<string, any>;

/** Every object in the record that claims `state: "unknown"` must carry a reason and no value. */
function unknownReadings(node: unknown, path = '', out: Array<{ path: string; node: Json }> = []) {
  if (Array.isArray(node)) node.forEach((child, i) => unknownReadings(child, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    const obj = node as Json;
    if (obj.state === 'unknown') out.push({ path, node: obj });
    for (const [k, v] of Object.entries(obj)) unknownReadings(v, path ? `${path}.${k}` : k, out);
  }
  return out;
}

function expectHonestUnknowns(body: Json) {
  for (const { path, node } of unknownReadings(body)) {
    expect(node.reason, path).toMatch(/\S/);
    expect(node, path).not.toHaveProperty('value');
    expect(node, path).not.toHaveProperty('usdg');
    expect(node, path).not.toHaveProperty('units');
  }
}

describe('V2 status with the suite live', () => {
  it('a timelock operation is ready only on the server clock: a nowIso past its ETA pins readAt, not readiness', async () => {
    const after = '2031-01-01T00:00:00.000Z'; // after the fixture's ETA (1900000000 = March 2030)
    const res = await server.get(`/api/vaults/v2/status?nowIso=${after}`);
    expect(res.status).toBe(200);
    expect(res.json.readAt).toBe(after);
    expect(res.json.timelock.value[0]).toMatchObject({ etaUnix: '1900000000', ready: false });
  });

  it('reads every named field from the chain', async () => {
    const res = await server.get(`/api/vaults/v2/status?nowIso=${NOW}`);
    expect(res.status).toBe(200);
    const s = res.json;
    expect(s).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false, statusVersion: 'svc-vault-v2-status-1.0.0', readAt: NOW });
    expect(s.chain.state).toBe('verified');
    expect(s.readSummary.overall).toBe('live');
    expect(s.readSummary.unknown).toBe(0);
    expect(s.vault).toMatchObject({ address: v2Contract('vault').address, lifecycle: 'canonical_v2' });

    expect(s.suite).toHaveLength(9);
    for (const c of s.suite) expect(c.codePresent).toMatchObject({ state: 'live', value: true });

    // Capacities: deposit = the smallest buy capacity (NVDA 8000); redemption = min(smallest
    // sell 45000, cash 40000) = 40000, limited by the USDG cash buffer.
    expect(s.immediateDepositCapacityUsdg).toMatchObject({
      state: 'live',
      usdg: V2_FIXTURE.nvda.buyUsdg,
      units: '8000000000',
      limitingAssetTicker: 'NVDA',
    });
    expect(s.immediateUsdgRedemptionCapacityUsdg).toMatchObject({
      state: 'live',
      usdg: V2_FIXTURE.usdgCashUsdg,
      limitingAssetTicker: 'USDG',
    });
    expect(s.limitingFuse.deposit).toMatchObject({ state: 'live', value: 'manipulation_cost' });
    expect(s.limitingFuse.redemption).toMatchObject({ state: 'live', value: 'usdg_cash_buffer' });

    expect(s.mode).toMatchObject({ state: 'live', value: 'SINGLE_VENUE_BOUNDED' });
    const nvda = s.heldAssets.value.find((a: Json) => a.ticker === 'NVDA');
    expect(nvda.token).toBe(findAssetByTicker('NVDA')!.address);
    expect(nvda.executionMode).toMatchObject({
      state: 'live',
      value: 'SINGLE_VENUE_BOUNDED',
      source: { interface: 'expected_unpublished' },
    });
    expect(nvda.buyCapacityUsdg).toMatchObject({
      state: 'live',
      value: { usdg: '8000' },
      source: { contract: 'price_mesh', interface: 'published' },
    });
    expect(s.heldAssets.value.find((a: Json) => a.ticker === 'AAPL').executionMode.value).toBe('MULTI_VENUE_EXECUTABLE');

    expect(s.liveness).toMatchObject({ state: 'live', value: { state: 'OK', executionAllowed: true, observedChainId: '4663' } });
    expect(s.keeper.state).toBe('HEALTHY');
    expect(s.lanes.map((l: Json) => [l.lane, l.state])).toEqual([
      ['instant_bounded_usdg_deposit', 'open'],
      ['queued_usdg_deposit', 'open'],
      ['queued_usdg_redemption', 'open'],
      ['in_kind_redemption', 'open'],
      ['chunked_rebalance', 'inactive_by_owner_policy'],
    ]);
    expect(s.stageLadder.map((st: Json) => st.stage)).toEqual(['PREPARATION', 'SUBMISSION', 'SETTLEMENT']);
    expect(s.stageLadder[1].onchainCount).toMatchObject({ state: 'live', value: '3' });
    expect(s.stageLadder[1].openQueueRequests).toMatchObject({ state: 'live', value: '3' });
    expect(s.stageLadder[2].onchainCount).toMatchObject({ state: 'live', value: '17' });
    expect(s.timelock).toMatchObject({
      state: 'live',
      value: [
        {
          id: V2_FIXTURE.timelock.id,
          label: V2_FIXTURE.timelock.label,
          etaUnix: '1900000000',
          eta: new Date(1_900_000_000_000).toISOString(),
          ready: false,
        },
      ],
    });
    expect(s.usdgCash).toMatchObject({ state: 'live', value: { usdg: '40000' } });
    expect(s.navUsdg).toMatchObject({ state: 'live', value: { usdg: '250000' } });
    expect(s.queue.pendingDepositUsdg).toMatchObject({ state: 'live', value: { usdg: '1500' } });

    expect(s.rebalancing).toMatchObject({ state: 'inactive_by_owner_policy', active: false, byOwnerPolicy: true, faultState: false });
    expect(s.rebalancing.reason).toMatch(/only one stock token is currently execution-grade/i);
    expect(JSON.stringify(s.rebalancing)).not.toMatch(/degraded/i);
    expect(s.vaultChain.chainId).toBe(4663);
    expect(s.sourceVerification.some((v: Json) => v.method === 'live_chain_read' && v.lastVerified === NOW)).toBe(true);
  });

  it('reports the lanes honestly when the keeper is off and liveness halts execution', async () => {
    const settler = chain.artifact('TestBatchSettler').abi;
    const liveness = chain.artifact('TestLiveness').abi;
    await chain.send(v2Contract('batch_settler').address, settler, 'setFlags', [true, false, false]);
    await chain.send(v2Contract('liveness').address, liveness, 'setLiveness', [2, false, true, 900n, 0n, 'heartbeat stale']);
    try {
      const s = (await server.get('/api/vaults/v2/status')).json;
      expect(s.keeper.state).toBe('INACTIVE');
      expect(s.lanes[0]).toMatchObject({ lane: 'instant_bounded_usdg_deposit', state: 'inactive' });
      expect(s.limitingFuse.deposit).toMatchObject({ state: 'live', value: 'liveness' });
      expect(s.liveness.value).toMatchObject({ state: 'STALE', executionAllowed: false });
      expect(s.rebalancing.state).toBe('inactive_by_owner_policy');
    } finally {
      await chain.send(v2Contract('batch_settler').address, settler, 'setFlags', [true, true, false]);
      await chain.send(v2Contract('liveness').address, liveness, 'setLiveness', [4, true, true, 12n, 30n, 'heartbeat fresh']);
    }
  });

  it('a price mesh that reports a capacity as unknown makes the capacity unknown, not zero', async () => {
    const mesh = chain.artifact('TestPriceMeshV2').abi;
    const nvda = findAssetByTicker('NVDA')!.address;
    await chain.send(v2Contract('price_mesh').address, mesh, 'setCapacity', [nvda, true, false, 0n, 3]);
    try {
      const s = (await server.get('/api/vaults/v2/status')).json;
      expect(s.immediateDepositCapacityUsdg.state).toBe('unknown');
      expect(s.immediateDepositCapacityUsdg.reason).toMatch(/NVDA/);
      expect(s.limitingFuse.deposit.state).toBe('unknown');
      expect(s.lanes[0].state).toBe('unknown');
      expect(s.immediateUsdgRedemptionCapacityUsdg.state).toBe('live');
      expectHonestUnknowns(s);
    } finally {
      await chain.send(v2Contract('price_mesh').address, mesh, 'setCapacity', [nvda, true, true, 8_000_000_000n, 0]);
    }
  });

  it('a suite contract without code gives unknown readings for its values only', async () => {
    const policy = v2Contract('risk_policy').address;
    const saved = await chain.publicClient.getCode({ address: policy });
    await chain.testClient.setCode({ address: policy, bytecode: '0x' });
    try {
      const s = (await server.get('/api/vaults/v2/status')).json;
      expect(s.readSummary.overall).toBe('partial');
      expect(s.suite.find((c: Json) => c.role === 'risk_policy').codePresent).toMatchObject({ state: 'live', value: false });
      expect(s.mode.state).toBe('unknown');
      for (const a of s.heldAssets.value) {
        expect(a.executionMode).toMatchObject({ state: 'unknown', reasonCode: 'call_returned_no_data' });
        expect(a.depositLimitingFuse.state).toBe('unknown');
      }
      expect(s.limitingFuse.deposit.state).toBe('unknown');
      // Capacities come from the price mesh, which still answers.
      expect(s.immediateDepositCapacityUsdg).toMatchObject({ state: 'live', usdg: '8000' });
      expectHonestUnknowns(s);
    } finally {
      await chain.testClient.setCode({ address: policy, bytecode: saved! });
    }
    expect((await server.get('/api/vaults/v2/status')).json.readSummary.overall).toBe('live');
  });

  // Last in this block: the reference vault has no way to remove the operation it adds.
  it('a timelock operation whose ETA reads 0 (unset) has an unknown ETA: null, never 1970 and never ready', async () => {
    const vault = chain.artifact('TestVaultV2').abi;
    const id = `0x${'ab'.repeat(32)}`;
    await chain.send(v2Contract('vault').address, vault, 'addTimelockOp', [id, 'fee parameter update', 0n]);
    const s = (await server.get(`/api/vaults/v2/status?nowIso=${NOW}`)).json;
    expect(s.timelock.state).toBe('live');
    expect(s.timelock.value[0]).toMatchObject({ etaUnix: '1900000000', ready: false, etaUnknownReason: null });
    expect(s.timelock.value[1]).toEqual({
      id,
      label: 'fee parameter update',
      etaUnix: null,
      eta: null,
      ready: null,
      etaUnknownReason: expect.stringMatching(/unset/),
    });
  });
});

describe('V2 status without a usable chain', () => {
  it('with no RPC configured, every reading is unknown with the reason', async () => {
    const res = await offline.get(`/api/vaults/v2/status?nowIso=${NOW}`);
    expect(res.status).toBe(200);
    const s = res.json;
    expect(s.chain.state).toBe('unusable');
    expect(s.readSummary).toMatchObject({ live: 0, overall: 'unknown' });
    expect(s.immediateDepositCapacityUsdg.state).toBe('unknown');
    expect(s.immediateUsdgRedemptionCapacityUsdg.state).toBe('unknown');
    expect(s.usdgCash).toMatchObject({ state: 'unknown', reasonCode: 'rpc_not_configured' });
    expect(s.sourceVerification.some((v: Json) => v.method === 'live_chain_read')).toBe(false);
    expectHonestUnknowns(s);
  });

  it('after live values, the chain stopped mid-way: everything is unknown with reasons, never zero and never live', async () => {
    const before = (await server.get('/api/vaults/v2/status')).json;
    expect(before.immediateDepositCapacityUsdg.state).toBe('live');
    await chain.stop();
    const res = await server.get('/api/vaults/v2/status');
    expect(res.status).toBe(200);
    const s = res.json;
    expect(s.chain.state).toBe('unusable');
    expect(s.chain.reason).toMatch(/could not be reached|did not answer/);
    expect(s.readSummary).toMatchObject({ live: 0, overall: 'unknown' });
    for (const key of [
      'immediateDepositCapacityUsdg',
      'immediateUsdgRedemptionCapacityUsdg',
      'mode',
      'liveness',
      'usdgCash',
      'navUsdg',
      'timelock',
      'heldAssets',
    ]) {
      expect(s[key].state, key).toBe('unknown');
    }
    expect(s.limitingFuse.deposit.state).toBe('unknown');
    expect(s.limitingFuse.redemption.state).toBe('unknown');
    expect(s.keeper.state).toBe('UNKNOWN');
    for (const lane of s.lanes.slice(0, 4)) expect(lane.state).toBe('unknown');
    expect(s.suite).toHaveLength(V2_SUITE.length);
    for (const c of s.suite) expect(c.codePresent.state).toBe('unknown');
    expect(s.rebalancing.state).toBe('inactive_by_owner_policy');
    expectHonestUnknowns(s);
    // No reading anywhere claims a USDG figure once the chain is gone.
    expect(res.text).not.toMatch(/"usdg":"/);
    expect(res.text).not.toContain(new URL(chain.rpcUrl).pathname);
  });
});
