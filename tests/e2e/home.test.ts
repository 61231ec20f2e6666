/** The home page in real Chromium: mode, flags and the canonical registry table via the typed client. */
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
  server = await startServer({ allowPostgres: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('home page', () => {
  it('shows the service mode, the feature flags and the registry table', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const trpcCalls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    await expect.poll(() => page.getByTestId('service-mode').textContent()).toBe('planning_only');
    const rows = page.getByTestId('registry-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(17);
    const usdgRow = rows.filter({ hasText: 'USDG' });
    expect(await usdgRow.textContent()).toContain('0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168');
    expect(await page.getByTestId('feature-flags').locator('li').count()).toBeGreaterThan(5);

    // Navigating client-side loads the data again through the typed client at /trpc.
    await page.click('a[href="/docs"]');
    await expect.poll(() => page.getByTestId('api-operations').locator('tbody tr').count()).toBeGreaterThan(3);
    await page.click('a[href="/"] >> nth=1');
    await expect.poll(() => rows.count()).toBe(17);
    expect(trpcCalls.some((u) => u.includes('system.registry'))).toBe(true);
    await page.close();
  });
});
