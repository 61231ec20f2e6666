/**
 * The home page, the status page, the paid services page, the API viewer and the not-found
 * page in real Chromium, each loading its data through the typed client (the API viewer
 * through the REST door it documents).
 */
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

describe('home page', () => {
  it('says what the service does, blocks an empty thesis, and opens the generated Coil at its own address', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const calls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    expect(await page.getByTestId('home-intro').textContent()).toMatch(/never places an order/);
    const journeys = await page.getByTestId('journey-link').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(journeys).toEqual(expect.arrayContaining(['/strategist', '/stocks', '/vaults', '/paid', '/me', '/docs']));

    // Empty and whitespace-only theses never reach the service.
    await page.getByTestId('generate-button').click();
    await expect.poll(() => page.getByTestId('thesis-problem').textContent()).toContain('empty thesis');
    await page.getByTestId('thesis-input').fill('   \n  ');
    await page.getByTestId('generate-button').click();
    expect(await page.getByTestId('thesis-problem').textContent()).toContain('empty thesis');
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(false);

    await page.getByTestId('thesis-input').fill('Cloud software and payments networks for the next decade');
    await page.getByTestId('generate-button').click();
    await page.waitForURL(/\/coils\/[0-9a-f]{64}$/);
    await page.getByTestId('coil-result').waitFor();
    expect(await page.getByTestId('coil-assets').locator('tbody tr').count()).toBeGreaterThan(1);
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(true);
    expect(calls.some((u) => u.includes('tools.storedCoil'))).toBe(true);
    await page.close();
  });

  it('the Coil page shows the thesis and how it was read beside the basket; Back keeps the thesis in the box', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${server!.url}/`);
    const thesis = 'Short Tesla, EV demand is collapsing; mostly cloud software and some treasuries';
    await page.getByTestId('thesis-input').fill(thesis);
    await page.getByTestId('generate-button').click();
    await page.waitForURL(/\/coils\/[0-9a-f]{64}$/);
    const reading = page.getByTestId('thesis-reading');
    await reading.waitFor();
    expect(await page.getByTestId('thesis-text').textContent()).toBe(thesis);
    expect(await page.getByTestId('reading-excluded').textContent()).toMatch(/TSLA: bearish .*cannot short it/);
    expect(await page.getByTestId('reading-stance').textContent()).toMatch(/^mixed/);
    expect(await page.getByTestId('reading-not-understood').textContent()).toContain('demand');
    expect(await page.getByTestId('reading-matched').textContent()).toMatch(/“Tesla”.*TSLA/);
    const tickers = await page.getByTestId('coil-assets').locator('tbody tr td:first-child').allTextContents();
    expect(tickers).not.toContain('TSLA');
    expect(tickers).toContain('MSFT');

    // Reload keeps it (kept with the receipt, for this browser); Back finds it still in the box.
    await page.reload();
    await page.getByTestId('thesis-text').waitFor();
    await page.goBack();
    await page.waitForURL(`${server!.url}/`);
    await expect.poll(() => page.getByTestId('thesis-input').inputValue()).toBe(thesis);
    await page.close();
  });

  it('says so at the 2000-character limit and refuses a longer thesis instead of cutting it', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const calls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    const box = page.getByTestId('thesis-input');
    await box.fill('a'.repeat(2000));
    expect(await page.getByTestId('thesis-count').textContent()).toContain('2000 / 2000 characters: you have reached the limit');
    await box.fill('b'.repeat(2150));
    // Nothing is cut: the whole text stays in the box, and the page says by how much it is over.
    expect((await box.inputValue()).length).toBe(2150);
    expect(await page.getByTestId('thesis-problem').textContent()).toContain(
      '2150 characters; the limit is 2000. Shorten it by 150 characters.',
    );
    await page.getByTestId('generate-button').click();
    expect(calls.some((u) => u.includes('tools.generateCoil'))).toBe(false);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await page.close();
  });
});

describe('navigation on a phone', () => {
  it('folds the menu behind a button that opens it, by keyboard too', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server!.url}/`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const link = page.locator('nav a[href="/vaults"]');
    expect(await link.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await link.click();
    await page.getByTestId('vault-list').waitFor();
    expect(await link.isVisible()).toBe(false);
    await page.close();
  });
});

describe('status page', () => {
  it('shows the service mode, the feature flags in words and the registry table (moved here from home)', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const trpcCalls = recordTrpcCalls(page);
    await page.goto(`${server!.url}/`);
    await page.click('nav a[href="/status"]');
    await expect.poll(() => page.getByTestId('service-mode').textContent()).toBe('planning_only');
    const rows = page.getByTestId('registry-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(17);
    expect(await rows.filter({ hasText: 'USDG' }).textContent()).toContain('0x5fc5360D0400a0Fd4f2af552ADD042D716F1d168');
    const flags = page.getByTestId('feature-flags').locator('li');
    expect(await flags.count()).toBeGreaterThan(5);
    expect(await page.getByTestId('feature-flags').locator('li[data-flag="liveOrderPlacement"]').textContent()).toContain('no');
    expect(await page.getByTestId('strategist-words').textContent()).toBe('the local strategist');
    expect(trpcCalls.some((u) => u.includes('system.registry'))).toBe(true);
    await page.close();
  });
});

describe('paid services page', () => {
  it('lists each x402 service with its price, lane, payment chain and how to pay, without configuration names', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    await page.goto(`${server!.url}/paid`);
    const table = page.getByTestId('paid-services');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(4);
    expect(await table.locator('tr[data-service="vault-fee-calculation"] [data-testid="price"]').textContent()).toBe('0.01 USDC');
    expect(await page.getByTestId('paid-lane').getAttribute('data-state')).toBe('disabled');
    const text = (await page.locator('main').textContent())!;
    expect(text).toContain('TransferWithAuthorization');
    expect(text).not.toMatch(/FACILITATOR_[A-Z_]+/);
    await page.close();
  });
});

describe('API documentation', () => {
  it('renders the OpenAPI document grouped by family, and "Try it out" calls this server', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server!.url}/docs`);
    const viewer = page.locator('[data-testid="api-viewer"][data-state="ready"]');
    await viewer.locator('section.family').first().waitFor({ timeout: 30_000 });
    const tags = await viewer.locator('section.family h2').allTextContents();
    for (const family of ['tools', 'stocks', 'vaults', 'x402', 'auth', 'me']) expect(tags.map((t) => t.trim())).toContain(family);

    // Open GET /health, try it, and read the answer of this server.
    const op = viewer.locator('details.op[data-method="GET"][data-path="/health"]');
    await op.locator('summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await expect.poll(() => op.getByTestId('answer-body').textContent(), { timeout: 15_000 }).toContain('planning_only');
    expect(await op.getByTestId('answer-status').textContent()).toBe('200');

    // A POST route shows its request body, prefilled with the document's example.
    const generate = viewer.locator('details.op[data-method="POST"][data-path="/tools/generate-coil"]');
    await generate.locator('summary').click();
    expect(JSON.parse(await generate.getByLabel(/Request body/).inputValue())).toMatchObject({ prompt: expect.any(String) });

    // Everything the viewer needed came from this server.
    const origin = new URL(server!.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
    expect(requests).toContain(`${origin}/api/openapi.json`);
    await page.close();
  });
});

describe('unknown paths', () => {
  it('answer 404 with a "Not found" page, also under a known prefix', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await browser!.newPage();
    for (const path of ['/no-such-page', '/vaults/no-such-vault', `/coils/${'ab'.repeat(32)}`]) {
      const res = await page.goto(`${server!.url}${path}`);
      expect(res?.status()).toBe(404);
      await expect.poll(() => page.getByTestId('error-page').locator('h1').textContent()).toBe('Not found');
      expect(await page.locator('main').textContent()).not.toContain('Internal error');
    }
    await page.close();
  });
});
