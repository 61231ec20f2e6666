/**
 * The API viewer (/docs) in Chromium (issue 25, "Docs"): "Try it out" on a POST route sends the
 * document's example and gets this server's 200 on first press; the paid route shows its 402
 * (and 409, 413, 429); the page passes axe at every impact level, collapsed, with a route open
 * and with an answer shown, at 1280 and 390 px (screenshots with SVC_SCREENSHOT_DIR).
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser';
import { axeViolations, collectConsoleErrors, horizontalOverflow, screenshot, VIEWPORTS } from '../support/page-checks';
import { startServer } from '../support/server';

const suite = browserSuite(() => startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } }));

async function openViewer(page: Page): Promise<Locator> {
  await page.goto(`${suite.server!.url}/docs`);
  const viewer = page.locator('[data-testid="api-viewer"][data-state="ready"]');
  await viewer.locator('section.family').first().waitFor({ timeout: 30_000 });
  return viewer;
}

/** A desktop-sized page on the viewer, with its console errors collected. */
async function viewerPage(): Promise<{ page: Page; errors: string[]; viewer: Locator }> {
  const page = await suite.browser!.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectConsoleErrors(page);
  return { page, errors, viewer: await openViewer(page) };
}

/** Opens a route as a person does: a click on its summary. */
async function openOperation(viewer: Locator, method: 'GET' | 'POST', path: string): Promise<Locator> {
  const op = viewer.locator(`details.op[data-method="${method}"][data-path="${path}"]`);
  await op.locator('summary').first().click();
  // The body renders once the details element's toggle has run (ApiOperation.svelte `{#if open}`):
  // a read that does not wait, like evaluateAll, could find no rows yet.
  await op.locator('table.answers').waitFor();
  return op;
}

/** axe at every impact level, and no sideways scroll, at both widths. */
async function checkPage(page: Page, name: string) {
  const out = [];
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.waitForTimeout(200);
    out.push({ viewport: vp.name, overflowPx: Math.max(0, await horizontalOverflow(page)), violations: await axeViolations(page) });
    await screenshot(page, `${name}-${vp.width}`);
  }
  return out;
}

describe('API viewer', () => {
  it('"Try it out" on POST /tools/validate-coil answers 200 on first press with the example', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const { page, errors, viewer } = await viewerPage();
    const op = await openOperation(viewer, 'POST', '/tools/validate-coil');
    // The body the viewer will send is the document's example: a real Coil and a real nowIso.
    const sent = JSON.parse(await op.getByLabel(/Request body/).inputValue());
    expect(sent.nowIso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(sent.coil.assets.length).toBeGreaterThan(0);
    await op.getByRole('button', { name: 'Try it out' }).click();
    await expect.poll(() => op.getByTestId('answer-status').textContent(), { timeout: 15_000 }).toBe('200');
    expect(await op.getByTestId('answer-body').textContent()).toContain('"liveOrderSent": false');
    const results = await checkPage(page, 'docs-try-it-out');
    expect(results).toEqual(VIEWPORTS.map((vp) => ({ viewport: vp.name, overflowPx: 0, violations: [] })));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('"Try it out" on every route is accepted on first press: no example is refused as input (400)', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const { page, errors, viewer } = await viewerPage();
    const routes = await viewer
      .locator('details.op')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-method')!, e.getAttribute('data-path')!] as const));
    expect(routes.length).toBeGreaterThanOrEqual(76);
    const answered: Record<string, string> = {};
    for (const [method, path] of routes) {
      const op = await openOperation(viewer, method as 'GET' | 'POST', path);
      await op.getByRole('button', { name: 'Try it out' }).click();
      await expect.poll(() => op.getByTestId('answer-status').count(), { timeout: 15_000 }).toBe(1);
      answered[`${method} ${path}`] = (await op.getByTestId('answer-status').textContent())!;
      await op.locator('summary').first().click(); // close it again
    }
    expect(Object.entries(answered).filter(([, status]) => status === '400')).toEqual([]);
    expect(Object.values(answered).filter((s) => s === '200').length).toBeGreaterThanOrEqual(55);
    expect(errors.filter((e) => !/status of (401|402|404|409|422|503)/.test(e))).toEqual([]);
    await page.close();
  }, 180_000);

  it('the paid route documents its 402 with PAYMENT-REQUIRED, and 409, 413 and 429', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const { page, viewer } = await viewerPage();
    const op = await openOperation(viewer, 'POST', '/vaults/x402/{serviceName}');
    const codes = await op.locator('table.answers tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));
    expect(codes).toEqual(expect.arrayContaining(['200', '402', '409', '413', '429']));
    expect(await op.locator('tr[data-code="402"]').textContent()).toContain('PAYMENT-REQUIRED');
    expect(await op.locator('tr[data-code="200"]').textContent()).toContain('PAYMENT-RESPONSE');
    // Unpaid, "Try it out" answers the 402 challenge itself (the test server takes payment on no lane: 503 says so).
    await op.getByRole('button', { name: 'Try it out' }).click();
    await expect.poll(() => op.getByTestId('answer-status').textContent(), { timeout: 15_000 }).toMatch(/^(402|503)$/);
    await page.close();
  });

  it('passes axe at every impact level, collapsed and with a route open, at 1280 and 390 px', async (ctx) => {
    if (suite.skipReason) return ctx.skip();
    const { page, errors, viewer } = await viewerPage();
    expect(await checkPage(page, 'docs')).toEqual(VIEWPORTS.map((vp) => ({ viewport: vp.name, overflowPx: 0, violations: [] })));
    const op = await openOperation(viewer, 'GET', '/x402/receipts/{receiptId}');
    await op.locator('details.schemas > summary').click();
    expect(await checkPage(page, 'docs-open')).toEqual(VIEWPORTS.map((vp) => ({ viewport: vp.name, overflowPx: 0, violations: [] })));
    expect(errors).toEqual([]);
    await page.close();
  });
});
