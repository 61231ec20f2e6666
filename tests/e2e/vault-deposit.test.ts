/**
 * Mode C in real Chromium, as a person does it: reached from the vault list, the deposit page
 * opens with the amount prefilled, shows the wallet's USDG balance and a Max button, writes out
 * both acknowledgments, prepares the two calls, and hands them to the browser wallet only once
 * it is on chain 4663. Each step opens only on the chain's proof: "Sign deposit" stays disabled
 * while the approval is sent but not mined (the local chain's automine is paused to hold it
 * there), and opens by itself once the receipt proves it; the deposit then completes the
 * PREPARATION → SUBMISSION → SETTLEMENT ladder by itself, with explorer links. Without a
 * browser wallet (a phone), each call is a QR code whose pixels decode to its EIP-681 link, and
 * the page follows the chain by itself there too. At 390 and 1280 px, axe at every impact
 * level, no console error.
 */
import type { Browser, Page } from 'playwright-core';
import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { ACK_HASHES, V1_VAULT } from '../../src/lib/server/vaults/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits, type PlacedV1 } from '../support/chain/vaults';
import { injectWallet } from '../support/injected-wallet';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { decodeQrInPage } from '../support/qr';
import { startServer, type TestServer } from '../support/server';

const DEPOSITOR = 3;
const PHONE = 4;
const EXPLORER = 'https://explorer.broker.example';
let chain: LocalChain | undefined;
let v1: PlacedV1 | undefined;
let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  chain = await startLocalChain();
  v1 = await placeV1Vault(chain);
  for (const who of [DEPOSITOR, PHONE])
    await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[who]!.address, usdgUnits('100')]);
  server = await startServer({
    allowPostgres: false,
    env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl, PUBLIC_BROKER_CHAIN_EXPLORER_URL: EXPLORER },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chain?.stop();
});

/** The test account signs and sends on the local chain what the page asks for; it does not wait for the block. */
async function sendFrom(index: number, tx: { from: string; to: string; data: string }): Promise<Hex> {
  const wallet = chain!.wallet(index);
  if (tx.from.toLowerCase() !== wallet.account.address.toLowerCase()) throw new Error('unexpected signer');
  return wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, account: wallet.account, chain: wallet.chain });
}

async function expectCleanAtBothWidths(page: Page, name: string, errors: string[]) {
  const results = await checkAtBothWidths(page, name, undefined, { allImpacts: true });
  for (const r of results) {
    expect({ viewport: r.viewport, overflowPx: Math.max(r.overflowPx, 0) }).toEqual({ viewport: r.viewport, overflowPx: 0 });
    expect({ viewport: r.viewport, violations: r.violations }).toEqual({ viewport: r.viewport, violations: [] });
  }
  expect(errors).toEqual([]);
}

const ladderState = (page: Page, step: string) =>
  page.getByTestId('deposit-ladder').locator(`[data-step="${step}"]`).getAttribute('data-state');

describe('deposit widget (Mode C)', () => {
  it('opens each step only on the chain’s proof and follows the wallet’s transactions by itself, with balance, Max and explorer links', async (ctx) => {
    if (skipReason) return ctx.skip();
    const receiver = chain!.accounts[DEPOSITOR]!.address;
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectConsoleErrors(page);
    const wallet = await injectWallet(page, chain!.accounts[DEPOSITOR]!, { chainId: 1, sendTransaction: (tx) => sendFrom(DEPOSITOR, tx) });

    // Reached from the vault list; the vault story says which vault this service prepares, and why.
    await page.goto(`${server!.url}/vaults`);
    expect(await page.getByTestId('vault-story').textContent()).toContain('This service prepares V1 deposits only.');
    await page.locator(`[data-testid="vault-card"][data-slug="${V1_VAULT.slug}"]`).click();
    await expect.poll(() => page.getByTestId('vault-generation').textContent()).toContain('legacy');
    expect(await page.getByTestId('v1-note').textContent()).toContain('the one vault this service prepares deposits for');
    await page.getByTestId('deposit-link').click();
    await page.waitForURL(`**/vaults/${V1_VAULT.slug}/deposit`);

    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=12.5&receiver=${receiver}`);
    expect(await page.getByTestId('amount').inputValue()).toBe('12.5');
    // The wallet's balance, read on chain, and Max.
    await expect.poll(() => page.getByTestId('balance-value').textContent()).toBe('100.000000 USDG');
    await page.getByTestId('max').click();
    expect(await page.getByTestId('amount').inputValue()).toBe('100');
    await page.getByTestId('amount').fill('12.5');

    const acks = (await page.getByTestId('ack-texts').textContent())!;
    expect(acks).toContain('I understand that this vault holds tokenized stock and ETF exposure');
    expect(acks).toContain('svc-vault-depositor-risk-ack-v1');
    expect(await page.getByTestId('build').isDisabled()).toBe(true);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await expect.poll(() => page.getByTestId('plan-hash').textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.getByTestId('pack-amount').textContent()).toContain('12.500000 USDG');
    expect(await page.getByTestId('pack-expiry').textContent()).toMatch(/^expires in 1[45]:\d\d$/);

    // Before any approval the deposit cannot be signed.
    expect(await page.getByTestId('sign-deposit').isDisabled()).toBe(true);
    expect(await page.getByTestId('deposit-waits').textContent()).toContain('Opens once your approval is proven on chain');

    // The approval is sent but held out of a block: the page waits, and the deposit stays closed.
    await chain!.testClient.setAutomine(false);
    await page.getByRole('button', { name: 'Sign approval' }).click();
    await expect.poll(() => page.getByTestId('approval-tx').getAttribute('data-state')).toBe('waiting');
    const approvalHash = (await page.getByTestId('approval-tx').locator('code').textContent())!;
    expect(approvalHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.getByTestId('approval-tx-explorer').getAttribute('href')).toBe(`${EXPLORER}/tx/${approvalHash}`);
    await page.waitForTimeout(1500);
    expect(await page.getByTestId('approval-tx').getAttribute('data-state')).toBe('waiting');
    expect(await page.getByTestId('sign-deposit').isDisabled()).toBe(true);
    expect(await ladderState(page, 'APPROVAL')).toBe('current');
    // The wallet was switched to 4663 before the transaction, which names chain 4663.
    const methods = wallet.requests.map((r) => r.method);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeGreaterThan(-1);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('eth_sendTransaction'));
    const send = wallet.requests.find((r) => r.method === 'eth_sendTransaction')!;
    expect(send.chainId).toBe(4663);
    expect((send.params as [{ chainId: string }])[0].chainId).toBe('0x1237');

    // Mined: the receipt's Approval event proves it, and the deposit opens by itself (no "Check").
    await chain!.testClient.mine({ blocks: 1 });
    await chain!.testClient.setAutomine(true);
    await expect.poll(() => page.getByTestId('approval-tx').getAttribute('data-state'), { timeout: 10_000 }).toBe('proven');
    expect(await page.getByTestId('approval-tx').textContent()).toContain('the vault may spend 12.5 USDG');
    expect(await ladderState(page, 'APPROVAL')).toBe('done');
    await expect.poll(() => page.getByTestId('sign-deposit').isDisabled()).toBe(false);
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1);

    await page.getByTestId('sign-deposit').click();
    await expect.poll(() => page.getByTestId('deposit-tx').getAttribute('data-state'), { timeout: 10_000 }).toBe('proven');
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Complete (onchain_confirmed).');
    expect(await ladderState(page, 'SUBMISSION')).toBe('done');
    expect(await ladderState(page, 'SETTLEMENT')).toBe('done');
    const depositHash = (await page.getByTestId('deposit-tx').locator('code').textContent())!;
    expect(await page.getByTestId('deposit-tx-explorer').getAttribute('href')).toBe(`${EXPLORER}/tx/${depositHash}`);
    // The chain agrees: the vault holds the deposit, and the balance shown was read again.
    expect(await chain!.read<bigint>(USDG.address as Address, v1!.usdgAbi, 'balanceOf', [V1_VAULT.address])).toBeGreaterThanOrEqual(
      usdgUnits('12.5'),
    );
    await expect.poll(() => page.getByTestId('balance-value').textContent()).toBe('87.500000 USDG');

    await expectCleanAtBothWidths(page, 'deposit-done', errors);
    await page.close();

    // The approval's hash followed on its own is read as the approval, never as "not a vault deposit".
    const again = await browser!.newPage();
    await injectWallet(again, chain!.accounts[DEPOSITOR]!, { sendTransaction: (tx) => sendFrom(DEPOSITOR, tx) });
    await again.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=12.5&receiver=${receiver}`);
    for (const box of await again.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await again.getByTestId('build').click();
    await again.getByTestId('prepared').waitFor();
    await again.getByTestId('tx-hash').fill(approvalHash);
    await again.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect.poll(() => again.getByTestId('approval-tx').getAttribute('data-state')).toBe('proven');
    expect(await again.locator('body').textContent()).not.toContain('not a vault deposit');
    await again.close();
  });

  it('on a phone (no browser wallet): each call is an ethereum: link the phone opens, its QR code for a second device, and the page follows the chain by itself', async (ctx) => {
    if (skipReason) return ctx.skip();
    const phone = getAddress(chain!.accounts[PHONE]!.address);
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    const errors = collectConsoleErrors(page);
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=3&receiver=${phone}`);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await page.getByTestId('prepared').waitFor();
    await page.getByTestId('no-wallet').waitFor();
    expect(await page.getByTestId('no-wallet').textContent()).toContain('each step below is a link that opens your wallet app');
    // On this phone the approval is a link its wallet app opens; the QR code is for a second device, behind its label.
    expect(await page.getByTestId('approve-wallet-link').getAttribute('href')).toBe(
      `ethereum:${USDG.address}@4663/approve?address=${V1_VAULT.address}&uint256=3000000`,
    );
    await page.getByTestId('step-approve').locator('details.phone summary').click();

    // The pixels of the approval QR code decode to the EIP-681 link of approve(vault, 3 USDG) on the USDG token, chain 4663.
    const approveLink = `ethereum:${USDG.address}@4663/approve?address=${V1_VAULT.address}&uint256=3000000`;
    expect(await decodeQrInPage(page, 'approve-qr-svg')).toBe(approveLink);
    expect(await page.getByTestId('approve-qr-link').textContent()).toBe(approveLink);
    expect(await page.getByTestId('approve-calldata').textContent()).toMatch(/^0x095ea7b3/);
    // No deposit QR before the approval is proven: a deposit signed first would revert.
    expect(await page.getByTestId('deposit-qr').count()).toBe(0);
    await expectCleanAtBothWidths(page, 'deposit-phone', errors);

    // The phone wallet sends the approval; the page sees the allowance on chain and opens the deposit.
    await sendFrom(PHONE, { from: phone, to: USDG.address, data: (await page.getByTestId('approve-calldata').textContent())! });
    await expect.poll(() => page.getByTestId('step-approve').getAttribute('data-proven'), { timeout: 15_000 }).toBe('true');
    const depositLink = `ethereum:${V1_VAULT.address}@4663/depositWithAcks?uint256=3000000&address=${phone}&bytes32=${ACK_HASHES.risk}&bytes32=${ACK_HASHES.jurisdiction}`;
    expect(await page.getByTestId('deposit-wallet-link').getAttribute('href')).toBe(depositLink);
    await page.getByTestId('step-deposit').locator('details.phone summary').click();
    await page.getByTestId('deposit-qr-svg').waitFor();
    expect(await decodeQrInPage(page, 'deposit-qr-svg')).toBe(depositLink);

    // The phone sends the deposit; its hash is followed to completion.
    const depositHash = await sendFrom(PHONE, {
      from: phone,
      to: V1_VAULT.address,
      data: (await page.getByTestId('deposit-calldata').textContent())!,
    });
    await page.getByTestId('tx-hash').fill(depositHash);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('Complete (onchain_confirmed).');
    await expectCleanAtBothWidths(page, 'deposit-phone-done', errors);
    await page.close();
  });

  it('sends nothing when the wallet refuses to switch to chain 4663', async (ctx) => {
    if (skipReason) return ctx.skip();
    const receiver = chain!.accounts[DEPOSITOR]!.address;
    const page = await browser!.newPage();
    const wallet = await injectWallet(page, chain!.accounts[DEPOSITOR]!, {
      chainId: 1,
      onSwitch: 'refuse',
      sendTransaction: (tx) => sendFrom(DEPOSITOR, tx),
    });
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=1&receiver=${receiver}`);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await page.getByTestId('build').click();
    await page.getByTestId('prepared').waitFor();
    await page.getByRole('button', { name: 'Sign approval' }).click();
    await expect.poll(() => page.getByTestId('wallet-error-code').textContent()).toBe('WALLET_CHAIN_SWITCH_DECLINED');
    expect(await page.getByTestId('wallet-error').textContent()).toContain('nothing was signed or sent');
    expect(wallet.requests.map((r) => r.method)).not.toContain('eth_sendTransaction');
    expect(await page.getByTestId('approval-tx').count()).toBe(0);
    await page.close();
  });

  it('says what is wrong with an amount next to its field before anything is sent, with the code after the words', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('prepareCommand') && sent.push(r.url()));
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit?amount=1.1234567&receiver=${chain!.accounts[DEPOSITOR]!.address}`);
    for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
    await expect.poll(() => page.locator('#amount-e').textContent()).toContain('at most 6 digits after the point');
    expect(await page.locator('#amount-e').textContent()).toContain('(AMOUNT_TOO_MANY_DECIMALS)');
    expect(await page.getByTestId('amount').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('receiver').getAttribute('aria-invalid')).toBeNull();
    // The form stays closed while the amount does not read: nothing is sent to be refused.
    expect(await page.getByTestId('build').isDisabled()).toBe(true);
    expect(sent).toEqual([]);
    await page.close();
  });

  it('marks a malformed transaction hash next to its field as it is typed, and sends nothing to follow', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('depositStatus') && sent.push(r.url()));
    await page.goto(`${server!.url}/vaults/${V1_VAULT.slug}/deposit`);
    expect(await page.getByTestId('tx-hash').getAttribute('aria-invalid')).toBeNull();
    await page.getByTestId('tx-hash').fill(`0x${'ab'.repeat(60)}`);
    await expect.poll(() => page.locator('#tx-hash-e').textContent()).toContain('this one has 120');
    expect(await page.locator('#tx-hash-e').textContent()).toContain('(TX_HASH_MALFORMED)');
    expect(await page.getByTestId('tx-hash').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('tx-hash').getAttribute('aria-describedby')).toBe('tx-hash-e');
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.waitForTimeout(300);
    expect(sent).toEqual([]);
    await page.close();
  });

  it('an unknown vault slug is a 404 page', async (ctx) => {
    if (skipReason) return ctx.skip();
    const res = await fetch(`${server!.url}/vaults/no-such-vault/deposit`);
    expect(res.status).toBe(404);
  });
});
