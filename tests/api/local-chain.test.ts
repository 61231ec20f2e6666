/**
 * The local chain the chain-backed tests share: chain id 4663, the registry tokens at their
 * canonical addresses, USDG's EIP-3009 transferWithAuthorization, and the service reading it.
 */
import { getAddress, parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let server: TestServer;

beforeAll(async () => {
  chain = await startLocalChain();
  server = await startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } });
});
afterAll(async () => {
  await server?.stop();
  await chain?.stop();
});

describe('local chain', () => {
  it('serves chain id 4663 and the service reports it reachable without disclosing the URL', async () => {
    expect(await chain.publicClient.getChainId()).toBe(4663);
    const res = await server.get('/api/readiness');
    expect(res.json.chain.state).toBe('reachable');
    expect(res.text).not.toContain(new URL(chain.rpcUrl).pathname);
  });

  it('holds the registry tokens at their canonical addresses with the right decimals', async () => {
    const abi = chain.artifact('TestToken').abi;
    expect(await chain.read(USDG.address as Address, abi, 'decimals')).toBe(6);
    const nvda = findAssetByTicker('NVDA')!;
    expect(await chain.read(nvda.address as Address, abi, 'decimals')).toBe(18);
    expect(await chain.read(nvda.address as Address, abi, 'symbol')).toBe('NVDA');
  });

  it('moves a stock token with a real transfer', async () => {
    const nvda = findAssetByTicker('NVDA')!.address as Address;
    const abi = chain.artifact('TestToken').abi;
    const [a, b] = chain.accounts;
    await chain.send(nvda, abi, 'mint', [a!.address, parseUnits('5', 18)]);
    const receipt = await chain.send(nvda, abi, 'transfer', [b!.address, parseUnits('2', 18)]);
    expect(receipt.status).toBe('success');
    expect(await chain.read(nvda, abi, 'balanceOf', [b!.address])).toBe(parseUnits('2', 18));
  });

  it('USDG accepts an EIP-3009 transferWithAuthorization signed by the payer and refuses its replay', async () => {
    const abi = chain.artifact('TestUSDG').abi;
    const usdg = USDG.address as Address;
    const payer = chain.accounts[2]!;
    const payee = chain.accounts[3]!.address;
    await chain.send(usdg, abi, 'mint', [payer.address, 10_000_000n]);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const message = {
      from: payer.address,
      to: payee,
      value: 1_500_000n,
      validAfter: 0n,
      validBefore: now + 3600n,
      nonce: ('0x' + '42'.repeat(32)) as Hex,
    };
    const signature = await payer.signTypedData({
      domain: { name: USDG.name, version: '1', chainId: 4663, verifyingContract: getAddress(usdg) },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message,
    });
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature];
    const ok = await chain.send(usdg, abi, 'transferWithAuthorization', args, 5);
    expect(ok.status).toBe('success');
    expect(await chain.read(usdg, abi, 'balanceOf', [payee])).toBe(1_500_000n);
    const replay = await chain.sendUnchecked(usdg, abi, 'transferWithAuthorization', args, 5);
    expect(replay.status).toBe('reverted');
    expect(await chain.read(usdg, abi, 'balanceOf', [payee])).toBe(1_500_000n);
  });
});
