/**
 * Places the project's own reference vault contracts on the local chain at the vault
 * registry's fixed addresses: the V1 vault (ack-gated `depositWithAcks`), its access policy
 * and deposit-readiness registry, and the V2 suite with a known state. Only
 * BROKER_CHAIN_RPC_URL changes for the service.
 */
import { keccak256, parseUnits, toHex, type Abi, type Address, type Hex } from 'viem';
import { findAssetByTicker, USDG } from '../../../src/lib/server/registry';
import { ACK_HASHES, V1_VAULT, v2Contract } from '../../../src/lib/server/vaults/registry';
import type { LocalChain } from './local-chain';

export const usdgUnits = (amount: string) => parseUnits(amount, 6);

export interface PlacedV1 {
  vault: Address;
  vaultAbi: Abi;
  usdgAbi: Abi;
  setReadiness(ready: boolean): Promise<void>;
  setPinnedAcks(risk: Hex, jurisdiction: Hex): Promise<void>;
  restorePinnedAcks(): Promise<void>;
}

export async function placeV1Vault(chain: LocalChain, options: { depositReady?: boolean } = {}): Promise<PlacedV1> {
  const vault = V1_VAULT.address;
  const vaultAbi = chain.artifact('TestUsdgVaultV1').abi;
  await chain.placeAt('TestUsdgVaultV1', vault);
  await chain.send(vault, vaultAbi, 'init', [USDG.address, ACK_HASHES.risk, ACK_HASHES.jurisdiction]);

  const policyAbi = chain.artifact('TestVaultAccessPolicy').abi;
  await chain.placeAt('TestVaultAccessPolicy', V1_VAULT.accessPolicyAddress);
  await chain.send(V1_VAULT.accessPolicyAddress, policyAbi, 'setVaultPolicy', [vault, false, ACK_HASHES.risk, ACK_HASHES.jurisdiction]);

  const readinessAbi = chain.artifact('TestDepositReadinessRegistry').abi;
  await chain.placeAt('TestDepositReadinessRegistry', V1_VAULT.depositReadinessRegistryAddress);
  const setReadiness = async (ready: boolean) => {
    await chain.send(V1_VAULT.depositReadinessRegistryAddress, readinessAbi, 'setDepositReadiness', [vault, true, ready, ready, false]);
  };
  await setReadiness(options.depositReady ?? false);

  return {
    vault,
    vaultAbi,
    usdgAbi: chain.artifact('TestUSDG').abi,
    setReadiness,
    setPinnedAcks: async (risk, jurisdiction) => {
      await chain.send(vault, vaultAbi, 'setPinnedAcks', [risk, jurisdiction]);
    },
    restorePinnedAcks: async () => {
      await chain.send(vault, vaultAbi, 'setPinnedAcks', [ACK_HASHES.risk, ACK_HASHES.jurisdiction]);
    },
  };
}

/** The V2 suite's known state in the tests (and the numbers the status must show). */
export const V2_FIXTURE = {
  totalAssetsUsdg: '250000',
  usdgCashUsdg: '40000',
  totalSupply: 240_000n * 10n ** 18n,
  aapl: { buyUsdg: '12500', sellUsdg: '60000', mode: 1, buyFuse: 2, sellFuse: 4 },
  nvda: { buyUsdg: '8000', sellUsdg: '45000', mode: 2, buyFuse: 5, sellFuse: 3 },
  queue: { pendingCount: 3n, pendingDepositUsdg: '1500', pendingRedemptionShares: 2n * 10n ** 18n },
  receipts: { submission: 3n, settlement: 17n },
  timelock: { id: keccak256(toHex('risk-policy-update-1')), label: 'risk policy parameter update', etaUnix: 1_900_000_000n },
};

export async function placeV2Suite(chain: LocalChain): Promise<void> {
  const aapl = findAssetByTicker('AAPL')!.address as Address;
  const nvda = findAssetByTicker('NVDA')!.address as Address;
  const at = (role: Parameters<typeof v2Contract>[0]) => v2Contract(role).address;
  const place = async (name: string, role: Parameters<typeof v2Contract>[0]) => {
    await chain.placeAt(name, at(role));
    return chain.artifact(name).abi;
  };

  const vaultAbi = await place('TestVaultV2', 'vault');
  await chain.send(at('vault'), vaultAbi, 'setState', [
    false,
    true,
    usdgUnits(V2_FIXTURE.totalAssetsUsdg),
    V2_FIXTURE.totalSupply,
    usdgUnits(V2_FIXTURE.usdgCashUsdg),
  ]);
  await chain.send(at('vault'), vaultAbi, 'setHeldAssets', [[aapl, nvda]]);
  await chain.send(at('vault'), vaultAbi, 'setPricePerShare', [1_041_666_666_666_666_666n, 1]);
  await chain.send(at('vault'), vaultAbi, 'addTimelockOp', [
    V2_FIXTURE.timelock.id,
    V2_FIXTURE.timelock.label,
    V2_FIXTURE.timelock.etaUnix,
  ]);

  const queueAbi = await place('TestRequestQueue', 'request_queue');
  await chain.send(at('request_queue'), queueAbi, 'setState', [
    false,
    V2_FIXTURE.queue.pendingCount,
    usdgUnits(V2_FIXTURE.queue.pendingDepositUsdg),
    V2_FIXTURE.queue.pendingRedemptionShares,
  ]);

  const settlerAbi = await place('TestBatchSettler', 'batch_settler');
  await chain.send(at('batch_settler'), settlerAbi, 'setFlags', [true, true, false]);

  const livenessAbi = await place('TestLiveness', 'liveness');
  await chain.send(at('liveness'), livenessAbi, 'setLiveness', [4, true, true, 12n, 30n, 'heartbeat fresh']);

  const meshAbi = await place('TestPriceMeshV2', 'price_mesh');
  for (const [token, f] of [
    [aapl, V2_FIXTURE.aapl],
    [nvda, V2_FIXTURE.nvda],
  ] as const) {
    await chain.send(at('price_mesh'), meshAbi, 'setCapacity', [token, true, true, usdgUnits(f.buyUsdg), 0]);
    await chain.send(at('price_mesh'), meshAbi, 'setCapacity', [token, false, true, usdgUnits(f.sellUsdg), 0]);
  }

  const policyAbi = await place('TestV2RiskPolicy', 'risk_policy');
  for (const [token, f] of [
    [aapl, V2_FIXTURE.aapl],
    [nvda, V2_FIXTURE.nvda],
  ] as const) {
    await chain.send(at('risk_policy'), policyAbi, 'setExecutionMode', [token, f.mode]);
    await chain.send(at('risk_policy'), policyAbi, 'setLimitingFuse', [token, 0, f.buyFuse]);
    await chain.send(at('risk_policy'), policyAbi, 'setLimitingFuse', [token, 1, f.sellFuse]);
  }

  const receiptsAbi = await place('TestV2ReceiptRegistry', 'receipt_registry');
  await chain.send(at('receipt_registry'), receiptsAbi, 'setReceiptCount', [1, V2_FIXTURE.receipts.submission]);
  await chain.send(at('receipt_registry'), receiptsAbi, 'setReceiptCount', [2, V2_FIXTURE.receipts.settlement]);

  const assetsAbi = await place('TestV2AssetRegistry', 'asset_registry');
  await chain.send(at('asset_registry'), assetsAbi, 'setEnabled', [aapl, true]);
  await chain.send(at('asset_registry'), assetsAbi, 'setEnabled', [nvda, true]);

  await place('TestV2ExecutionAdapter', 'execution_adapter');
}
