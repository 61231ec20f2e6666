/**
 * The strategist page in real Chromium: thesis in, the Coil hub out (weights chart, health,
 * provenance in words, receipt), through the typed client. Refusals show the envelope's code
 * and message; the strategist's provenance never shows configuration names to people.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, followNav, launchBrowser, recordTrpcCalls } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

let server: TestServer | undefined;
/** STRATEGIST_PROVIDER=partner with no partner configured: every thesis is refused (503). */
let partnerOnly: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  // The default provider (partner_or_mock) with no partner: the local strategist answers as a fallback.
  [server, partnerOnly] = await Promise.all([
    startServer({ allowPostgres: false }),
    startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'partner' } }),
  ]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await partnerOnly?.stop();
});

describe('strategist page', () => {
  it('turns a thesis into a Coil hub with a receipt, reached from the nav link', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const calls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    await followNav(page, '/strategist', 'Strategist');
    await page.getByTestId('thesis-input').fill('AI chips and data-center GPUs, with NVDA leading');
    await page.getByTestId('generate-button').click();
    const result = page.getByTestId('coil-result');
    await result.waitFor();
    const slug = await page.getByTestId('coil-slug').textContent();
    // Both themes name the basket; their order is the reader's ranking, not part of the page.
    expect(slug).toMatch(/^(artificial-intelligence-semiconductors|semiconductors-artificial-intelligence)-basket-[0-9a-f]{8}$/);
    // The thesis and how it was read, beside the basket.
    expect(await page.getByTestId('thesis-text').textContent()).toBe('AI chips and data-center GPUs, with NVDA leading');
    expect(await page.getByTestId('reading-matched').textContent()).toMatch(/“NVDA”\s+→ NVDA \(NVIDIA\); wanted/);
    expect(await page.getByTestId('receipt-id').textContent()).toMatch(/^hrcpt_[0-9a-f]{32}$/);
    expect(await result.textContent()).toContain(slug!);
    expect(await page.getByTestId('coil-assets').locator('tbody tr').filter({ hasText: 'NVDA' }).count()).toBe(1);
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(true);

    // The weights chart is an accessible SVG naming every asset and weight.
    const chart = page.getByTestId('weights-chart').locator('svg');
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.locator('desc').textContent()).toMatch(/NVDA \d+\.\d{2}%/);
    // Health with its components.
    expect(Number(await page.getByTestId('coil-health').textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId('health').locator('[role="meter"]').count()).toBe(5);

    // Provenance in words: the partner is not configured, so the local strategist answered.
    expect(await page.getByTestId('strategist-badge').textContent()).toBe("Local strategist (the partner's agent is not connected)");
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toMatch(/PARTNER_API_URL|PARTNER_API_KEY|STRATEGIST_PROVIDER/);

    // The permanent link opens the same Coil.
    const permalink = await page.getByTestId('coil-permalink').getAttribute('href');
    expect(permalink).toMatch(/^\/coils\/[0-9a-f]{64}$/);

    // A different thesis gives a different basket on the same page.
    await page.getByTestId('thesis-input').fill('defensive index exposure and treasuries');
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('coil-slug').textContent()).toMatch(/^defensive-positioning-broad-index-exposure/);
    expect(await page.getByTestId('coil-assets').locator('tbody tr').filter({ hasText: 'SGOV' }).count()).toBe(1);

    await page.goto(`${server!.url}${permalink}`);
    await expect.poll(() => page.getByTestId('coil-slug').textContent()).toBe(slug);
    expect(await page.getByTestId('strategist-badge').textContent()).toBe('Local strategist');
    await page.close();
  });

  it('blocks an over-long thesis in the page and shows the code and message of a refusal', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const calls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/strategist`);
    await page.getByTestId('thesis-input').fill('x'.repeat(2001));
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('thesis-problem').textContent()).toContain('Shorten it by 1 character.');
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(false);
    expect(await page.getByTestId('coil-result').count()).toBe(0);

    // A refusal of the service: its stable code and its message, and no result.
    await page.goto(`${partnerOnly!.url}/strategist`);
    await page.getByTestId('thesis-input').fill('AI chips and data-center GPUs');
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('generate-error-code').textContent()).toBe('PARTNER_NOT_CONFIGURED');
    expect(await page.getByTestId('generate-error').getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('coil-result').count()).toBe(0);
    await page.close();
  });
});
