import { encodeAbiParameters, encodeEventTopics, getAddress, type Hex, type TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { scanForExecutionClaims } from '../../src/lib/server/guards/output-guard';
import { findAssetByTicker } from '../../src/lib/server/registry';
import { DEPOSIT_EVENT } from '../../src/lib/server/vaults/abi';
import { ChainReadError, classifyChainError, READ_FAILURE_TEXT, type ChainReader } from '../../src/lib/server/vaults/chain';
import { verifyVaultDeposit } from '../../src/lib/server/vaults/completion';
import { evaluateDepositGate } from '../../src/lib/server/vaults/deposit-gate';
import { V1_VAULT, v2Contract } from '../../src/lib/server/vaults/registry';
import { readVaultV2Status } from '../../src/lib/server/vaults/v2-status';
import { fakeReader, viemError } from '../support/fake-chain-reader';
import { answerTimeAt, serverTimeAt } from '../support/clocks';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const DEPOSITOR = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const OTHER = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc');
const TX = `0x${'12'.repeat(32)}` as Hex;

function depositLog(address: string, receiver: string, assets: bigint) {
  return {
    address,
    topics: encodeEventTopics({ abi: [DEPOSIT_EVENT], eventName: 'Deposit', args: { sender: DEPOSITOR, receiver: receiver as Hex } }),
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [assets, assets]),
    logIndex: 0,
  };
}

function receipt(partial: Omit<Partial<TransactionReceipt>, 'logs'> & { logs?: unknown[] }): TransactionReceipt {
  return {
    status: 'success',
    from: DEPOSITOR,
    to: V1_VAULT.address,
    blockNumber: 100n,
    logs: [],
    ...partial,
  } as unknown as TransactionReceipt;
}

function withReceipt(r: TransactionReceipt | null, extra: Partial<ChainReader> = {}) {
  return fakeReader({ getTransactionReceipt: async () => r, getTransaction: async () => null, getBlockNumber: async () => 105n, ...extra });
}

describe('deposit completion from proof only', () => {
  const expect12 = { vault: V1_VAULT, receiver: DEPOSITOR, amountUnits: 12_000_000n };

  it("complete only for a confirmed tx to the vault with the vault's Deposit event for the receiver and amount", async () => {
    const v = await verifyVaultDeposit(
      withReceipt(receipt({ logs: [depositLog(V1_VAULT.address, DEPOSITOR, 12_000_000n)] })),
      TX,
      expect12,
      NOW,
    );
    expect(v).toMatchObject({
      confirmedVaultDeposit: true,
      txStatus: 'success',
      toIsVault: true,
      receiverMatches: true,
      amountMatches: true,
      confirmations: '6',
    });
    expect(scanForExecutionClaims(v)).toBeUndefined();
  });

  it('each missing condition makes it incomplete', async () => {
    const cases: Array<[string, TransactionReceipt]> = [
      ['reverted', receipt({ status: 'reverted', logs: [] })],
      ['to another contract', receipt({ to: OTHER, logs: [depositLog(OTHER, DEPOSITOR, 12_000_000n)] })],
      ['event from another contract', receipt({ logs: [depositLog(OTHER, DEPOSITOR, 12_000_000n)] })],
      ['no event', receipt({ logs: [] })],
      ['other receiver', receipt({ logs: [depositLog(V1_VAULT.address, OTHER, 12_000_000n)] })],
      ['other amount', receipt({ logs: [depositLog(V1_VAULT.address, DEPOSITOR, 11_999_999n)] })],
    ];
    for (const [name, r] of cases) {
      const v = await verifyVaultDeposit(withReceipt(r), TX, expect12, NOW);
      expect(v.confirmedVaultDeposit, name).toBe(false);
      expect(scanForExecutionClaims(v), name).toBeUndefined();
    }
  });

  it('with no receiver given, the Deposit event must credit the transaction sender', async () => {
    const own = await verifyVaultDeposit(
      withReceipt(receipt({ logs: [depositLog(V1_VAULT.address, DEPOSITOR, 5n)] })),
      TX,
      { vault: V1_VAULT },
      NOW,
    );
    expect(own).toMatchObject({ confirmedVaultDeposit: true, amountMatches: null, expectedReceiver: DEPOSITOR });
    const forOther = await verifyVaultDeposit(
      withReceipt(receipt({ logs: [depositLog(V1_VAULT.address, OTHER, 5n)] })),
      TX,
      { vault: V1_VAULT },
      NOW,
    );
    expect(forOther.confirmedVaultDeposit).toBe(false);
  });

  it('a pending transaction, an unknown one and an unreadable chain are never complete', async () => {
    const pending = await verifyVaultDeposit(
      withReceipt(null, { getTransaction: async () => ({ from: DEPOSITOR, to: V1_VAULT.address }) as never }),
      TX,
      expect12,
      NOW,
    );
    expect(pending).toMatchObject({ found: true, txStatus: 'pending', confirmedVaultDeposit: false });
    const missing = await verifyVaultDeposit(withReceipt(null), TX, expect12, NOW);
    expect(missing).toMatchObject({ found: false, txStatus: 'not_found' });
    const down = await verifyVaultDeposit(
      fakeReader({
        chainId: async () => {
          throw viemError('HttpRequestError');
        },
      }),
      TX,
      expect12,
      NOW,
    );
    expect(down).toMatchObject({ found: false, txStatus: 'unknown', chainIdVerified: false, confirmedVaultDeposit: false });
    expect(down.reason).not.toContain('secret-rpc-path');
    const wrongChain = await verifyVaultDeposit(
      fakeReader({
        chainId: async () => 1,
        getTransactionReceipt: async () => receipt({ logs: [depositLog(V1_VAULT.address, DEPOSITOR, 12_000_000n)] }),
      }),
      TX,
      expect12,
      NOW,
    );
    expect(wrongChain).toMatchObject({ confirmedVaultDeposit: false, chainIdVerified: false });
    expect(wrongChain.reason).toMatch(/chain 4663/);
  });
});

describe('chain error classification never carries the RPC URL', () => {
  it('reduces errors to fixed reason tokens', () => {
    expect(classifyChainError(viemError('HttpRequestError'))).toBe('rpc_unreachable');
    expect(classifyChainError(Object.assign(viemError('HttpRequestError'), { status: 502 }))).toBe('rpc_http_error');
    expect(classifyChainError(viemError('TimeoutError'))).toBe('rpc_timeout');
    expect(classifyChainError(viemError('ContractFunctionExecutionError', viemError('ContractFunctionRevertedError')))).toBe(
      'call_reverted',
    );
    expect(classifyChainError(viemError('ContractFunctionZeroDataError'))).toBe('call_returned_no_data');
    expect(classifyChainError(new ChainReadError('chain_id_mismatch'))).toBe('chain_id_mismatch');
    for (const text of Object.values(READ_FAILURE_TEXT)) expect(text).not.toMatch(/https?:/);
  });
});

describe('deposit gate', () => {
  const flags = { candidate: true, depositTermsReady: true, auditReady: true, blocked: false };
  const reads = (over: Record<string, unknown>) =>
    fakeReader({
      readContract: (async ({ functionName }: { functionName: string }) => {
        const v = { acceptingPublicDeposits: true, getDepositReadiness: flags, totalAssets: 1n, paused: false, ...over }[functionName];
        if (v instanceof Error) throw v;
        return v;
      }) as ChainReader['readContract'],
    });

  it('opens only when every check passes', async () => {
    expect((await evaluateDepositGate(V1_VAULT, reads({}), NOW)).state).toBe('OPEN');
    expect((await evaluateDepositGate(V1_VAULT, reads({ paused: true }), NOW)).state).toBe('PAUSED');
    expect((await evaluateDepositGate(V1_VAULT, reads({ getDepositReadiness: { ...flags, blocked: true } }), NOW)).state).toBe('BLOCKED');
    expect((await evaluateDepositGate(V1_VAULT, reads({ acceptingPublicDeposits: false }), NOW)).state).toBe('BLOCKED');
    expect((await evaluateDepositGate(V1_VAULT, reads({ totalAssets: viemError('ContractFunctionRevertedError') }), NOW)).state).toBe(
      'ORACLE_UNAVAILABLE',
    );
    const unknown = await evaluateDepositGate(V1_VAULT, reads({ paused: viemError('TimeoutError') }), NOW);
    expect(unknown).toMatchObject({ state: 'UNKNOWN', open: false });
    expect(await evaluateDepositGate(V1_VAULT, null, NOW)).toMatchObject({ state: 'UNKNOWN', open: false, source: 'none' });
  });
});

describe('V2 status derivations', () => {
  const aapl = findAssetByTicker('AAPL')!.address;
  type Script = Record<string, unknown>;
  const v2 = (over: Script) =>
    fakeReader({
      getCode: async () => '0x60806040',
      readContract: (async ({ address, functionName, args }: { address: string; functionName: string; args?: unknown[] }) => {
        const key = `${functionName}${args && args.length ? `:${args.map(String).join(',')}` : ''}`;
        const table: Script = {
          paused: false,
          queueActive: true,
          totalAssets: 1_000_000_000n,
          totalSupply: 10n ** 21n,
          usdgCash: 500_000_000n,
          heldAssetCount: 1n,
          'heldAssets:0': aapl,
          pricePerShare: [10n ** 18n, 1],
          pendingRedeemCount: 0n,
          pendingTimelockOps: [[], [], []],
          pendingCount: 0n,
          pendingDepositUsdg: 0n,
          pendingRedemptionShares: 0n,
          settlementActive: true,
          keeperActive: true,
          rebalanceActive: false,
          liveness: [4, true, true, 4663n, 5n, 10n, 'ok'],
          [`maxSafeBuyNotionalUsdg:${aapl}`]: [true, 2_000_000_000n, 0],
          [`maxSafeSellNotionalUsdg:${aapl}`]: [true, 3_000_000_000n, 0],
          [`executionMode:${aapl}`]: 1,
          [`limitingFuse:${aapl},0`]: 2,
          [`limitingFuse:${aapl},1`]: 3,
          'receiptCountByStage:1': 0n,
          'receiptCountByStage:2': 0n,
          [`isEnabled:${aapl}`]: true,
          ...over,
        };
        void address;
        if (!(key in table)) throw viemError('ContractFunctionZeroDataError');
        const v = table[key];
        if (v instanceof Error) throw v;
        return v;
      }) as ChainReader['readContract'],
    });

  it('redemption capacity is the smaller of sell capacity and USDG cash, with the matching fuse', async () => {
    const s = await readVaultV2Status(v2({}), { answerTime: answerTimeAt(NOW), serverTime: serverTimeAt(NOW) });
    expect(s.immediateDepositCapacityUsdg).toMatchObject({ state: 'live', usdg: '2000' });
    expect(s.immediateUsdgRedemptionCapacityUsdg).toMatchObject({ state: 'live', usdg: '500', limitingAssetTicker: 'USDG' });
    expect(s.limitingFuse.redemption).toMatchObject({ state: 'live', value: 'usdg_cash_buffer' });
    expect(s.limitingFuse.deposit).toMatchObject({ state: 'live', value: 'twap' });
    const moreCash = await readVaultV2Status(v2({ usdgCash: 9_000_000_000n }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(moreCash.immediateUsdgRedemptionCapacityUsdg).toMatchObject({ usdg: '3000', limitingAssetTicker: 'AAPL' });
    expect(moreCash.limitingFuse.redemption).toMatchObject({ value: 'peg' });
    expect(scanForExecutionClaims(s)).toBeUndefined();
  });

  it('a live zero capacity stays a live zero; an unknown one is unknown, never zero', async () => {
    const zero = await readVaultV2Status(v2({ [`maxSafeBuyNotionalUsdg:${aapl}`]: [true, 0n, 4] }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(zero.immediateDepositCapacityUsdg).toMatchObject({ state: 'live', usdg: '0' });
    const unknown = await readVaultV2Status(v2({ [`maxSafeBuyNotionalUsdg:${aapl}`]: [false, 0n, 4] }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(unknown.immediateDepositCapacityUsdg).toMatchObject({ state: 'unknown' });
    expect(unknown.immediateDepositCapacityUsdg).not.toHaveProperty('usdg');
  });

  it('an unset enum (code 0) is unknown, not the first value', async () => {
    const s = await readVaultV2Status(v2({ [`executionMode:${aapl}`]: 0, [`limitingFuse:${aapl},0`]: 0 }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(s.heldAssets.state === 'live' && s.heldAssets.value[0]!.executionMode.state).toBe('unknown');
    expect(s.mode.state).toBe('unknown');
    expect(s.limitingFuse.deposit.state).toBe('unknown');
  });

  it('a failed held-asset read makes the capacities and MODE unknown', async () => {
    const s = await readVaultV2Status(v2({ heldAssetCount: viemError('TimeoutError') }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(s.heldAssets).toMatchObject({ state: 'unknown', reasonCode: 'rpc_timeout' });
    expect(s.immediateDepositCapacityUsdg.state).toBe('unknown');
    expect(s.immediateUsdgRedemptionCapacityUsdg.state).toBe('unknown');
    expect(s.mode.state).toBe('unknown');
    expect(s.readSummary.overall).toBe('partial');
  });

  it('a timelock operation the read gives no ETA for is unknown (null ETA, ready null), never epoch 0 and ready', async () => {
    const ids = [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`, `0x${'03'.repeat(32)}`];
    const s = await readVaultV2Status(v2({ pendingTimelockOps: [ids, ['known', 'zero'], [1_000n, 0n]] }), {
      answerTime: answerTimeAt(NOW),
      serverTime: serverTimeAt(NOW),
    });
    expect(s.timelock.state).toBe('live');
    const ops = s.timelock.state === 'live' ? s.timelock.value : [];
    expect(ops[0]).toMatchObject({ label: 'known', etaUnix: '1000', eta: '1970-01-01T00:16:40.000Z', ready: true, etaUnknownReason: null });
    for (const op of ops.slice(1)) {
      expect(op).toMatchObject({ etaUnix: null, eta: null, ready: null });
      expect(op.etaUnknownReason).toMatch(/\S/);
    }
    expect(ops[2]!.label).toBeNull();
  });

  it('rebalancing is inactive by owner policy even when the chain flag reads true', async () => {
    const s = await readVaultV2Status(v2({ rebalanceActive: true }), { answerTime: answerTimeAt(NOW), serverTime: serverTimeAt(NOW) });
    expect(s.rebalancing).toMatchObject({
      state: 'inactive_by_owner_policy',
      faultState: false,
      onchainRebalanceFlag: { state: 'live', value: true },
    });
    expect(s.lanes.find((l) => l.lane === 'chunked_rebalance')!.state).toBe('inactive_by_owner_policy');
    expect(s.suite.find((c) => c.role === 'vault')!.address).toBe(v2Contract('vault').address);
  });
});
