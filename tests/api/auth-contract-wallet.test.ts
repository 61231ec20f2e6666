/**
 * Sign-In with Ethereum for contract wallets (ERC-1271, and ERC-6492 for a wallet not
 * deployed yet) on a real local chain 4663, through the real server with
 * BROKER_CHAIN_RPC_URL set. Without the RPC, the same signature is refused.
 */
import { encodeAbiParameters, encodeFunctionData, getAddress, getContractAddress, keccak256, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { serializeErc6492Signature } from 'viem/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { freePort, startServer, type TestServer } from '../support/server';
import { WALLET_A, getNonce, signIn, siweMessage, verify } from '../support/siwe';

const OWNER = privateKeyToAccount(keccak256(toHex('svc-contract-wallet-owner')));
const STRANGER = privateKeyToAccount(keccak256(toHex('svc-contract-wallet-stranger')));

let chain: LocalChain;
let withRpc: TestServer;
let withoutRpc: TestServer;
let deadRpc: TestServer;
let deployedWallet: Address;
let factory: Address;

beforeAll(async () => {
  chain = await startLocalChain({ placeRegistryTokens: false });
  deployedWallet = getAddress(await chain.deploy('TestSmartWallet', [OWNER.address]));
  factory = getAddress(await chain.deploy('TestSmartWalletFactory'));
  const closedPort = await freePort();
  [withRpc, withoutRpc, deadRpc] = await Promise.all([
    startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } }),
    startServer(),
    startServer({ env: { BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${closedPort}/rpc-secret-path` } }),
  ]);
});
afterAll(async () => {
  await Promise.all([withRpc?.stop(), withoutRpc?.stop(), deadRpc?.stop()]);
  await chain?.stop();
});

/** A message naming `address`, signed by `signer` (the wallet's owner signs for the wallet). */
async function signedFor(server: TestServer, address: Address, signer = OWNER, chainId = 4663) {
  const nonce = await getNonce(server);
  const message = siweMessage(server, { address } as never, nonce, { chainId });
  return { message, signature: await signer.signMessage({ message }) };
}

describe('contract wallets', () => {
  it('ERC-1271: a deployed wallet signs in through its owner; the session names the wallet', async () => {
    const res = await verify(withRpc, await signedFor(withRpc, deployedWallet));
    expect(res.status, res.text).toBe(200);
    expect(res.json.address).toBe(deployedWallet);
    expect(res.text).not.toContain(chain.rpcUrl);
  });

  it("ERC-1271: a signature by someone other than the wallet's owner is 401 SIWE_SIGNATURE_INVALID", async () => {
    const res = await verify(withRpc, await signedFor(withRpc, deployedWallet, STRANGER));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('without BROKER_CHAIN_RPC_URL the contract-wallet signature is refused (EOAs only)', async () => {
    const res = await verify(withoutRpc, await signedFor(withoutRpc, deployedWallet));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('a contract wallet cannot sign in with a chain-1 message (only the broker chain can be checked)', async () => {
    const res = await verify(withRpc, await signedFor(withRpc, deployedWallet, OWNER, 1));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('ERC-6492: a wallet that is not deployed yet signs in with a wrapped signature', async () => {
    const salt = keccak256(toHex('svc-6492-salt'));
    const { bytecode } = chain.artifact('TestSmartWallet');
    const initCode = `${bytecode}${encodeAbiParameters([{ type: 'address' }], [OWNER.address]).slice(2)}` as const;
    const counterfactual = getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode: initCode });
    expect(await chain.publicClient.getCode({ address: counterfactual })).toBeUndefined();

    const { message, signature } = await signedFor(withRpc, counterfactual);
    const wrapped = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi: chain.artifact('TestSmartWalletFactory').abi, functionName: 'deploy', args: [OWNER.address, salt] }),
      signature,
    });
    const res = await verify(withRpc, { message, signature: wrapped });
    expect(res.status, res.text).toBe(200);
    expect(res.json.address).toBe(counterfactual);
    // The check ran as a read-only call: the wallet is still not deployed.
    expect(await chain.publicClient.getCode({ address: counterfactual })).toBeUndefined();

    const stranger = await signedFor(withRpc, counterfactual, STRANGER);
    const wrappedStranger = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi: chain.artifact('TestSmartWalletFactory').abi, functionName: 'deploy', args: [OWNER.address, salt] }),
      signature: stranger.signature,
    });
    const refused = await verify(withRpc, { message: stranger.message, signature: wrappedStranger });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('an unreachable chain RPC: a contract-wallet signature gets 503 SIWE_SIGNATURE_CHECK_UNAVAILABLE (not a false refusal); EOAs still sign in', async () => {
    const res = await verify(deadRpc, await signedFor(deadRpc, deployedWallet));
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('SIWE_SIGNATURE_CHECK_UNAVAILABLE');
    expect(res.text).not.toContain('rpc-secret-path');
    const eoa = await signIn(deadRpc, WALLET_A);
    expect(eoa.response.json.address).toBe(WALLET_A.address);
  });
});
