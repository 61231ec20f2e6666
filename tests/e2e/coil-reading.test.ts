/**
 * The reading belongs to the Coil it produced (issue 33 items 3 and 4), in real Chromium: a
 * signed-in owner opens the Coil's permanent link in a new browser context and sees the thesis
 * and its reading; another wallet does not; flipping one exclusion rebuilds the Coil without that
 * asset, through the typed client, deterministically; a fork shows a memo of its own. At 1280 and
 * 390 px, light and dark, axe clean.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, recordTrpcCalls } from '../support/browser';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

const THESIS = 'AI chips: Nvidia, AMD and Broadcom, but never Intel';
const NOW = '2026-12-01T09:00:00.000Z';

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

/** A new browser context signed in as `account` (its session cookie, as if it signed in there). */
async function contextOf(account: typeof WALLET_A, scheme: 'light' | 'dark'): Promise<{ context: BrowserContext; cookie: string }> {
  const { cookie } = await signIn(server!, account);
  const context = await browser!.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server!.url, httpOnly: true, sameSite: 'Lax' }]);
  return { context, cookie };
}

async function expectClean(page: Page, name: string) {
  for (const r of await checkAtBothWidths(page, name, undefined, { allImpacts: true })) {
    expect({ viewport: r.viewport, overflowPx: Math.max(0, r.overflowPx), violations: r.violations }).toEqual({
      viewport: r.viewport,
      overflowPx: 0,
      violations: [],
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const heldTickers = (page: Page) => page.getByTestId('coil-assets').locator('tbody tr td:first-child').allTextContents();

describe('the thesis and its reading on the Coil page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the owner sees them at the permanent link in a new context, another wallet does not; one flip rebuilds without that asset (${scheme})`, async (ctx) => {
      if (skipReason) return ctx.skip();
      // Generated under the owner's session (elsewhere: through the API), pinned to one time.
      const { cookie } = await signIn(server!, WALLET_A);
      const generated = await server!.post('/api/tools/generate-coil', { prompt: THESIS, nowIso: NOW }, { cookie });
      expect(generated.status, generated.text).toBe(200);
      const manifestHash = generated.json.receipt.manifestHash as string;
      expect(generated.json.coil.assets.map((a: { ticker: string }) => a.ticker)).toContain('AMD');

      const owner = await contextOf(WALLET_A, scheme);
      const page = await owner.context.newPage();
      const errors = collectConsoleErrors(page);
      const calls = recordTrpcCalls(page);
      await page.goto(`${server!.url}/coils/${manifestHash}`);
      await page.getByTestId('thesis-reading').waitFor();
      expect(await page.getByTestId('thesis-text').textContent()).toBe(THESIS);
      const included = page.getByTestId('reading-included');
      expect(await included.textContent()).toMatch(/AMD: /);
      expect(await page.getByTestId('reading-risk').textContent()).toMatch(/^(low|medium|high), /);
      // The reading follows the holdings.
      const [holdingsY, readingY] = await Promise.all([
        page.getByTestId('coil-assets').evaluate((el) => el.getBoundingClientRect().top),
        page.getByTestId('thesis-reading').evaluate((el) => el.getBoundingClientRect().top),
      ]);
      expect(readingY).toBeGreaterThan(holdingsY);
      await expectClean(page, `coil-reading-owner-${scheme}`);

      // Another wallet: the Coil is the owner's, so neither it nor its thesis exists for it.
      const stranger = await contextOf(WALLET_B, scheme);
      const other = await stranger.context.newPage();
      const response = await other.goto(`${server!.url}/coils/${manifestHash}`);
      expect(response?.status()).toBe(404);
      expect(await other.locator('body').textContent()).not.toContain(THESIS);
      expect(await other.getByTestId('thesis-reading').count()).toBe(0);
      await stranger.context.close();

      // Flip one: exclude AMD, and rebuild from the same thesis through the typed client.
      expect(await page.getByTestId('rebuild-button').isDisabled()).toBe(true);
      await page.getByTestId('flip-exclude-AMD').click();
      expect(await page.getByTestId('flip-exclude-AMD').getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('pending-corrections').textContent()).toContain('exclude AMD');
      await expectClean(page, `coil-reading-flipped-${scheme}`);
      await page.getByTestId('rebuild-button').click();
      await page.waitForURL((url) => /\/coils\/[0-9a-f]{64}$/.test(url.pathname) && !url.pathname.endsWith(manifestHash));
      await page.getByTestId('thesis-reading').waitFor();
      expect(await heldTickers(page)).not.toContain('AMD');
      expect(await page.getByTestId('reading-excluded').textContent()).toMatch(/AMD: .*\(your correction\)/);
      expect(await page.getByTestId('thesis-text').textContent()).toBe(THESIS);
      expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(true);

      // Deterministic: the same thesis and correction give the same Coil and the same receipt.
      const rebuiltHash = new URL(page.url()).pathname.split('/').pop();
      const again = await server!.post(
        '/api/tools/generate-coil',
        { prompt: THESIS, corrections: { excluded: ['AMD'] }, nowIso: NOW },
        { cookie },
      );
      expect(again.json.receipt.manifestHash).toBe(rebuiltHash);
      const stored = await server!.get(`/api/coil/manifests/${rebuiltHash}`, { cookie });
      expect(stored.json.readings.map((r: { receiptId: string }) => r.receiptId)).toContain(again.json.receipt.receiptId);
      await expectClean(page, `coil-reading-rebuilt-${scheme}`);
      expect(errors).toEqual([]);
      await owner.context.close();
    });
  }

  it('a fork shows its own memo, for its own weights, and says what changed from its parent', async (ctx) => {
    if (skipReason) return ctx.skip();
    const { cookie } = await signIn(server!, WALLET_A);
    const generated = await server!.post('/api/tools/generate-coil', { prompt: 'Cloud software and payments' }, { cookie });
    const parent = generated.json.coil as { memo: { title: string; body: string }; assets: { ticker: string; weightBps: number }[] };
    const owner = await contextOf(WALLET_A, 'light');
    const page = await owner.context.newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`${server!.url}/coils/${generated.json.receipt.manifestHash}#fork`);
    await page.getByTestId('fork-button').waitFor();
    // Move 1 point from the first asset to the second.
    const [first, second] = parent.assets;
    await page.getByTestId(`fork-weight-${first!.ticker}`).fill(((first!.weightBps - 100) / 100).toFixed(2));
    await page.getByTestId(`fork-weight-${second!.ticker}`).fill(((second!.weightBps + 100) / 100).toFixed(2));
    await page.getByTestId('fork-button').click();
    await page.waitForURL(
      (url) => !url.pathname.endsWith(generated.json.receipt.manifestHash) && /\/coils\/[0-9a-f]{64}$/.test(url.pathname),
    );
    await page.getByTestId('coil-result').waitFor();
    const memo = page.getByRole('region', { name: /^Fork of / });
    expect(await memo.count()).toBe(1);
    const text = (await memo.textContent())!;
    expect(text).not.toContain(parent.memo.body);
    expect(text).toContain(`${first!.ticker} ${(first!.weightBps / 100).toFixed(2)}% → ${((first!.weightBps - 100) / 100).toFixed(2)}%`);
    expect(text).toContain('Changed from its parent');
    await expectClean(page, 'coil-reading-fork');
    expect(errors).toEqual([]);
    await owner.context.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`My Coils shows the thesis; the share page shows it only when the owner ticks it (${scheme})`, async (ctx) => {
      if (skipReason) return ctx.skip();
      const thesis = `Payments networks and cloud software, no Oracle (${scheme})`;
      const { cookie } = await signIn(server!, WALLET_A);
      const generated = await server!.post('/api/tools/generate-coil', { prompt: thesis }, { cookie });
      const manifestHash = generated.json.receipt.manifestHash as string;
      const owner = await contextOf(WALLET_A, scheme);
      const page = await owner.context.newPage();
      const errors = collectConsoleErrors(page);

      await page.goto(`${server!.url}/me`);
      const row = page.getByTestId('my-coil-row').filter({ hasText: generated.json.coil.slug });
      await row.waitFor();
      expect(await row.getByTestId('my-coil-thesis').textContent()).toBe(`“${thesis}”`);
      await expectClean(page, `coil-reading-my-coils-${scheme}`);

      // A card without the box ticked: its page holds no thesis.
      await page.goto(`${server!.url}/coils/${manifestHash}#share`);
      expect(await page.getByTestId('share-thesis').isChecked()).toBe(false);
      await page.getByTestId('share-button').click();
      await page.getByTestId('share-page-link').waitFor();
      const plainHref = (await page.getByTestId('share-page-link').getAttribute('href'))!;
      // Ticked: the next card (its own receipt, at the server's clock) shows it on its page.
      await page.getByTestId('share-thesis').check();
      await page.getByTestId('share-button').click();
      await expect.poll(() => page.getByTestId('share-thesis-result').textContent()).toContain('shows your thesis');
      const sharedHref = (await page.getByTestId('share-page-link').getAttribute('href'))!;
      expect(sharedHref).not.toBe(plainHref);

      const visitor = await browser!.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
      const public_ = await visitor.newPage();
      await public_.goto(`${server!.url}${plainHref}`);
      await public_.getByTestId('share-page').waitFor();
      expect(await public_.locator('main').textContent()).not.toContain(thesis);
      await public_.goto(`${server!.url}${sharedHref}`);
      expect(await public_.getByTestId('share-thesis-text').textContent()).toBe(thesis);
      await expectClean(public_, `coil-reading-share-page-${scheme}`);
      await visitor.close();
      expect(errors).toEqual([]);
      await owner.context.close();
    });
  }
});
