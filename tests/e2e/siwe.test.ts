/**
 * Sign-In with Ethereum in real Chromium: an injected EIP-1193 wallet (signing with a viem
 * local account) signs in through the layout control, generates a Coil on the strategist
 * page, finds it under "My Coils" (and nobody else's), logs out, and is refused afterwards,
 * also when the old cookie is replayed.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { injectWallet } from '../support/injected-wallet';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

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

/** A Coil generated through the API under `account`'s session (another browser, in effect). */
async function generateAs(account: typeof WALLET_B, prompt: string): Promise<string> {
  const { cookie } = await signIn(server!, account);
  const res = await server!.post('/api/tools/generate-coil', { prompt }, { cookie });
  if (res.status !== 200) throw new Error(`generate-coil: ${res.status} ${res.text}`);
  return res.json.coil.slug;
}

describe('Sign in with Ethereum (browser)', () => {
  it('signs in with an EIP-6963 wallet, generates a Coil, sees it under My Coils, logs out and is refused afterwards', async (ctx) => {
    if (skipReason) return ctx.skip();
    const otherWalletsSlug = await generateAs(WALLET_B, 'Defensive healthcare and broad index exposure for a slow year');

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

    // Generate a Coil while signed in.
    await page.click('nav a[href="/strategist"]');
    await page.getByTestId('thesis-input').fill('AI chips and data-center GPUs, with NVDA leading');
    await page.getByTestId('generate-button').click();
    await page.getByTestId('coil-result').waitFor();
    const slug = (await page.getByTestId('coil-slug').textContent())!.trim();
    const receiptId = (await page.getByTestId('receipt-id').textContent())!.trim();
    expect(slug).not.toBe(otherWalletsSlug);

    // It is under My Coils, with its receipt; the other wallet's Coil is not.
    await page.click('nav a[href="/me"]');
    const rows = page.getByTestId('my-coil-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-slug')).toBe(slug);
    expect(await page.getByTestId('my-receipts').textContent()).toContain(receiptId);
    expect(await page.content()).not.toContain(otherWalletsSlug);

    // Log out: the page forgets the session and the server refuses it.
    await page.getByTestId('siwe-logout').click();
    await expect.poll(() => page.getByTestId('me-signed-out').isVisible()).toBe(true);
    expect(await page.getByTestId('my-coils').count()).toBe(0);
    expect((await context.cookies()).find((c) => c.name === 'svc_session')).toBeUndefined();
    expect(await page.evaluate(async () => (await fetch('/api/me/coils')).status)).toBe(401);

    // The old cookie, put back, is refused too: logout ended the session server-side.
    await context.addCookies([cookie!]);
    expect((await context.cookies()).find((c) => c.name === 'svc_session')?.value).toBe(cookie!.value);
    expect(await page.evaluate(async () => (await fetch('/api/me/coils')).status)).toBe(401);
    await page.reload();
    await expect.poll(() => page.getByTestId('me-signed-out').isVisible()).toBe(true);

    // A Coil generated after logout belongs to no wallet.
    await page.click('nav a[href="/strategist"]');
    await page.getByTestId('thesis-input').fill('Payments networks and cloud software over a long horizon');
    await page.getByTestId('generate-button').click();
    await page.getByTestId('coil-result').waitFor();
    const anonymousSlug = (await page.getByTestId('coil-slug').textContent())!.trim();
    const { cookie: again } = await signIn(server!, WALLET_A);
    const mine = await server!.get('/api/me/coils', { cookie: again });
    expect(mine.json.items.map((c: { slug: string }) => c.slug)).toEqual([slug]);
    expect(mine.text).not.toContain(anonymousSlug);
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

  it('signs in through window.ethereum on chain 1 and lists that wallet\'s Coils only', async (ctx) => {
    if (skipReason) return ctx.skip();
    const ownSlug = await generateAs(WALLET_B, 'Energy transition utilities and grid equipment');
    const context = await browser!.newContext();
    const page = await context.newPage();
    await injectWallet(page, WALLET_B, { announce: false, legacy: true, chainId: 1 });
    await page.goto(`${server!.url}/me`);
    await expect.poll(() => page.getByTestId('siwe-button').isEnabled()).toBe(true);
    await page.getByTestId('siwe-button').click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_B.address);
    expect(await page.getByTestId('siwe-status').textContent()).toContain('chain 1');
    const rows = page.getByTestId('my-coil-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const slugs = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(slugs).toContain(ownSlug);
    const api = await server!.get('/api/me/coils?limit=100', { cookie: (await signIn(server!, WALLET_B)).cookie });
    expect(slugs.sort()).toEqual(api.json.items.map((c: { slug: string }) => c.slug).sort());
    await context.close();
  });
});
