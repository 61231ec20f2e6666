/**
 * Sign-In with Ethereum in real Chromium: an injected EIP-1193 wallet (signing with a viem
 * local account) signs in through the layout control, generates a Coil on the strategist
 * page, finds it under "My Coils" (and nobody else's), opens it and verifies its receipt
 * from there, logs out, and is refused afterwards, also when the old cookie is replayed.
 * Before signing, the wallet must be on chain 4663: a wallet on chain 1 is asked to switch,
 * a wallet that does not know the chain is asked to add it, and a wallet that refuses is
 * refused (nothing is signed).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, followNav, launchBrowser } from '../support/browser';
import { injectWallet } from '../support/injected-wallet';
import { startServer, type TestServer } from '../support/server';
import { WALLET_A, WALLET_B, signIn } from '../support/siwe';

/** The public RPC address a deployment offers wallets that do not know chain 4663 (never contacted here). */
const PUBLIC_RPC = 'https://rpc.broker-chain.example';
let server: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock', PUBLIC_BROKER_CHAIN_RPC_URL: PUBLIC_RPC } });
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
    expect(wallet.signed[0]).toContain(
      `${new URL(server!.url).host} wants you to sign in with your Ethereum account:\n${WALLET_A.address}`,
    );
    expect(wallet.signed[0]).toContain(`URI: ${server!.url}`);
    expect(wallet.signed[0]).toContain('Chain ID: 4663');

    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('svc_session'); // HttpOnly

    // Generate a Coil while signed in.
    await followNav(page, '/strategist', 'Strategist');
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

    // A row opens its Coil page; a receipt opens its verification there.
    await page.getByTestId('my-coil-link').first().click();
    await expect.poll(() => page.getByTestId('coil-slug').textContent()).toBe(slug);
    expect(page.url()).toMatch(/\/coils\/[0-9a-f]{64}$/);
    await page.goBack();
    await page.getByTestId('my-receipt-link').filter({ hasText: receiptId }).click();
    await expect.poll(() => page.getByTestId('verify-ok').isVisible()).toBe(true);
    expect(await page.getByTestId('verify-input').inputValue()).toContain(receiptId);
    await page.click('nav a[href="/me"]');

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
    await followNav(page, '/strategist', 'Strategist');
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

  it("asks a wallet on chain 1 to switch to 4663 before signing, then lists that wallet's Coils only", async (ctx) => {
    if (skipReason) return ctx.skip();
    const ownSlug = await generateAs(WALLET_B, 'Energy transition utilities and grid equipment');
    const context = await browser!.newContext();
    const page = await context.newPage();
    const wallet = await injectWallet(page, WALLET_B, { announce: false, legacy: true, chainId: 1 });
    await page.goto(`${server!.url}/me`);
    await expect.poll(() => page.getByTestId('siwe-button').isEnabled()).toBe(true);
    await page.getByTestId('siwe-button').click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_B.address);
    expect(await page.getByTestId('siwe-status').textContent()).toContain('chain 4663');
    // The switch came before the signature, and the message was signed on chain 4663 for chain 4663.
    const methods = wallet.requests.map((r) => r.method);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeGreaterThan(-1);
    expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('personal_sign'));
    expect(wallet.requests.find((r) => r.method === 'wallet_switchEthereumChain')!.params).toEqual([{ chainId: '0x1237' }]);
    expect(wallet.requests.find((r) => r.method === 'personal_sign')!.chainId).toBe(4663);
    expect(wallet.signed[0]).toContain('Chain ID: 4663');
    const rows = page.getByTestId('my-coil-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const slugs = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(slugs).toContain(ownSlug);
    const api = await server!.get('/api/me/coils?limit=100', { cookie: (await signIn(server!, WALLET_B)).cookie });
    expect(slugs.sort()).toEqual(api.json.items.map((c: { slug: string }) => c.slug).sort());
    await context.close();
  });

  it('asks a wallet that does not know chain 4663 to add it (with the public RPC), then signs in', async (ctx) => {
    if (skipReason) return ctx.skip();
    const context = await browser!.newContext();
    const page = await context.newPage();
    const wallet = await injectWallet(page, WALLET_A, { chainId: 1, onSwitch: 'unknown_chain' });
    await page.goto(`${server!.url}/me`);
    await expect.poll(() => page.getByTestId('siwe-button').isEnabled()).toBe(true);
    await page.getByTestId('siwe-button').click();
    await expect.poll(() => page.getByTestId('siwe-status').getAttribute('data-address')).toBe(WALLET_A.address);
    const add = wallet.requests.find((r) => r.method === 'wallet_addEthereumChain');
    expect(add?.params).toEqual([
      expect.objectContaining({ chainId: '0x1237', rpcUrls: [PUBLIC_RPC], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }),
    ]);
    expect(wallet.signed[0]).toContain('Chain ID: 4663');
    await context.close();
  });

  it('refuses to sign when the wallet declines to switch, or says it switched but stays on chain 1', async (ctx) => {
    if (skipReason) return ctx.skip();
    for (const onSwitch of ['refuse', 'ignore'] as const) {
      const context = await browser!.newContext();
      const page = await context.newPage();
      const wallet = await injectWallet(page, WALLET_B, { chainId: 1, onSwitch });
      await page.goto(`${server!.url}/me`);
      await expect.poll(() => page.getByTestId('siwe-button').isEnabled()).toBe(true);
      await page.getByTestId('siwe-button').click();
      await expect
        .poll(() => page.getByTestId('siwe-error').textContent())
        .toContain(onSwitch === 'refuse' ? 'WALLET_CHAIN_SWITCH_DECLINED' : 'WALLET_CHAIN_NOT_SWITCHED');
      expect(await page.getByTestId('siwe-error').textContent()).toContain('nothing was signed or sent');
      expect(wallet.signed).toEqual([]);
      expect(wallet.requests.map((r) => r.method)).not.toContain('personal_sign');
      expect(await page.getByTestId('siwe-status').count()).toBe(0);
      expect((await context.cookies()).find((c) => c.name === 'svc_session')).toBeUndefined();
      await context.close();
    }
  });
});
