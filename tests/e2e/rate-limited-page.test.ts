/**
 * A page whose data load finds the visitor's limit spent shows the designed "too many
 * requests" state in real Chromium, whether it was rendered by the server (429, with
 * `retry-after`) or reached by a link inside the app (the load runs in the browser): a
 * heading, what happened, the seconds to wait and a way to try again. At 390 and 1280 px:
 * no horizontal scroll, no serious accessibility violation, no console error but the 429s.
 */
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { startServer } from '../support/server';

const suite = browserSuite(() => startServer({ allowPostgres: false, env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '300' } }));

describe('the "too many requests" state of a page', () => {
  it('is what the server renders once the load finds the limit spent, at both widths', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const page = await suite.browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectConsoleErrors(page);
    expect((await page.goto(`${suite.server!.url}/vaults`))?.status()).toBe(200);
    await page.getByTestId('vault-list').waitFor();

    const limited = await page.goto(`${suite.server!.url}/vaults`);
    expect(limited?.status()).toBe(429);
    expect(Number(limited?.headers()['retry-after'])).toBeGreaterThan(0);
    await page.getByTestId('rate-limited').waitFor();
    await expect(page.title()).resolves.toBe('Too many requests · Strategy Basket Service');
    expect(await page.getByTestId('rate-limited').textContent()).toMatch(/try again in \d+ s/);
    expect(await page.getByTestId('try-again').getAttribute('href')).toBe('/vaults');

    const results = await checkAtBothWidths(page, 'rate-limited');
    for (const r of results) {
      expect({ viewport: r.viewport, overflowPx: Math.max(0, r.overflowPx) }).toEqual({ viewport: r.viewport, overflowPx: 0 });
      expect({ viewport: r.viewport, violations: r.violations }).toEqual({ viewport: r.viewport, violations: [] });
    }
    expect(errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
    await page.close();
  });

  it('is what a link inside the app shows when the load runs in the browser', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const page = await suite.browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectConsoleErrors(page);
    // /paid spends its own procedure's point; the vaults list was spent by the test above.
    expect((await page.goto(`${suite.server!.url}/paid`))?.status()).toBe(200);
    await page.click('nav a[href="/vaults"]');
    await page.waitForURL((url) => url.pathname === '/vaults');
    await page.getByTestId('rate-limited').waitFor();
    expect(await page.getByTestId('error-page').getAttribute('data-status')).toBe('429');
    expect(await page.getByTestId('rate-limited').textContent()).toMatch(/try again in \d+ s/);
    expect(errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
    await page.close();
  });
});
