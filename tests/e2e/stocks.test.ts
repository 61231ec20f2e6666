/**
 * The stock-token plan in real Chromium: pick a canonical asset, write the two
 * acknowledgments out, see a refused field next to the field, prepare (plan hash and the
 * command pack with copy buttons), hand the plan to the partner's agent (a fake partner on
 * loopback), and follow the receipt on a timeline by job id and by transaction hash (the
 * local chain 4663). The timeline never shows a trade without on-chain proof.
 */
import { parseUnits, type Address } from 'viem';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { checkAtBothWidths } from '../support/page-checks';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { startFakePartner, stockLaneEnv, type FakePartner } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { AAPL, NVDA } from '../support/stock-intents';

const apiKey = secretMarker('partner');
let chain: LocalChain | undefined;
let partner: FakePartner | undefined;
let server: TestServer | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  [chain, partner] = await Promise.all([
    startLocalChain(),
    startFakePartner({ apiKey, script: () => ({ statuses: ['completed'], response: 'Done on the partner side.' }) }),
  ]);
  server = await startServer({
    allowPostgres: false,
    env: stockLaneEnv(partner, apiKey, chain.rpcUrl),
  });
  browser = await launchBrowser();
  context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  await Promise.all([chain?.stop(), partner?.stop()]);
});

describe('stock-token plan', () => {
  it('prepares a plan, hands it to the partner, and shows the receipt without a trade until the chain proves one', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await context!.newPage();
    await page.goto(`${server!.url}/stocks`);
    await expect.poll(() => page.getByTestId('lane-status').textContent()).toContain('available');
    await page.getByTestId('stock-asset').selectOption(NVDA);
    await page.getByTestId('stock-amount').fill('25');

    // The acknowledgments are written out, and preparing waits for both.
    const form = (await page.getByTestId('stock-form').textContent())!;
    expect(form).toContain('not direct ownership of the share');
    expect(form).toContain("the partner's agent carries out this trade, not this service");
    expect(await page.getByTestId('stock-prepare').isDisabled()).toBe(true);
    await page.getByTestId('ack-exposure').check();
    await page.getByTestId('ack-partner').check();

    // A slippage over the cap is refused by the service, and said next to its field.
    await page.getByTestId('stock-slippage').fill('600');
    await page.getByTestId('stock-prepare').click();
    await expect.poll(() => page.locator('#slippage-e').textContent()).toContain('SLIPPAGE_ABOVE_CAP');
    expect(await page.getByTestId('stock-error-code').textContent()).toBe('STOCK_INTENT_INVALID');

    await page.getByTestId('stock-slippage').fill('100');
    await page.getByTestId('stock-prepare').click();
    await expect.poll(() => page.getByTestId('stock-plan-hash').textContent()).toMatch(/^(0x)?[0-9a-f]{64}$/);
    const planHash = (await page.getByTestId('stock-plan-hash').textContent())!;
    expect(await page.getByTestId('command-social').textContent()).toMatch(/^@partnerbot buy \$25 of NVDA on broker$/);
    expect(await page.getByTestId('command-cli').textContent()).toContain('on broker');
    expect(await page.getByTestId('command-agent').textContent()).toContain('X-API-Key: <your partner API key>');
    await page.getByTestId('stock-prepared').getByTestId('copy-button').nth(1).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('@partnerbot buy $25 of NVDA on broker');
    // The pack says who runs the trade and how to hand it over here (this deployment can, and names its partner address).
    const handOver = (await page.getByTestId('command-handover').textContent())!;
    expect(handOver).toContain('The partner (the external trading agent, @partnerbot) places and settles the trade');
    expect(handOver).toContain('Hand the plan over from this service');
    expect(handOver).toContain(`${partner!.url}/agent/prompt`);
    expect(await page.locator('body').textContent()).not.toContain('{partner_api_url}');
    for (const r of await checkAtBothWidths(page, 'stocks-prepared', undefined, { allImpacts: true })) {
      expect({ viewport: r.viewport, overflowPx: Math.max(0, r.overflowPx), violations: r.violations }).toEqual({
        viewport: r.viewport,
        overflowPx: 0,
        violations: [],
      });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Prepared only: the first step is reached, the trade is not.
    await page.getByTestId('reconcile-button').click();
    await page.getByTestId('stock-timeline').waitFor();
    const step = (key: string) => page.locator(`[data-testid="stock-timeline-step"][data-step="${key}"]`).getAttribute('data-state');
    expect(await step('prepared')).toBe('done');
    expect(await step('onchain')).toBe('pending');

    // Hand it to the partner; the partner reports the job completed: still no trade shown.
    await page.getByTestId('stock-submit').click();
    await expect.poll(() => page.getByTestId('stock-job').textContent()).toMatch(/Job job_\d+/);
    expect(await page.getByTestId('reconcile-job').inputValue()).toMatch(/^job_\d+$/);
    await page.getByTestId('reconcile-plan').fill('');
    await page.getByTestId('reconcile-button').click();
    await expect.poll(() => page.getByTestId('stock-receipt').getAttribute('data-status')).toBe('job_completed_unconfirmed');
    expect(await step('submitted')).toBe('done');
    expect(await step('partner_completed')).toBe('done');
    expect(await step('onchain')).toBe('pending');
    expect(await page.locator('[data-step="onchain"]').textContent()).toContain('No on-chain proof yet');

    // A chain 4663 transaction that is not this plan's trade proves nothing.
    const tokenAbi = chain!.artifact('TestToken').abi;
    const unrelated = await chain!.send(AAPL as Address, tokenAbi, 'mint', [chain!.accounts[2]!.address, parseUnits('1', 18)]);
    await page.getByTestId('reconcile-plan').fill(planHash);
    await page.getByTestId('reconcile-job').fill('');
    await page.getByTestId('reconcile-tx').fill(unrelated.transactionHash);
    await page.getByTestId('reconcile-button').click();
    await page.getByTestId('reconcile-reason').waitFor();
    expect(await page.getByTestId('stock-receipt').getAttribute('data-status')).not.toBe('onchain_confirmed');
    expect(await step('onchain')).toBe('pending');
    expect(await page.getByTestId('stock-timeline').textContent()).not.toMatch(/\bfill(ed)?\b/i);
    await page.close();
  });
});
