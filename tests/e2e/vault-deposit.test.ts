/**
 * Mode C in real Chromium: reached from the vault list, the deposit page opens with the
 * amount prefilled, writes out both acknowledgments, prepares the two calls (USDG amounts
 * with six decimals, a countdown to the pack's expiry), hands them to the browser wallet
 * only once it is on chain 4663 (an injected EIP-1193 wallet on chain 1 is asked to switch;
 * one that refuses sends nothing), and shows completion on the PREPARATION → SUBMISSION →
 * SETTLEMENT ladder only once the chain proves the deposit.
 */
import type { Browser } from 'playwright-core';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits } from '../support/chain/vaults';
import { injectWallet } from '../support/injected-wallet';
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

/** The test account signs and sends on the local chain what the page asks for. */
async function sendFromDepositor(tx: { from: string; to: string; data: string }): Promise<Hex> {
  const wallet = chain!.wallet(DEPOSITOR);
  if (tx.from.toLowerCase() !== wallet.account.address.toLowerCase()) throw new Error('unexpected signer');
  const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, account: wallet.account, chain: wallet.chain });
  await chain!.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

describe('deposit widget (Mode C)', () => {
  it('is linked from the vault pages, requires both written-out acks, switches the wallet to 4663, and reports completion from the chain', async (ctx) => {
    if (skipReason) return ctx.skip();
    const receiver = chain!.accounts[DEPOSITOR]!.address;
    const page = await browser!.newPage();
    const wallet = await injectWallet(page, chain!.accounts[DEPOSITOR]!, { chainId: 1, sendTransaction: sendFromDepositor });

    // Reached from the vault list: the V1 vault is labelled legacy and links its deposit page.
    await page.goto(`${server!.url}/vaults`);
    await page.locator(`[data-testid="vault-card"][data-slug="${V1_VAULT.slug}"]`).click();
    await expect.poll(() => page.getByTestId('vault-generation').textContent()).toContain('legacy');
    await page.getByTestId('deposit-link').click();
    await page.waitForURL(`**/vaults/${V1_VAULT.slug}/deposit`);

    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=12.5&receiver=${receiver}`);
    expect(await page.getByTestId('amount').inputValue()).toBe('12.5');
    expect(await page.getByTestId('vault-address').textContent()).toBe(V1_VAULT.address);
    const acks = (await page.getByTestId('ack-texts').textContent())!;
    expect(acks).toContain('I understand that this vault holds tokenized stock and ETF exposure');
    expect(acks).toContain('svc-vault-depositor-risk-ack-v1'); // the on-chain text, as the proof beside the words
    expect(await page.getByTestId('build').isDisabled()).toBe(true);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await expect.poll(() => page.getByTestId('plan-hash').textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.getByTestId('pack-amount').textContent()).toContain('12.500000 USDG');
    expect(await page.getByTestId('pack-expiry').textContent()).toMatch(/^expires in 1[45]:\d\d$/);

    await page.getByRole('button', { name: 'Sign approval' }).click();
    await expect.poll(() => page.getByTestId('tx-hash').inputValue()).toMatch(/^0x[0-9a-f]{64}$/);
    // The wallet was switched to 4663 before the transaction, which names chain 4663.
    const methods = wallet.requests.map((r) => r.method);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeGreaterThan(-1);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('eth_sendTransaction'));
    const send = wallet.requests.find((r) => r.method === 'eth_sendTransaction')!;
    expect(send.chainId).toBe(4663);
    expect((send.params as [{ chainId: string }])[0].chainId).toBe('0x1237');

    const approvalHash = await page.getByTestId('tx-hash').inputValue();
    await page.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Not complete.');
    const ladder = page.getByTestId('deposit-ladder');
    expect(await ladder.locator('[data-step="SUBMISSION"]').getAttribute('data-state')).toBe('done');
    expect(await ladder.locator('[data-step="SETTLEMENT"]').getAttribute('data-state')).toBe('pending');

    await page.getByRole('button', { name: 'Sign deposit' }).click();
    await expect.poll(() => page.getByTestId('tx-hash').inputValue()).not.toBe(approvalHash);
    await page.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Complete (onchain_confirmed).');
    expect(await ladder.locator('[data-step="SETTLEMENT"]').getAttribute('data-state')).toBe('done');
    await page.close();
  });

  it('sends nothing when the wallet refuses to switch to chain 4663', async (ctx) => {
    if (skipReason) return ctx.skip();
    const receiver = chain!.accounts[DEPOSITOR]!.address;
    const page = await browser!.newPage();
    const wallet = await injectWallet(page, chain!.accounts[DEPOSITOR]!, {
      chainId: 1,
      onSwitch: 'refuse',
      sendTransaction: sendFromDepositor,
    });
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=1&receiver=${receiver}`);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await page.getByTestId('prepared').waitFor();
    await page.getByRole('button', { name: 'Sign approval' }).click();
    await expect.poll(() => page.getByTestId('wallet-error-code').textContent()).toBe('WALLET_CHAIN_SWITCH_DECLINED');
    expect(await page.getByTestId('wallet-error').textContent()).toContain('nothing was signed or sent');
    expect(wallet.requests.map((r) => r.method)).not.toContain('eth_sendTransaction');
    expect(await page.getByTestId('tx-hash').inputValue()).toBe('');
    await page.close();
  });

  it('shows a refused amount next to its field, with the code', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=1.1234567&receiver=${chain!.accounts[DEPOSITOR]!.address}`);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await expect.poll(() => page.locator('#amount-e').textContent()).toContain('AMOUNT_TOO_MANY_DECIMALS');
    expect(await page.getByTestId('amount').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('receiver').getAttribute('aria-invalid')).toBeNull();
    await page.close();
  });

  it('marks a refused transaction hash as invalid next to its field', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit`);
    expect(await page.getByTestId('tx-hash').getAttribute('aria-invalid')).toBeNull();
    await page.getByTestId('tx-hash').fill(`0x${'ab'.repeat(60)}`);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => page.locator('#tx-hash-e').textContent()).toMatch(/^[A-Z_]+: /);
    expect(await page.getByTestId('tx-hash').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('tx-hash').getAttribute('aria-describedby')).toBe('tx-hash-e');
    await page.close();
  });

  it('an unknown vault slug is a 404 page', async (ctx) => {
    if (skipReason) return ctx.skip();
    const res = await fetch(`${server!.url}/vaults/no-such-vault/deposit`);
    expect(res.status).toBe(404);
  });
});
