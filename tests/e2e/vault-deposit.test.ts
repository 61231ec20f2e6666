/**
 * Mode C in real Chromium: the deposit widget opens with the amount prefilled, asks for both
 * acknowledgments, prepares the two calls, hands them to the browser wallet (an EIP-1193
 * provider whose signing happens in the test, with a local-chain test account), and shows
 * completion only once the chain proves the deposit.
 */
import type { Browser } from 'playwright-core';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits } from '../support/chain/vaults';
import { startServer, type TestServer } from '../support/server';

const DEPOSITOR = 3;
let chain: LocalChain | undefined;
let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  chain = await startLocalChain();
  const v1 = await placeV1Vault(chain);
  await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[DEPOSITOR]!.address, usdgUnits('100')]);
  server = await startServer({ allowPostgres: false, env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chain?.stop();
});

describe('deposit widget (Mode C)', () => {
  it('prefills the amount, requires both acks, and reports completion from the chain', async (ctx) => {
    if (skipReason) return ctx.skip();
    const receiver = chain!.accounts[DEPOSITOR]!.address;
    const page = await browser!.newPage();
    // The "wallet": the page asks, the test account signs and sends on the local chain.
    await page.exposeFunction('svcTestSendTransaction', async (tx: { from: Address; to: Address; data: Hex }) => {
      const wallet = chain!.wallet(DEPOSITOR);
      if (tx.from.toLowerCase() !== wallet.account.address.toLowerCase()) throw new Error('unexpected signer');
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, account: wallet.account, chain: wallet.chain });
      await chain!.publicClient.waitForTransactionReceipt({ hash });
      return hash;
    });
    await page.addInitScript(`window.ethereum = { request: async ({ method, params }) => {
      if (method === 'eth_requestAccounts') return ['${receiver}'];
      if (method === 'eth_sendTransaction') return window.svcTestSendTransaction(params[0]);
      throw new Error('unsupported ' + method);
    } };`);

    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=12.5&receiver=${receiver}`);
    expect(await page.getByTestId('amount').inputValue()).toBe('12.5');
    expect(await page.getByTestId('vault-address').textContent()).toBe(V1_VAULT.address);
    expect(await page.getByTestId('ack-texts').textContent()).toContain('svc-vault-depositor-risk-ack-v1');
    expect(await page.getByTestId('build').isDisabled()).toBe(true);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await expect.poll(() => page.getByTestId('plan-hash').textContent()).toMatch(/^0x[0-9a-f]{64}$/);

    await page.getByRole('button', { name: 'Sign approval' }).click();
    await expect.poll(() => page.getByTestId('tx-hash').inputValue()).toMatch(/^0x[0-9a-f]{64}$/);
    const approvalHash = await page.getByTestId('tx-hash').inputValue();
    await page.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Not complete.');

    await page.getByRole('button', { name: 'Sign deposit' }).click();
    await expect.poll(() => page.getByTestId('tx-hash').inputValue()).not.toBe(approvalHash);
    await page.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Complete (onchain_confirmed).');
    await page.close();
  });

  it('an unknown vault slug is a 404 page', async (ctx) => {
    if (skipReason) return ctx.skip();
    const res = await fetch(`${server!.url}/vaults/no-such-vault/deposit`);
    expect(res.status).toBe(404);
  });
});
