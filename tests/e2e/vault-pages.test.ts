/**
 * The vault pages as a person uses them (issue 35 items 3, 4 and 5), in real Chromium through
 * the real server, the local chain with the V1 reference vault and the fake facilitator that
 * really moves USDG:
 * - the vault page shows its total assets and share price read on chain, and says the V1 vault
 *   has no deposit preview; a paid analysis is bought from the vault page without typing JSON
 *   (the holdings picked in the form), answered as a score with its parts, with the free answer
 *   offered first and equal to the paid one, charged once (chain balances);
 * - every amount, address and hash field says what is wrong as it is typed, in plain words with
 *   the code as detail, and Max explains itself when the balance is unknown;
 * - on a phone with no browser wallet the approval is an `ethereum:` link the phone opens, and the
 *   QR code is offered for a second device.
 * At 1280 and 390 px, light and dark, axe at every impact level, no console error.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { ACK_HASHES, V1_VAULT } from '../../src/lib/server/vaults/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { placeV1Vault, usdgUnits } from '../support/chain/vaults';
import { injectWallet } from '../support/injected-wallet';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';

const PRICE = 20_000n; // vault-risk-score, 0.02 USDG
const DEPOSITOR = 2;
const PAYER = 5;
let lane: ChainPaymentLane | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  lane = await startChainPaymentLane({
    facilitatorTimeoutMs: 1500,
    prepare: async (chain) => {
      const v1 = await placeV1Vault(chain, { depositReady: true });
      // 250 USDG already in the vault, so its size and share price are live readings.
      const depositor = chain.accounts[DEPOSITOR]!.address;
      await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [depositor, usdgUnits('250')]);
      await chain.send(USDG.address as Address, v1.usdgAbi, 'approve', [v1.vault, usdgUnits('250')], DEPOSITOR);
      await chain.send(
        v1.vault,
        v1.vaultAbi,
        'depositWithAcks',
        [usdgUnits('250'), depositor, ACK_HASHES.risk, ACK_HASHES.jurisdiction],
        DEPOSITOR,
      );
      await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[PAYER]!.address, 1_000_000n]);
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lane?.stop();
});

async function expectClean(page: Page, name: string, errors: string[]) {
  for (const r of await checkAtBothWidths(page, name, undefined, { allImpacts: true })) {
    expect({ viewport: r.viewport, overflowPx: Math.max(r.overflowPx, 0), violations: r.violations }).toEqual({
      viewport: r.viewport,
      overflowPx: 0,
      violations: [],
    });
  }
  expect(errors).toEqual([]);
}

async function contextFor(scheme: 'light' | 'dark', width = 1280): Promise<BrowserContext> {
  return browser!.newContext({ colorScheme: scheme, viewport: { width, height: width === 390 ? 844 : 900 } });
}

describe('vault page', () => {
  it("shows the vault's size and share price read on chain, and says V1 has no deposit preview (light and dark)", async (ctx) => {
    if (skipReason) return ctx.skip();
    for (const scheme of ['light', 'dark'] as const) {
      const context = await contextFor(scheme);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      await page.goto(`${lane!.server.url}/vaults/${V1_VAULT.slug}`);
      await expect.poll(() => page.getByTestId('figure-total-assets').getAttribute('data-state'), { timeout: 15_000 }).toBe('live');
      expect(await page.getByTestId('figure-total-assets').innerText()).toContain('250.000000 USDG');
      expect(await page.getByTestId('figure-share-price').getAttribute('data-state')).toBe('live');
      expect(await page.getByTestId('figure-share-price').innerText()).toContain('1 USDG');
      expect(await page.getByTestId('figure-preview').innerText()).toContain('The V1 vault has no preview function');
      // The fee calculation starts from the vault's own total assets.
      await expect.poll(() => page.getByTestId('analysis-nav').inputValue()).toBe('250');
      await expectClean(page, `vault-v1-${scheme}`, errors);
      await context.close();
    }
  });

  it('buys a risk score from the vault page without typing JSON: the free answer first, then the paid one, charged once on chain', async (ctx) => {
    if (skipReason) return ctx.skip();
    const payer = lane!.chain.accounts[PAYER]!;
    const before = { payer: await lane!.usdgBalance(payer.address), payTo: await lane!.usdgBalance(lane!.payTo) };
    for (const scheme of ['light', 'dark'] as const) {
      const context = await contextFor(scheme);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      const wallet = await injectWallet(page, payer, { chainId: 1 });
      await page.goto(`${lane!.server.url}/vaults/${V1_VAULT.slug}`);
      await page.getByTestId('analysis-choose-vault-risk-score').check();
      // The holdings are picked, not typed as JSON: USDG (the vault's known holding) 60 %, Apple 40 %.
      await expect.poll(() => page.getByTestId('analysis-holding-0-weight').inputValue()).toBe('100');
      await page.getByTestId('analysis-holding-0-weight').fill('60');
      await page.getByTestId('analysis-add-holding').click();
      await page.getByTestId('analysis-holding-1-asset').selectOption({ label: 'AAPL · Apple' });
      await page.getByTestId('analysis-holding-1-weight').fill('30');
      expect(await page.getByTestId('analysis-holdings-problem').innerText()).toContain('add up to 90.00%');
      await page.getByTestId('analysis-holding-1-weight').fill('40');
      expect(await page.getByTestId('analysis-holdings-problem').count()).toBe(0);

      // Which to use, and why: the free route gives the same answer.
      expect(await page.getByTestId('analysis-which').innerText()).toContain('gives exactly the same answer');
      await page.getByTestId('analysis-free').click();
      await page.getByTestId('analysis-answer').waitFor();
      expect(await page.getByTestId('analysis-answer').getAttribute('data-paid')).toBe('false');
      const freeTotal = await page.getByTestId('analysis-risk-total').innerText();
      expect(await page.getByTestId('analysis-risk-parts').innerText()).toContain('Concentration');

      if (scheme === 'light') {
        // Paid once, in light: the same answer, with its payment.
        await page.getByTestId('analysis-connect').click();
        await page.getByTestId('analysis-pay').click();
        await expect.poll(() => page.getByTestId('analysis-answer').getAttribute('data-paid'), { timeout: 20_000 }).toBe('true');
        expect(await page.getByTestId('analysis-risk-total').innerText()).toBe(freeTotal);
        expect(await page.getByTestId('analysis-paid-amount').innerText()).toContain('0.020000 USDG');
        expect(wallet.signedTypedData).toHaveLength(1);
        expect(wallet.requests.map((r) => r.method)).not.toContain('eth_sendTransaction');
        // The raw JSON is one click away.
        await page.getByTestId('analysis-raw').locator('summary').click();
        expect(JSON.parse(await page.getByTestId('analysis-raw').locator('pre').innerText())).toMatchObject({
          serviceName: 'vault-risk-score',
          result: { score: { total: Number(freeTotal) } },
        });
      }
      await expectClean(page, `vault-analysis-${scheme}`, errors);
      await context.close();
    }
    // The chain's proof: one charge of the price, from the payer to the recipient.
    expect(await lane!.usdgBalance(payer.address)).toBe(before.payer - PRICE);
    expect(await lane!.usdgBalance(lane!.payTo)).toBe(before.payTo + PRICE);
  });
});

describe('deposit page fields', () => {
  it('says what is wrong with an amount, an address and a hash as they are typed, with the code as detail; Max explains itself', async (ctx) => {
    if (skipReason) return ctx.skip();
    for (const scheme of ['light', 'dark'] as const) {
      const context = await contextFor(scheme, 390);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      await page.goto(`${lane!.server.url}/vaults/${V1_VAULT.slug}/deposit`);
      // Max with no address: it says why it cannot fill anything in.
      await page.getByTestId('max').click();
      expect(await page.getByTestId('max-note').innerText()).toContain('enter your address first');

      const cases: [string, string, string, string][] = [
        ['amount', '-5', 'The amount must be above zero.', 'AMOUNT_NOT_POSITIVE'],
        ['amount', '0x1234', 'Write the amount in digits', 'AMOUNT_MALFORMED'],
        ['amount', '99999999', 'A deposit carries at most 10000 USDG', 'AMOUNT_ABOVE_PACK_MAX'],
        ['amount', '1.1234567', 'at most 6 digits after the point', 'AMOUNT_TOO_MANY_DECIMALS'],
        ['receiver', '0x1234', 'An address is 0x and 40 hex digits; this one has 4.', 'RECEIVER_MALFORMED'],
        ['tx-hash', '0x1234', 'A transaction hash is 0x and 64 hex digits; this one has 4.', 'TX_HASH_MALFORMED'],
      ];
      for (const [field, text, words, code] of cases) {
        await page.getByTestId(field).fill(text);
        const problem = page.getByTestId(`${field}-problem`);
        await problem.waitFor();
        expect(await problem.innerText()).toContain(words);
        expect(await problem.getAttribute('data-code')).toBe(code);
        expect(await problem.innerText()).toContain(`(${code})`);
        expect(await page.getByTestId(field).getAttribute('aria-invalid')).toBe('true');
      }
      expect(await page.getByTestId('build').isDisabled()).toBe(true);
      await expectClean(page, `deposit-fields-${scheme}`, errors);

      // Good values clear every message.
      await page.getByTestId('amount').fill('12.5');
      await page.getByTestId('receiver').fill(getAddress(lane!.chain.accounts[PAYER]!.address));
      await page.getByTestId('tx-hash').fill(`0x${'ab'.repeat(32)}`);
      for (const field of ['amount', 'receiver', 'tx-hash']) expect(await page.getByTestId(`${field}-problem`).count()).toBe(0);
      expect(await page.getByTestId('deposit-preview').innerText()).toContain('The V1 vault has no preview function');
      await context.close();
    }
  });
});

describe('phone deposit', () => {
  it('on a phone with no browser wallet the approval is an ethereum: link the phone opens; the QR code is for a second device', async (ctx) => {
    if (skipReason) return ctx.skip();
    const phone = getAddress(lane!.chain.accounts[PAYER]!.address);
    for (const scheme of ['light', 'dark'] as const) {
      const context = await contextFor(scheme, 390);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      await page.goto(`${lane!.server.url}/vaults/${V1_VAULT.slug}/deposit?amount=0.5&receiver=${phone}`);
      for (const box of await page.getByTestId('ack-texts').locator('input[type=checkbox]').all()) await box.check();
      await page.getByTestId('build').click();
      await page.getByTestId('prepared').waitFor();
      await page.getByTestId('no-wallet').waitFor();
      const link = page.getByTestId('approve-wallet-link');
      expect(await link.evaluate((a) => a.tagName)).toBe('A');
      expect(await link.getAttribute('href')).toBe(`ethereum:${USDG.address}@4663/approve?address=${V1_VAULT.address}&uint256=500000`);
      const qr = page.getByTestId('step-approve').locator('details.phone');
      expect(await qr.locator('summary').innerText()).toContain('On a second device');
      await expectClean(page, `deposit-phone-link-${scheme}`, errors);
      await context.close();
    }
  });
});
