/**
 * The vault pages in real Chromium: the list (V2 canonical, V1 legacy) and the V2 status,
 * read live from the local chain 4663 and, on a deployment that cannot read the chain,
 * shown as unknown: never 0, never live. Rebalancing reads as inactive by owner policy, not
 * as a fault.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV2Suite, V2_FIXTURE } from '../support/chain/vaults';
import { startServer, type TestServer } from '../support/server';

let chain: LocalChain | undefined;
let live: TestServer | undefined;
let blind: TestServer | undefined;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  chain = await startLocalChain();
  await placeV2Suite(chain);
  [live, blind] = await Promise.all([
    startServer({ allowPostgres: false, env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } }),
    startServer({ allowPostgres: false }),
  ]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await live?.stop();
  await blind?.stop();
  await chain?.stop();
});

async function openV2(server: TestServer): Promise<Page> {
  const page = await browser!.newPage();
  await page.goto(`${server.url}/vaults`);
  const cards = page.getByTestId('vault-card');
  await expect.poll(() => cards.count()).toBe(2);
  // The canonical V2 vault comes first; the V1 vault is labelled legacy.
  expect(await cards.first().textContent()).toContain('V2 · canonical');
  expect(await cards.nth(1).textContent()).toContain('V1 · legacy');
  await cards.first().click();
  await page.getByTestId('v2-status').waitFor();
  return page;
}

describe('V2 vault page', () => {
  it('shows the live status: both capacities in USDG, the limiting fuses, the stage ladder and the lanes', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openV2(live!);
    const deposit = page.getByTestId('capacity-deposit');
    expect(await deposit.getAttribute('data-state')).toBe('live');
    expect(await deposit.textContent()).toContain(`${Number(V2_FIXTURE.nvda.buyUsdg).toLocaleString('en-US')}.000000 USDG`);
    expect(await page.getByTestId('limiting-fuse-deposit').textContent()).toContain('manipulation cost');
    expect(await page.getByTestId('capacity-redemption').getAttribute('data-state')).toBe('live');
    const ladder = (await page.getByTestId('v2-stage-ladder').textContent())!;
    expect(ladder).toMatch(/PREPARATION[\s\S]*SUBMISSION[\s\S]*SETTLEMENT/);
    expect(ladder).toContain(`On chain: ${V2_FIXTURE.receipts.settlement}`);
    const rebalance = page.locator('[data-testid="v2-lanes"] tr[data-lane="chunked_rebalance"]');
    expect(await rebalance.getAttribute('data-state')).toBe('inactive_by_owner_policy');
    expect(await rebalance.textContent()).toContain('inactive by owner policy');
    const note = page.getByTestId('v2-rebalancing');
    expect(await note.textContent()).toContain('not a fault');
    expect(await note.getAttribute('class')).toContain('alert-info');
    await page.close();
  });

  it('shows every unread value as unknown, never 0, when the chain cannot be read', async (ctx) => {
    if (skipReason) return ctx.skip();
    const page = await openV2(blind!);
    expect(await page.getByTestId('v2-status').getAttribute('data-overall')).toBe('unknown');
    for (const side of ['deposit', 'redemption']) {
      const capacity = page.getByTestId(`capacity-${side}`);
      expect(await capacity.getAttribute('data-state')).toBe('unknown');
      const text = (await capacity.textContent())!;
      expect(text).toContain('unknown');
      expect(text).not.toMatch(/\b0(\.0+)? USDG/);
      expect(await page.getByTestId(`limiting-fuse-${side}`).textContent()).toContain('unknown');
    }
    expect(await page.getByTestId('v2-mode').textContent()).toBe('unknown');
    expect(await page.getByTestId('v2-rebalancing').textContent()).toContain('not a fault');
    expect(await page.locator('main').textContent()).not.toMatch(/BROKER_CHAIN_RPC_URL/);
    await page.close();
  });
});
