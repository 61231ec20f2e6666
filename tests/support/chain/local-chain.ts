/**
 * A real local EVM node with chain id 4663 (Hardhat's EDR node, from the npm registry) with
 * the project's own test contracts placed at the canonical registry addresses, so tests
 * change only BROKER_CHAIN_RPC_URL. Starting it takes a few seconds.
 *
 *   const chain = await startLocalChain();
 *   startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } })
 *   await chain.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { STOCK_TOKENS, USDG, WETH } from '../../../src/lib/server/registry';
import { freePort, ROOT } from '../server';
import { compileContracts, type Artifact } from './compile';

const require = createRequire(import.meta.url);
const CONFIG = resolve(import.meta.dirname, 'hardhat.config.cjs');
const TEST_KEYS: Hex[] = require(CONFIG).TEST_KEYS;

export const localChain = defineChain({
  id: 4663,
  name: 'broker chain (local test node)',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

export class LocalChain {
  readonly accounts: PrivateKeyAccount[] = TEST_KEYS.map((k) => privateKeyToAccount(k));
  readonly publicClient: PublicClient;
  readonly testClient: TestClient;
  artifacts: Record<string, Artifact> = {};

  constructor(
    /** The RPC URL the service is given (its path carries a marker so a leak is detectable). */
    readonly rpcUrl: string,
    private readonly child: ChildProcess,
  ) {
    const transport = http(rpcUrl, { retryCount: 0 });
    this.publicClient = createPublicClient({ chain: localChain, transport });
    this.testClient = createTestClient({ chain: localChain, mode: 'hardhat', transport });
  }

  /** The private keys of the funded test accounts (for signing in tests only). */
  static readonly privateKeys = TEST_KEYS;

  wallet(index = 0): WalletClient & { account: PrivateKeyAccount } {
    return createWalletClient({
      chain: localChain,
      transport: http(this.rpcUrl, { retryCount: 0 }),
      account: this.accounts[index]!,
    }) as WalletClient & {
      account: PrivateKeyAccount;
    };
  }

  artifact(name: string): Artifact {
    const a = this.artifacts[name];
    if (!a) throw new Error(`no compiled contract ${name}`);
    return a;
  }

  /** Deploys a contract normally and returns its address. */
  async deploy(name: string, args: unknown[] = [], from = 0): Promise<Address> {
    const { abi, bytecode } = this.artifact(name);
    const hash = await this.wallet(from).deployContract({ abi, bytecode, args, account: this.accounts[from]!, chain: localChain });
    const receipt = await this.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${name} failed`);
    return receipt.contractAddress;
  }

  /**
   * Places a contract's runtime code at a fixed address (hardhat_setCode). Constructor state
   * is not copied, which is why the test contracts initialise through a function.
   */
  async placeAt(name: string, address: Address): Promise<Address> {
    await this.testClient.setCode({ address, bytecode: this.artifact(name).deployedBytecode });
    return getAddress(address);
  }

  /** Sends a contract call from a test account and waits for its receipt. */
  async send(address: Address, abi: Abi, functionName: string, args: unknown[] = [], from = 0) {
    const hash = await this.wallet(from).writeContract({
      address,
      abi,
      functionName,
      args,
      account: this.accounts[from]!,
      chain: localChain,
    } as never);
    return this.publicClient.waitForTransactionReceipt({ hash });
  }

  /**
   * Sends a call with a fixed gas limit, skipping gas estimation, so a call that reverts is
   * still mined (status 0x0): for "reverted transaction" tests.
   */
  async sendUnchecked(address: Address, abi: Abi, functionName: string, args: unknown[] = [], from = 0, gas = 300_000n) {
    const hash = await this.wallet(from).writeContract({
      address,
      abi,
      functionName,
      args,
      gas,
      account: this.accounts[from]!,
      chain: localChain,
    } as never);
    return this.publicClient.waitForTransactionReceipt({ hash });
  }

  read<T = unknown>(address: Address, abi: Abi, functionName: string, args: unknown[] = []): Promise<T> {
    return this.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  /** Stops answering (for "the RPC went away mid-way" tests). */
  async kill(): Promise<void> {
    await this.stop();
  }
}

async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return (await res.json()).result === '0x1237';
  } catch {
    return false;
  }
}

export interface StartChainOptions {
  /** Place USDG, WETH and the 15 stock tokens at their canonical addresses (default true). */
  placeRegistryTokens?: boolean;
}

export async function startLocalChain(options: StartChainOptions = {}): Promise<LocalChain> {
  // Compile before the node starts: a compile that misses the cache can take seconds, and a
  // keep-alive RPC socket left idle that long may be closed by the node just as it is reused
  // ("other side closed" on the first hardhat_setCode).
  const artifacts = await compileContracts();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      resolve(ROOT, 'node_modules/hardhat/internal/cli/cli.js'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
      '--config',
      CONFIG,
    ],
    { cwd: ROOT, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs: string[] = [];
  child.stdout!.on('data', (c: Buffer) => logs.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => logs.push(c.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await rpcAnswers(base))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`local chain did not start:\n${logs.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const chain = new LocalChain(`${base}/rpc-${Math.random().toString(36).slice(2, 10)}`, child);
  chain.artifacts = artifacts;
  try {
    if (options.placeRegistryTokens !== false) await placeRegistryTokens(chain);
  } catch (error) {
    // The caller never gets the chain to stop, so the node would outlive the test run.
    await chain.stop();
    throw error;
  }
  return chain;
}

/** USDG (6 decimals, EIP-3009), WETH and every stock/ETF token at its canonical address. */
async function placeRegistryTokens(chain: LocalChain): Promise<void> {
  const token = chain.artifact('TestToken').abi;
  await chain.placeAt('TestUSDG', USDG.address as Address);
  await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'init', [USDG.name, USDG.ticker, 6]);
  for (const asset of [WETH, ...STOCK_TOKENS]) {
    await chain.placeAt('TestToken', asset.address as Address);
    await chain.send(asset.address as Address, token, 'init', [asset.name, asset.ticker, asset.decimals]);
  }
}
