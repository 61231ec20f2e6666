/**
 * Paying for an analysis in real Chromium, as a person does: on /paid pick a service, read its
 * price, lane and what it returns, connect the injected wallet, sign the EIP-3009 authorization
 * (eth_signTypedData_v4, after the switch to chain 4663), and get the answer with its payment
 * receipt, against the fake facilitator that really moves USDG on the local chain. The chain
 * proves the charge (once, for exactly the price); a refused settlement and a declined
 * signature say nothing was charged and the chain agrees; a lost settlement answer says "do
 * not pay again" and its retry gets the answer without a second charge. At 390 and 1280 px,
 * axe at every impact level, no console error.
 */
import type { Browser, Page } from 'playwright-core';
import type { Address } from 'viem';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { injectWallet, type InjectedWallet } from '../support/injected-wallet';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';

const PRICE = 20_000n; // vault-risk-score, 0.02 USDG
let lane: ChainPaymentLane | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;
let nextPayer = 5;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  lane = await startChainPaymentLane({ facilitatorTimeoutMs: 1500 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lane?.stop();
});

/** A chain account holding 1 USDG (it needs no gas: the facilitator sends the transaction). */
async function fundedPayer() {
  const account = lane!.chain.accounts[nextPayer++]!;
  await lane!.chain.send(USDG.address as Address, lane!.chain.artifact('TestUSDG').abi, 'mint', [account.address, 1_000_000n]);
  return account;
}

/** The person's clicks up to "Sign and pay" for the risk score. */
async function openAndPay(page: Page): Promise<void> {
  await page.goto(`${lane!.server.url}/paid`);
  await page.getByTestId('choose-vault-risk-score').check();
  await expect.poll(() => page.getByTestId('chosen').getAttribute('data-service')).toBe('vault-risk-score');
  expect(await page.getByTestId('chosen-price').innerText()).toContain('0.02 USDG');
  expect(await page.getByTestId('chosen-returns').innerText()).toContain('A 0-100 score with each component');
  await page.getByTestId('paid-connect').click();
  await page.getByTestId('pay').click();
}

async function expectClean(page: Page, name: string, errors: string[], allowed: RegExp | null = null) {
  for (const r of await checkAtBothWidths(page, name, undefined, { allImpacts: true })) {
    expect({ viewport: r.viewport, overflowPx: Math.max(r.overflowPx, 0) }).toEqual({ viewport: r.viewport, overflowPx: 0 });
    expect({ viewport: r.viewport, violations: r.violations }).toEqual({ viewport: r.viewport, violations: [] });
  }
  // A refused paid call is an HTTP error status, which Chromium logs as a failed resource load: expected there only.
  expect(allowed ? errors.filter((e) => !allowed.test(e)) : errors).toEqual([]);
}

function typedDataOf(wallet: InjectedWallet) {
  expect(wallet.signedTypedData).toHaveLength(1);
  return wallet.signedTypedData[0]!;
}

describe('/paid: pay for an analysis in the browser', () => {
  it('signs the EIP-3009 authorization in the wallet and shows the answer and the receipt; the chain shows one charge of the price', async (ctx) => {
    if (skipReason) return ctx.skip();
    const payer = await fundedPayer();
    const before = { payer: await lane!.usdgBalance(payer.address), payTo: await lane!.usdgBalance(lane!.payTo) };
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectConsoleErrors(page);
    const wallet = await injectWallet(page, payer, { chainId: 1 });
    await openAndPay(page);

    await page.getByTestId('paid-result').waitFor({ timeout: 20_000 });
    const answer = JSON.parse((await page.getByTestId('paid-answer').textContent())!);
    expect(answer.score).toEqual(expect.objectContaining({ total: expect.any(Number) }));
    expect(await page.getByTestId('paid-amount').innerText()).toContain('0.020000 USDG');
    await expect.poll(() => page.getByTestId('paid-receipt-stored').textContent()).toContain('hash checked');
    expect(await page.getByTestId('paid-receipt-id').textContent()).toMatch(/^x402rcpt_[0-9a-f]{32}$/);

    // The wallet was asked to switch to 4663 first, then signed exactly the server's requirement.
    const methods = wallet.requests.map((r) => r.method);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('eth_signTypedData_v4'));
    const typed = typedDataOf(wallet);
    expect(typed.primaryType).toBe('TransferWithAuthorization');
    expect(typed.domain).toMatchObject({ chainId: 4663 });
    expect(getAddress(String(typed.domain.verifyingContract))).toBe(getAddress(USDG.address));
    expect({
      from: getAddress(String(typed.message.from)),
      to: getAddress(String(typed.message.to)),
      value: String(typed.message.value),
    }).toEqual({
      from: getAddress(payer.address),
      to: lane!.payTo,
      value: PRICE.toString(),
    });
    expect(methods).not.toContain('eth_sendTransaction');

    // The chain's proof: the price moved once, from the payer to the recipient.
    expect(await lane!.usdgBalance(payer.address)).toBe(before.payer - PRICE);
    expect(await lane!.usdgBalance(lane!.payTo)).toBe(before.payTo + PRICE);
    await expectClean(page, 'paid-answered', errors);
    await page.close();
  });

  it('a refused settlement says nothing was charged, and the chain agrees', async (ctx) => {
    if (skipReason) return ctx.skip();
    const payer = await fundedPayer();
    const before = await lane!.usdgBalance(payer.address);
    lane!.facilitator.nextSettle({ kind: 'refuse', reason: 'insufficient_funds', message: 'not enough' });
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    const errors = collectConsoleErrors(page);
    await injectWallet(page, payer);
    await openAndPay(page);
    await expect.poll(() => page.getByTestId('paid-error-code').textContent(), { timeout: 20_000 }).toBe('X402_SETTLEMENT_REFUSED');
    expect(await page.getByTestId('paid-not-charged').textContent()).toContain('Nothing was charged.');
    expect(await page.getByTestId('paid-result').count()).toBe(0);
    expect(await lane!.usdgBalance(payer.address)).toBe(before);
    await expectClean(page, 'paid-refused', errors, /status of 402/);
    await page.close();
  });

  it('a declined signature sends nothing to the server or the facilitator, and says nothing was charged', async (ctx) => {
    if (skipReason) return ctx.skip();
    const payer = await fundedPayer();
    const settles = lane!.facilitator.settleCalls().length;
    const page = await browser!.newPage();
    const errors = collectConsoleErrors(page);
    await injectWallet(page, payer, { decline: true });
    await openAndPay(page);
    await expect.poll(() => page.getByTestId('paid-error-code').textContent()).toBe('WALLET_REQUEST_DECLINED');
    expect(await page.getByTestId('paid-not-charged').isVisible()).toBe(true);
    expect(lane!.facilitator.settleCalls()).toHaveLength(settles);
    expect(await lane!.usdgBalance(payer.address)).toBe(1_000_000n);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a lost settlement answer says "do not pay again"; Retry sends the same authorization and gets the answer, charged once', async (ctx) => {
    if (skipReason) return ctx.skip();
    const payer = await fundedPayer();
    lane!.facilitator.nextSettle({ kind: 'settle_then_hang' });
    const page = await browser!.newPage();
    const errors = collectConsoleErrors(page);
    const wallet = await injectWallet(page, payer);
    await openAndPay(page);
    await expect.poll(() => page.getByTestId('paid-error-code').textContent(), { timeout: 20_000 }).toBe('X402_SETTLEMENT_UNKNOWN');
    expect(await page.getByTestId('paid-outcome-unknown').textContent()).toContain('do not pay again');
    await page.getByTestId('paid-retry').click();
    await page.getByTestId('paid-result').waitFor({ timeout: 20_000 });
    expect(wallet.signedTypedData).toHaveLength(1);
    expect(await lane!.usdgBalance(payer.address)).toBe(1_000_000n - PRICE);
    // The typed client's door answers an unknown settlement with a gateway timeout (the REST door with 202).
    expect(errors.filter((e) => !/status of 504/.test(e))).toEqual([]);
    await page.close();
  });

  it('without a browser wallet, paying explains what is needed and offers this page as a QR code', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${lane!.server.url}/paid`);
    await page.getByTestId('paid-no-wallet').waitFor();
    expect(await page.getByTestId('paid-no-wallet').textContent()).toContain('EIP-3009 authorization');
    expect(await page.getByTestId('pay').count()).toBe(0);
    await page.close();
  });
});
