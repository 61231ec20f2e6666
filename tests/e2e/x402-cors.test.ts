/**
 * A browser buyer on another origin (issue 24, point 4): a page served from a second origin
 * calls the paid route with fetch in Chromium. Without the CORS exposure the browser hides
 * PAYMENT-REQUIRED (and refuses the preflight of PAYMENT-SIGNATURE); with it the page reads the
 * challenge, pays with a signed authorization and reads PAYMENT-RESPONSE, and the payer's USDG
 * moves on the local chain 4663.
 */
import { createServer, type Server } from 'node:http';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { Browser } from 'playwright-core';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { browserSkipReason, launchBrowser } from '../support/browser';
import { freePort } from '../support/server';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';
import { signAuthorization, v2PaymentHeader } from '../support/x402-payer';

const ROUTE = '/api/vaults/x402/vault-risk-score';
const PRICE = 20_000n;
let lane: ChainPaymentLane | undefined;
let browser: Browser | undefined;
let buyerSite: Server | undefined;
let buyerOrigin = '';
let skipReason: string | undefined;

beforeAll(async () => {
  skipReason = await browserSkipReason();
  if (skipReason) return;
  lane = await startChainPaymentLane({ facilitatorTimeoutMs: 5000 });
  const port = await freePort();
  buyerSite = createServer((_req, res) => {
    // data-hydrated: the suite's page.goto waits for it (it marks the app's pages once hydrated).
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en" data-hydrated="true"><title>Buyer</title><main><h1>A buyer on another origin</h1></main></html>',
    );
  });
  await new Promise<void>((resolve) => buyerSite!.listen(port, '127.0.0.1', resolve));
  buyerOrigin = `http://127.0.0.1:${port}`;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  buyerSite?.close();
  await lane?.stop();
});

it('a page on another origin reads PAYMENT-REQUIRED, pays with PAYMENT-SIGNATURE and reads PAYMENT-RESPONSE', async (ctx) => {
  if (skipReason) return ctx.skip();
  const page = await browser!.newPage();
  await page.goto(`${buyerOrigin}/`);
  const url = `${lane!.server.url}${ROUTE}`;
  const body = JSON.stringify({ allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] });
  expect(new URL(url).origin).not.toBe(buyerOrigin);

  const challenge = await page.evaluate(
    async ({ url, body }) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: res.status, paymentRequired: res.headers.get('PAYMENT-REQUIRED'), json: await res.json() };
    },
    { url, body },
  );
  expect(challenge.status).toBe(402);
  expect(challenge.paymentRequired, 'the browser hid PAYMENT-REQUIRED from the page').toBeTruthy();
  const required = decodePaymentRequiredHeader(challenge.paymentRequired!);

  // The buyer's wallet signs (here a viem account standing in for it).
  const account = privateKeyToAccount(generatePrivateKey());
  await lane!.chain.send(USDG.address as Address, lane!.chain.artifact('TestUSDG').abi, 'mint', [account.address, 1_000_000n]);
  const signed = await signAuthorization(account, { to: required.accepts[0]!.payTo, value: PRICE });
  const header = v2PaymentHeader(signed, required.accepts[0]!, required.resource as never);

  const paid = await page.evaluate(
    async ({ url, body, header }) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header }, body });
      return { status: res.status, paymentResponse: res.headers.get('PAYMENT-RESPONSE'), v1: res.headers.get('X-PAYMENT-RESPONSE') };
    },
    { url, body, header },
  );
  expect(paid.status).toBe(200);
  expect(paid.paymentResponse, 'the browser hid PAYMENT-RESPONSE from the page').toBeTruthy();
  expect(paid.v1).toBe(paid.paymentResponse);
  expect(JSON.parse(Buffer.from(paid.paymentResponse!, 'base64').toString('utf8'))).toMatchObject({ success: true });
  expect(await lane!.usdgBalance(account.address)).toBe(1_000_000n - PRICE);
  await page.close();
}, 120_000);
