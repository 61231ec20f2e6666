/** The strategist page in real Chromium: thesis in, Coil and receipt out, through the typed client. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, recordTrpcCalls } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('strategist page', () => {
  it('turns a thesis into a Coil with a receipt, reached from the nav link', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const calls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    await page.click('nav a[href="/strategist"]');
    await page.getByTestId('thesis-input').fill('AI chips and data-center GPUs, with NVDA leading');
    await page.getByTestId('generate-button').click();
    const result = page.getByTestId('coil-result');
    await result.waitFor();
    const slug = await page.getByTestId('coil-slug').textContent();
    expect(slug).toMatch(/^ai-and-semiconductors-basket-[0-9a-f]{8}$/);
    expect(await page.getByTestId('receipt-id').textContent()).toMatch(/^hrcpt_[0-9a-f]{32}$/);
    expect(await result.textContent()).toContain(slug!);
    expect(await page.getByTestId('coil-assets').locator('tbody tr').filter({ hasText: 'NVDA' }).count()).toBe(1);
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(true);

    // A different thesis gives a different basket on the same page.
    await page.getByTestId('thesis-input').fill('defensive index exposure and treasuries');
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('coil-slug').textContent()).toMatch(/^defensive-index-exposure/);
    expect(await page.getByTestId('coil-assets').locator('tbody tr').filter({ hasText: 'SGOV' }).count()).toBe(1);
    await page.close();
  });

  it('shows the error code when the request is refused', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${server!.url}/strategist`);
    await page.getByTestId('thesis-input').evaluate((el) => el.removeAttribute('maxlength'));
    await page.getByTestId('thesis-input').fill('x'.repeat(2001));
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('generate-error').textContent()).toContain('PROMPT_TOO_LONG');
    expect(await page.getByTestId('coil-result').count()).toBe(0);
    await page.close();
  });
});
