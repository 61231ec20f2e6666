/**
 * "Act on it" hands the whole basket to the partner with one confirmation and shows every leg's
 * status, read again by itself (issue 35, item 2: the "Act on it" part), in real Chromium through
 * the real server with the fake partner: at 1280 and 390 px, light and dark, axe clean at every
 * impact level (SVC_SCREENSHOT_DIR saves the screenshots).
 */
import type { Browser, Page } from 'playwright-core';
import { parseUnits, type Address } from 'viem';
import { USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { ADDR, rawCoil } from '../support/coils';
import { startFakePartner, stockLaneEnv, type FakePartner } from '../support/fake-partner';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { secretMarker, startServer, type TestServer } from '../support/server';

const apiKey = secretMarker('partner');
let server: TestServer | undefined;
let partner: FakePartner | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;
let manifestHash = '';
let chain: LocalChain | undefined;
let route: Address;
const TRADER = 4;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  // Each job reads pending, then processing, then completed: the legs advance by themselves.
  [partner, chain] = await Promise.all([
    startFakePartner({ apiKey, script: () => ({ statuses: ['pending', 'processing', 'completed'] }) }),
    startLocalChain(),
  ]);
  server = await startServer({
    allowPostgres: false,
    env: stockLaneEnv(partner, apiKey, chain.rpcUrl),
  });
  route = await chain.deploy('TestSwapRoute');
  await chain.send(ADDR.SPY as Address, chain.artifact('TestToken').abi, 'mint', [route, parseUnits('1000', 18)]);
  await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'mint', [
    chain.accounts[TRADER]!.address,
    parseUnits('10000', 6),
  ]);
  await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'approve', [route, 2n ** 255n], TRADER);
  browser = await launchBrowser();
  const assets = (['NVDA', 'AMD', 'MSFT', 'SPY', 'SGOV', 'AAPL'] as const).map((ticker, i) => ({
    ticker,
    tokenAddress: ADDR[ticker],
    weightBps: i === 0 ? 2000 : 1600,
    rationale: `${ticker} leg of the test basket.`,
  }));
  const coil = rawCoil({ assets, fuses: [{ kind: 'maxSlippage', limit: 50 }] } as never);
  const res = await server.post('/api/tools/validate-coil', { coil });
  expect(res.status, res.text).toBe(200);
  manifestHash = res.json.receipt.manifestHash;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await partner?.stop();
  await chain?.stop();
});

async function expectClean(page: Page, name: string) {
  for (const r of await checkAtBothWidths(page, name, undefined, { allImpacts: true })) {
    expect({ viewport: r.viewport, overflowPx: Math.max(0, r.overflowPx), violations: r.violations }).toEqual({
      viewport: r.viewport,
      overflowPx: 0,
      violations: [],
    });
  }
}

async function planBasket(page: Page, total: string) {
  await page.goto(`${server!.url}/coils/${manifestHash}#act`);
  await page.getByTestId('section-act').waitFor();
  // The slippage comes from the Coil's own limit (50 bps), not the old 100.
  expect(await page.getByTestId('basket-slippage').inputValue()).toBe('50');
  await page.getByTestId('basket-amount').fill(total);
  await page.getByTestId('basket-ack-exposure').check();
  await page.getByTestId('basket-ack-partner').check();
  await page.getByTestId('basket-button').click();
  await page.getByTestId('basket-result').waitFor();
}

describe('act on the whole basket (issue 35, item 2)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`plans and hands over six legs with one confirmation, and the legs advance by themselves (${scheme})`, async (ctx) => {
      if (skipReason) return ctx.skip();
      const context = await browser!.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      await planBasket(page, '600');
      expect(await page.getByTestId('basket-summary').textContent()).toContain('the partner was not contacted');
      const before = partner!.submissions().length;
      const handOff = page.getByTestId('basket-submit-all');
      expect(await handOff.isDisabled()).toBe(true);
      await page.getByTestId('basket-confirm').check();
      await handOff.click();
      await page.getByTestId('basket-status-summary').waitFor();
      expect(partner!.submissions().length - before).toBe(6);
      // After the hand-off the page no longer says the partner was not contacted.
      expect(await page.getByTestId('basket-summary').textContent()).not.toContain('not contacted');
      expect(await page.getByTestId('basket-summary').textContent()).toContain('6 of 6 legs are with the partner');
      // The legs advance with each read of the partner, without a click.
      await page.waitForFunction(
        () => document.querySelector('[data-testid="basket-status-summary"]')?.getAttribute('data-summary') === 'job_completed_unconfirmed',
        undefined,
        { timeout: 20_000 },
      );
      const statuses = await page.getByTestId('basket-leg').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-leg-status')));
      expect(statuses).toEqual(Array(6).fill('job_completed_unconfirmed'));
      expect(await page.getByTestId('basket-handed').textContent()).toContain('not confirmed');
      await expectClean(page, `basket-handoff-${scheme}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('a gate failing on one leg sends no leg, and the page names that leg', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors = collectConsoleErrors(page);
    await planBasket(page, '300');
    // SPY's plan is proven on chain before the hand-off (a matching trade, reconciled): it can no
    // longer be handed to the partner, and that one failing gate holds back every leg.
    const spy = page.locator('[data-testid="basket-leg"][data-ticker="SPY"]');
    const spyPlanHash = (await spy.locator('code').getAttribute('title'))!;
    const tx = await chain!.send(
      route,
      chain!.artifact('TestSwapRoute').abi,
      'swap',
      [USDG.address, ADDR.SPY, parseUnits('48', 6), parseUnits('0.1', 18)],
      TRADER,
    );
    const proof = await server!.post('/api/stocks/reconcile-receipt', { planHash: spyPlanHash, txHash: tx.transactionHash });
    expect(proof.json.receipt.status, proof.text).toBe('onchain_confirmed');

    const before = partner!.submissions().length;
    await page.getByTestId('basket-confirm').check();
    await page.getByTestId('basket-submit-all').click();
    await page.getByTestId('basket-submit-error').waitFor();
    expect(partner!.submissions().length).toBe(before);
    expect(await page.getByTestId('basket-submit-error').textContent()).toContain('SPY');
    expect(await spy.getAttribute('data-gate-failed')).toBe('true');
    expect(await page.getByTestId('basket-summary').textContent()).toContain('the partner was not contacted');
    await expectClean(page, 'basket-gate-failed');
    expect(errors.filter((e) => !/409/.test(e))).toEqual([]);
    await page.close();
  });
});
