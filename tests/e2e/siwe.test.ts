/**
 * Sign-In with Ethereum in real Chromium: an injected EIP-1193 wallet (signing with a viem
 * local account) signs in through the layout control, the caller's Coil shows under
 * "My Coils", logout ends the session, and the old cookie is refused afterwards.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { openTestDb, type TestDb } from '../support/db';
import { injectWallet } from '../support/injected-wallet';
import { chromiumInstalled, requireService } from '../support/services';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B } from '../support/siwe';

let server: TestServer | undefined;
let browser: Browser | undefined;
let db: TestDb | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await requireService('Chromium (/usr/bin/chromium)', chromiumInstalled);
  if (skipReason) return;
  server = await startServer({ allowPostgres: false });
  db = openTestDb(server.databaseUrl);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await db?.$disconnect();
  await server?.stop();
});

/** Saves a Coil owned by `owner` the way the tools do (until the Coil tooling lands on this branch). */
async function saveOwnedCoil(owner: string, slug: string): Promise<void> {
  const createdAt = new Date();
  await db!.coil.create({
    data: {
      id: randomUUID(),
      slug,
      manifestHash: 'c'.repeat(64),
      ownerAddress: owner,
      manifestJson: JSON.stringify({ schemaVersion: '1.0.0', slug, name: `Thesis ${slug}`, mode: 'paper', assets: [] }),
      createdAt,
    },
  });
  await db!.receipt.create({
    data: {
      id: randomUUID(),
      receiptId: `hrcpt_${slug}`,
      kind: 'coil_manifest',
      manifestHash: 'c'.repeat(64),
      weightsChecksum: 'd'.repeat(64),
      validationStatus: 'valid',
      coilSlug: slug,
      ownerAddress: owner,
      receiptJson: '{}',
      createdAt,
    },
  });
}

describe('Sign in with Ethereum (browser)', () => {
  it('signs in with an EIP-6963 wallet, lists My Coils, logs out and is refused afterwards', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext();
    const page = await context.newPage();
    const wallet = await injectWallet(page, WALLET_A);

    await page.goto(`${server!.url}/`);
    const button = page.getByTestId('siwe-button');
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_A.address);

    // The wallet was asked to sign an EIP-4361 message for this origin.
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.signed[0]).toContain(`${new URL(server!.url).host} wants you to sign in with your Ethereum account:\n${WALLET_A.address}`);
    expect(wallet.signed[0]).toContain(`URI: ${server!.url}`);
    expect(wallet.signed[0]).toContain('Chain ID: 4663');

    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('svc_session'); // HttpOnly

    const slug = `my-thesis-${Date.now()}`;
    await saveOwnedCoil(WALLET_A.address, slug);
    await saveOwnedCoil(await ensureUser(WALLET_B.address), 'someone-elses-coil');

    await page.click('a[href="/me"]');
    const rows = page.getByTestId('my-coil-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-slug')).toBe(slug);
    expect(await page.getByTestId('my-receipts').textContent()).toContain(`hrcpt_${slug}`);
    expect(await page.content()).not.toContain('someone-elses-coil');

    await page.getByTestId('siwe-logout').click();
    await expect.poll(() => page.getByTestId('me-signed-out').isVisible()).toBe(true);
    expect(await page.getByTestId('my-coils').count()).toBe(0);
    expect((await context.cookies()).find((c) => c.name === 'svc_session')).toBeUndefined();

    // Refused afterwards: from the page, and with the old cookie replayed.
    expect(await page.evaluate(async () => (await fetch('/api/me/coils')).status)).toBe(401);
    await context.addCookies([cookie!]);
    expect((await context.cookies()).find((c) => c.name === 'svc_session')?.value).toBe(cookie!.value);
    expect(await page.evaluate(async () => (await fetch('/api/me/coils')).status)).toBe(401);
    await page.reload();
    await expect.poll(() => page.getByTestId('me-signed-out').isVisible()).toBe(true);
    await context.close();
  });

  it('finds a wallet that only sets window.ethereum, and shows a declined signature as an error', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext();
    const page = await context.newPage();
    await injectWallet(page, WALLET_B, { announce: false, legacy: true, decline: true });
    await page.goto(`${server!.url}/me`);
    const button = page.getByTestId('siwe-button');
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await expect.poll(() => page.getByTestId('siwe-error').textContent()).toContain('declined');
    expect(await page.getByTestId('siwe-status').count()).toBe(0);
    expect((await context.cookies()).find((c) => c.name === 'svc_session')).toBeUndefined();
    await context.close();
  });

  it('signs in through window.ethereum on chain 1', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext();
    const page = await context.newPage();
    await injectWallet(page, WALLET_B, { announce: false, legacy: true, chainId: 1 });
    await saveOwnedCoil(await ensureUser(WALLET_B.address), 'b-own-coil');
    await page.goto(`${server!.url}/me`);
    await expect.poll(() => page.getByTestId('siwe-button').isEnabled()).toBe(true);
    await page.getByTestId('siwe-button').click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_B.address);
    expect(await page.getByTestId('siwe-status').textContent()).toContain('chain 1');
    const rows = page.getByTestId('my-coil-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const slugs = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(slugs).toContain('b-own-coil');
    expect(slugs.every((s) => s === 'b-own-coil' || s === 'someone-elses-coil')).toBe(true);
    await context.close();
  });
});

async function ensureUser(address: string): Promise<string> {
  await db!.walletUser.upsert({ where: { address }, create: { address }, update: {} });
  return address;
}
