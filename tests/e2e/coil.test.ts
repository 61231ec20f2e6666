/**
 * The Coil page as the hub, in real Chromium through the real server: every action with its
 * result on the page (validate, risk audit, drift check with its chart and previews,
 * capsule paper/agentic, receipt with copy buttons, verification by paste and upload, share
 * card, fork with live validation and lineage).
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, recordTrpcCalls } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

let server: TestServer | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let skipReason: string | undefined;
let manifestHash = '';
let generated: { coil: { slug: string; assets: { ticker: string; weightBps: number }[] }; receipt: Record<string, unknown> };

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  browser = await launchBrowser();
  context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const res = await server.post('/api/tools/generate-coil', {
    prompt: 'AI chips and data-center GPUs, with some defensive index exposure',
  });
  generated = res.json;
  manifestHash = res.json.receipt.manifestHash;
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** The Coil page opened at one of its sections (its anchor: the section's id or a panel's). */
async function openCoil(anchor: string): Promise<Page> {
  const page = await context!.newPage();
  await page.goto(`${server!.url}/coils/${manifestHash}#${anchor}`);
  await page.getByTestId('coil-result').waitFor();
  return page;
}

describe('Coil hub', () => {
  it('validates and audits the Coil, with issues by severity and fuses set / required / missing', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('check');
    expect(await page.getByTestId('coil-slug').textContent()).toBe(generated.coil.slug);
    await page.getByTestId('validate-button').click();
    await expect.poll(() => page.getByTestId('validation-status').textContent()).toBe('valid');
    await page.getByTestId('risk-audit-button').click();
    await page.getByTestId('risk-audit-result').waitFor();
    const audit = (
      await server!.post('/api/tools/risk-audit', { coil: (await server!.get(`/api/coil/manifests/${manifestHash}`)).json.coil })
    ).json;
    expect(await page.getByTestId('fuses-set').textContent()).toBe(`${audit.fuses.length} set`);
    expect(await page.getByTestId('fuses-missing').textContent()).toBe(`${audit.missingRequired.length} missing`);
    await page.close();
  });

  it('drift-checks entered weights: a chart with the threshold, unknown readings, and previews that need confirmation', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('check');
    const [first, second] = generated.coil.assets;
    // Exactly on target: no breach, no proposal.
    await page.getByTestId(`drift-input-${first!.ticker}`).fill(String(first!.weightBps / 100));
    await page.getByTestId('drift-button').click();
    await expect.poll(() => page.getByTestId('breach-count').textContent()).toBe('0 breaches');
    expect(await page.getByTestId('rebalance-proposal').count()).toBe(0);
    // A symbol left empty is unknown, never 0.
    expect(await page.locator(`[data-testid="drift-row"][data-symbol="${second!.ticker}"]`).textContent()).toContain('unknown');

    // Far above target: a breach, drawn past the threshold, and previews only.
    await page.getByTestId(`drift-input-${first!.ticker}`).fill(String(first!.weightBps / 100 + 20));
    await page.getByTestId('drift-button').click();
    await expect.poll(() => page.getByTestId('breach-count').textContent()).toBe('1 breach');
    const desc = await page.getByTestId('drift-chart').locator('svg desc').textContent();
    expect(desc).toContain(`${first!.ticker}: target`);
    expect(desc).toContain('breaches the threshold');
    expect(desc).toContain(`${second!.ticker}: target ${(second!.weightBps / 100).toFixed(2)}%, current unknown`);
    const proposal = page.getByTestId('rebalance-proposal');
    expect(await proposal.textContent()).toContain('previews that need your confirmation');
    expect(await proposal.getByTestId('preview-intent').first().textContent()).toContain('preview');
    expect(await proposal.textContent()).not.toMatch(/\border (placed|sent|submitted)\b/i);
    // A weight the page cannot read exactly is refused in place, not rounded.
    await page.getByTestId(`drift-input-${second!.ticker}`).fill('12.345');
    expect(await page.getByTestId('drift-button').isDisabled()).toBe(true);
    await page.close();
  });

  it('compiles a capsule, and an agentic capsule only with its acknowledgment written out', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('capsule');
    await page.getByTestId('capsule-mode').selectOption('preview_only');
    await page.getByTestId('capsule-button').click();
    await expect.poll(() => page.getByTestId('capsule-result').textContent()).toContain('Previews only');

    await page.getByTestId('capsule-mode').selectOption('agentic_mcp_enabled');
    expect(await page.getByTestId('agentic-ack').textContent()).toContain('this service places no order and holds no key');
    await page.getByTestId('capsule-button').click();
    await expect.poll(() => page.getByTestId('capsule-error-code').textContent()).toBe('CAPSULE_COMPILE');
    expect(await page.getByTestId('capsule-error').textContent()).toContain('AGENTIC_ACK_REQUIRED');
    await page.getByTestId('agentic-ack').locator('input').check();
    await page.getByTestId('capsule-button').click();
    await expect.poll(() => page.getByTestId('capsule-result').textContent()).toContain('agentic mode acknowledged: yes');
    await page.close();
  });

  it('shows the receipt with copy buttons, and verifies pasted and uploaded receipts naming every mismatch', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('records');
    const receipt = page.getByTestId('receipt-result');
    expect(await page.getByTestId('receipt-id').textContent()).toBe(generated.receipt.receiptId);
    expect(await page.getByTestId('manifest-hash').textContent()).toBe(manifestHash);
    await receipt.getByTestId('copy-button').first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generated.receipt.receiptId);

    // Paste the receipt as issued: it verifies.
    await page.getByTestId('verify-input').fill(JSON.stringify(generated.receipt));
    await page.getByTestId('verify-button').click();
    await expect.poll(() => page.getByTestId('verify-ok').isVisible()).toBe(true);

    // Upload a tampered one: each mismatch is named.
    const tampered = { ...generated.receipt, weightsChecksum: '0'.repeat(64), coilId: 'coil_000000000000000000000000' };
    const dir = mkdtempSync(join(tmpdir(), 'svc-receipt-'));
    const file = join(dir, 'receipt.json');
    writeFileSync(file, JSON.stringify(tampered));
    await page.getByTestId('verify-file').setInputFiles(file);
    await expect.poll(() => page.getByTestId('verify-input').inputValue()).toContain('"weightsChecksum":"000');
    await page.getByTestId('verify-button').click();
    await page.getByTestId('verify-mismatches').waitFor();
    const named = await page.getByTestId('mismatch').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
    expect(named).toEqual(expect.arrayContaining(['weightsChecksum', 'coilId']));

    // Not JSON: said next to the field, nothing sent.
    const calls = recordTrpcCalls(page);
    await page.getByTestId('verify-input').fill('not a receipt');
    await page.getByTestId('verify-button').click();
    await page.getByTestId('verify-parse-problem').waitFor();
    expect(calls.some((u) => u.includes('tools.verifyCoil'))).toBe(false);
    await page.close();
  });

  it('makes a share card with a preview, a download and a link', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('share');
    await page.getByTestId('share-button').click();
    const image = page.getByTestId('share-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    const href = await page.getByTestId('share-download').getAttribute('href');
    expect(href).toMatch(/\/api\/share-card\/hrcpt_[0-9a-f]{32}\.svg$/);
    expect(await page.getByTestId('share-download').getAttribute('download')).toBe(`${generated.coil.slug}.svg`);
    const svg = await fetch(href!.startsWith('http') ? href! : `${server!.url}${href}`);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    // The link to share is the card's page (with its preview tags), not the bare image.
    expect(await page.getByTestId('share-url').textContent()).toMatch(/\/coils\/[0-9a-f]{64}\/share\/hrcpt_[0-9a-f]{32}$/);
    expect(await page.getByTestId('share-download-png').getAttribute('href')).toMatch(/\.png$/);
    await page.close();
  });

  it("forks with weights validated as you type, and shows the fork's lineage back to its parent", async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openCoil('share');
    const [first, second] = generated.coil.assets;
    const firstInput = page.getByTestId(`fork-weight-${first!.ticker}`);
    await firstInput.fill(String(first!.weightBps / 100 - 1));
    await expect.poll(() => page.getByTestId('fork-sum-problem').textContent()).toContain('add 1.00%');
    expect(await page.getByTestId('fork-button').isDisabled()).toBe(true);
    await firstInput.fill('0');
    await expect.poll(() => page.getByTestId('fork-weight-problem').first().textContent()).toContain('above 0%');
    // Move one point from the first asset to the second: valid again.
    await firstInput.fill(String(first!.weightBps / 100 - 1));
    await page.getByTestId(`fork-weight-${second!.ticker}`).fill(String(second!.weightBps / 100 + 1));
    await expect.poll(() => page.getByTestId('fork-total').textContent()).toContain('100.00%');
    await page.getByTestId('fork-name').fill('My tilted fork');
    await page.getByTestId('fork-button').click();

    await page.waitForURL((url) => /\/coils\/[0-9a-f]{64}$/.test(url.pathname) && !url.pathname.endsWith(manifestHash));
    await expect.poll(() => page.getByTestId('coil-name').textContent()).toBe('My tilted fork');
    expect(await page.getByTestId('fork-depth').textContent()).toBe('1');
    const links = await page.getByTestId('lineage-link').evaluateAll((els) => els.map((e) => e.getAttribute('data-hash')));
    expect(links[0]).toBe(manifestHash);
    expect(await page.getByTestId('parent-manifest-hash').textContent()).toBe(manifestHash);
    expect(await page.getByTestId('strategist-badge').textContent()).toMatch(/person/);
    // The parent is one click away.
    await page.locator(`[data-testid="lineage-link"][data-hash="${manifestHash}"] a`).click();
    await expect.poll(() => page.getByTestId('coil-slug').textContent()).toBe(generated.coil.slug);
    await page.close();
  });
});
