/**
 * The journeys from a Coil onwards, as a person walks them in real Chromium through the real
 * server, each checked at 1280 and 390 px with axe-core at every impact level and no console
 * error (SVC_SCREENSHOT_DIR saves the screenshots):
 * - the Coil page leads with the holdings: names, tickers and weights in the first screen at 390 px (light and dark);
 * - act on a basket: a total amount becomes one plan per asset (a total above the Coil's own limit is refused with why); no vault buys the basket, and the page says so;
 * - plain words: the "?" beside a word, the glossary, an error that says what happened with Try again;
 * - a progress bar while the next page loads;
 * - dark mode from the system's preference, and the toggle that overrides it;
 * - My Coils: one row per Coil, and the Coils built before signing in claimed explicitly;
 * - sharing: the card's page with its preview tags and the PNG.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { injectWallet } from '../support/injected-wallet';
import { checkAtBothWidths, collectConsoleErrors } from '../support/page-checks';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A } from '../support/siwe';

let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;
let manifestHash = '';
let assets: { ticker: string; weightBps: number }[] = [];

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  browser = await launchBrowser();
  const res = await server.post('/api/tools/generate-coil', {
    prompt: 'AI chips and data-center GPUs, with some defensive index exposure',
  });
  manifestHash = res.json.receipt.manifestHash;
  assets = res.json.coil.assets;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Both widths, axe at every impact level, no sideways scroll. */
async function expectCleanAtBothWidths(page: Page, name: string): Promise<void> {
  for (const r of await checkAtBothWidths(page, name, undefined, { allImpacts: true })) {
    expect({ viewport: r.viewport, overflowPx: Math.max(0, r.overflowPx), violations: r.violations }).toEqual({
      viewport: r.viewport,
      overflowPx: 0,
      violations: [],
    });
  }
}

async function openPage(context: BrowserContext | Browser, path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = collectConsoleErrors(page);
  await page.goto(`${server!.url}${path}`);
  return { page, errors };
}

describe('act on a basket', () => {
  it("refuses a total above the Coil's own limit with the reason, plans every asset for its share, and says no vault buys the basket", async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, `/coils/${manifestHash}`);
    // The thesis page opens on its overview, with the next step one click away.
    expect(await page.getByTestId('section-overview').isVisible()).toBe(true);
    expect(await page.getByTestId('section-act').isVisible()).toBe(false);
    await page.getByTestId('next-step').getByRole('link').click();
    await page.getByTestId('section-act').waitFor();
    expect(new URL(page.url()).hash).toBe('#act');
    expect(await page.getByTestId('tab-act').getAttribute('aria-current')).toBe('true');

    // Without the acknowledgments nothing can be planned.
    expect(await page.getByTestId('basket-button').isDisabled()).toBe(true);
    // A total above the Coil's own notional limit is refused with the reason next to the field, and nothing is planned.
    await page.getByTestId('basket-amount').fill('1253');
    await page.getByTestId('basket-ack-exposure').check();
    await page.getByTestId('basket-ack-partner').check();
    await page.getByTestId('basket-button').click();
    await expect
      .poll(() => page.getByTestId('panel-basket').textContent())
      .toContain("the Coil's own risk limits cap its total notional at 500 USD");
    expect(await page.getByTestId('basket-result').count()).toBe(0);
    // The refusal is an HTTP 422, which Chromium logs as a failed resource load: expected here only.
    expect(errors.splice(0).every((e) => e.includes('status of 422') && e.includes('stocks.planBasket'))).toBe(true);

    // Within the limit, every asset gets its plan for its share.
    const total = 500;
    await page.getByTestId('basket-amount').fill(String(total));
    await page.getByTestId('basket-button').click();
    await page.getByTestId('basket-result').waitFor();
    const legs = page.getByTestId('basket-leg');
    expect(await legs.count()).toBe(assets.length);
    const statuses = await legs.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(statuses).toEqual(assets.map(() => 'planned'));

    // A planned leg: its plan hash and its pack, which says who runs the trade and shows no template as an address.
    const plan = page.getByTestId('basket-plan').first();
    await plan.locator('summary').click();
    expect(await plan.getByTestId('basket-plan-hash').textContent()).toMatch(/^[0-9a-f]{64}$/);
    const ticker = await plan.getAttribute('data-ticker');
    expect(await plan.getByTestId(`basket-${ticker}-handover`).textContent()).toContain(
      'The partner (the external trading agent, @partnerbot) places',
    );
    expect(await plan.getByTestId(`basket-${ticker}-social`).textContent()).toMatch(
      new RegExp(`^@partnerbot buy \\$[0-9.]+ of ${ticker} on broker$`),
    );
    expect(await page.locator('body').textContent()).not.toContain('{partner_api_url}');
    await expectCleanAtBothWidths(page, 'coil-act');

    // Funding a vault is said for what it is: no vault buys this basket, and no deposit is offered as a way to fund it.
    expect(await page.getByTestId('basket-next').textContent()).toContain('does not buy these holdings');
    expect(await page.getByTestId('fund-no-vault').textContent()).toContain('No vault buys this basket.');
    expect(await page.getByTestId('fund').textContent()).toContain('A vault deposit does not');
    expect(await page.getByTestId('section-act').locator('a[href*="/deposit"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens on the Coil overview with the thesis sections one tab each, and a panel anchor opens its section', async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, `/coils/${manifestHash}#verify`);
    await page.getByTestId('section-records').waitFor();
    expect(await page.getByTestId('section-overview').isVisible()).toBe(false);
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('section-overview').waitFor();
    await expectCleanAtBothWidths(page, 'coil-overview');
    for (const tab of ['check', 'capsule-tab', 'records', 'share-tab']) {
      await page.getByTestId(`tab-${tab}`).click();
      await expectCleanAtBothWidths(page, `coil-${tab}`);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the Coil page leads with the holdings', () => {
  it('shows names, tickers, weights and the chart in the first screen at 390 px, the hashes behind a section a person opens', async (ctx) => {
    if (skipReason) return ctx.skip();
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser!.newContext({ colorScheme: scheme, viewport: { width: 390, height: 844 } });
      const { page, errors } = await openPage(context, `/coils/${manifestHash}`);
      await page.setViewportSize({ width: 390, height: 844 });
      const rows = page.getByTestId('coil-assets').locator('tbody tr');
      expect(await rows.count()).toBe(assets.length);
      // Every holding's ticker, name and weight, and the chart, end inside the first screen (844 px) without scrolling.
      for (let i = 0; i < assets.length; i++) {
        const row = rows.nth(i);
        expect(await row.getAttribute('data-ticker')).toBe(assets[i]!.ticker);
        expect((await row.getByTestId('holding-name').textContent())!.length).toBeGreaterThan(1);
        expect(await row.getByTestId('holding-weight').textContent()).toBe(`${(assets[i]!.weightBps / 100).toFixed(2)}%`);
      }
      const bottoms = await page.evaluate(() =>
        ['[data-testid="coil-assets"]', '[data-testid="weights-chart"]'].map(
          (sel) => document.querySelector(sel)!.getBoundingClientRect().bottom,
        ),
      );
      for (const bottom of bottoms) expect(bottom).toBeLessThanOrEqual(844);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // The hashes and labels wait in a closed section, and open on a click.
      const identity = page.getByTestId('identity');
      expect(await identity.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect(await page.getByTestId('coil-slug').isVisible()).toBe(false);
      await identity.locator('summary').click();
      expect(await page.getByTestId('coil-slug').isVisible()).toBe(true);
      await expectCleanAtBothWidths(page, `coil-page-${scheme}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('plain words', () => {
  it('explains a word in place and in the glossary', async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, `/coils/${manifestHash}`);
    const question = page.getByTestId('term-canonical').first();
    expect(await question.getAttribute('aria-expanded')).toBe('false');
    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
    const definition = page.getByTestId('term-def-canonical').first();
    expect(await definition.textContent()).toContain('fixed list of token addresses on chain 4663');
    await expectCleanAtBothWidths(page, 'coil-term-open');
    await definition.getByRole('link', { name: 'More in the glossary' }).click();
    await page.waitForURL((url) => url.pathname === '/glossary' && url.hash === '#canonical');
    await page.getByTestId('glossary').waitFor();
    for (const word of [
      'Coil',
      'Canonical',
      'Calldata',
      'Capsule',
      'Fuses',
      'bps (basis points)',
      'Rail A',
      'Mode A, B, C',
      'broker_chain',
      'Partner',
    ])
      expect(await page.getByRole('heading', { level: 2, name: word, exact: true }).count()).toBe(1);
    await expectCleanAtBothWidths(page, 'glossary');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says what happened when the service cannot be reached, keeps the code as detail, and tries again', async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, `/coils/${manifestHash}#check`);
    await page.route('**/trpc/tools.validateCoil**', (route) => route.abort('internetdisconnected'));
    await page.getByTestId('validate-button').click();
    const alert = page.getByTestId('validate-error');
    await alert.waitFor();
    expect(await page.getByTestId('validate-error-headline').textContent()).toBe('The service could not be reached.');
    expect(await alert.textContent()).toContain('Check your connection, then try again. Nothing was sent or signed.');
    expect(await page.getByTestId('validate-error-code').textContent()).toBe('NETWORK_FAILED');
    expect(await alert.textContent()).not.toContain('Failed to fetch');
    await expectCleanAtBothWidths(page, 'coil-network-error');
    await page.unroute('**/trpc/tools.validateCoil**');
    await page.getByTestId('validate-error-retry').click();
    await expect.poll(() => page.getByTestId('validation-status').textContent()).toBe('valid');
    expect(await alert.count()).toBe(0);
    // The one console line is Chromium's own note of the request it could not send.
    expect(errors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    await page.close();
  });

  it('shows a progress bar while the next page loads', async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, '/');
    // The Coil page's data arrives late: the bar shows until it does.
    await page.route('**/trpc/tools.storedCoil**', async (route) => {
      await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await page.evaluate((href) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = 'to the Coil';
      a.id = 'to-coil';
      document.querySelector('main')!.append(a);
    }, `/coils/${manifestHash}`);
    await page.click('#to-coil');
    await page.getByTestId('nav-progress').waitFor();
    expect(await page.getByTestId('nav-progress').getAttribute('role')).toBe('progressbar');
    await page.getByTestId('coil-result').waitFor();
    await expect.poll(() => page.getByTestId('nav-progress').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('dark mode', () => {
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  it('follows the system preference, and the toggle overrides it and is kept', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext({ colorScheme: 'dark' });
    const { page, errors } = await openPage(context, `/coils/${manifestHash}`);
    expect(await background(page)).toBe('rgb(14, 17, 32)');
    await expectCleanAtBothWidths(page, 'coil-dark');
    await page.getByTestId('tab-act').click();
    await expectCleanAtBothWidths(page, 'coil-act-dark');

    await page.getByTestId('theme-toggle').selectOption('light');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await background(page)).toBe('rgb(246, 247, 249)');
    await page.reload();
    await page.getByTestId('coil-result').waitFor();
    // Applied before the first paint, and the toggle shows the choice.
    expect(await background(page)).toBe('rgb(246, 247, 249)');
    expect(await page.getByTestId('theme-toggle').inputValue()).toBe('light');

    await page.getByTestId('theme-toggle').selectOption('system');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await background(page)).toBe('rgb(14, 17, 32)');
    for (const path of ['/', '/glossary', '/me', '/stocks']) {
      await page.goto(`${server!.url}${path}`);
      await expectCleanAtBothWidths(page, `dark${path === '/' ? '-home' : path.replace('/', '-')}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('My Coils', () => {
  it('lists each Coil once, and claims the Coils built before signing in only when asked', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext();
    const { page, errors } = await openPage(context, '/');
    await injectWallet(page, WALLET_A);
    await page.reload();

    // Built before signing in: a public Coil, with a claim ticket in this browser only.
    await page.getByTestId('thesis-input').fill('Cloud software and semiconductors for the next decade');
    await page.getByTestId('generate-button').click();
    await page.getByTestId('coil-result').waitFor();
    const builtHash = new URL(page.url()).pathname.split('/').pop()!;
    const ticket = (await context.cookies()).find((c) => c.name === 'svc_builder');
    expect(ticket).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // Sign in: nothing is claimed by itself.
    await page.getByTestId('siwe-button').click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_A.address);
    await page.click('nav a[href="/me"]');
    await page.getByTestId('claimable').waitFor();
    expect(await page.getByTestId('my-coils-empty').count()).toBe(1);
    expect(await page.getByTestId('claimable-coil').getAttribute('data-hash')).toBe(builtHash);
    await expectCleanAtBothWidths(page, 'me-claimable');

    await page.getByTestId('claim-button').click();
    await page.getByTestId('claimed-note').waitFor();
    await expect.poll(() => page.getByTestId('claimable').count()).toBe(0);
    await expect.poll(() => page.getByTestId('my-coil-row').count()).toBe(1);

    // A receipt of the same Coil, issued while signed in, adds a receipt but not a second row.
    await page.getByTestId('my-coil-link').click();
    await page.getByTestId('coil-result').waitFor();
    await page.getByTestId('tab-records').click();
    const issued = page.waitForResponse((r) => r.url().includes('/trpc/tools.receipt') && r.status() === 200);
    await page.getByTestId('receipt-button').click();
    await issued;
    await page.click('nav a[href="/me"]');
    await expect.poll(() => page.getByTestId('my-receipt-row').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('my-coil-row').count()).toBe(1);
    await expectCleanAtBothWidths(page, 'me-claimed');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('sharing', () => {
  it("opens the card's page with Open Graph and Twitter card tags and a PNG beside the SVG", async (ctx) => {
    if (skipReason) return ctx.skip();
    const { page, errors } = await openPage(browser!, `/coils/${manifestHash}#share`);
    await page.getByTestId('share-button').click();
    await page.getByTestId('share-result').waitFor();
    await page.getByTestId('share-page-link').click();
    await page.getByTestId('share-page').waitFor();
    const path = new URL(page.url()).pathname;
    expect(path).toMatch(new RegExp(`^/coils/${manifestHash}/share/hrcpt_[0-9a-f]{32}$`));
    const receiptId = path.split('/').pop()!;

    // The tags are in the server's HTML, where a link preview reads them.
    const html = await (await fetch(`${server!.url}${path}`)).text();
    const meta = (attr: string, name: string) => new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`).exec(html)?.[1];
    const png = `${server!.url}/api/share-card/${receiptId}.png`;
    expect(meta('property', 'og:image')).toBe(png);
    expect(meta('name', 'twitter:card')).toBe('summary_large_image');
    expect(meta('name', 'twitter:image')).toBe(png);
    expect(meta('property', 'og:url')).toBe(`${server!.url}${path}`);
    expect(meta('property', 'og:title')).toContain('a thesis basket');
    expect(meta('property', 'og:image:alt')?.length).toBeGreaterThan(10);

    const image = await fetch(png);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
    await expect.poll(() => page.getByTestId('share-png').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    expect(await page.getByTestId('share-download-svg').getAttribute('href')).toBe(`${server!.url}/api/share-card/${receiptId}.svg`);
    await expectCleanAtBothWidths(page, 'share-page');
    await page.getByTestId('share-open-coil').click();
    await page.waitForURL((url) => url.pathname === `/coils/${manifestHash}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
