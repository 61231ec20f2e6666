/**
 * Headless Debian Chromium driven by playwright-core (no browser download). Playwright
 * gives each launch a fresh, empty profile directory of its own.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestServer } from './server';
import { CHROMIUM_PATH, chromiumInstalled, requireService } from './services';

/**
 * Every page of the suites waits, after each `goto`, until the app has hydrated (the root
 * layout marks `<html data-hydrated>`): a field filled before hydration is reset by it.
 */
function waitForHydrationOnGoto(page: Page): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (response?.headers()['content-type']?.includes('text/html')) {
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    }
    return response;
  };
  return page;
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => waitForHydrationOnGoto(await newPage(options));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    const contextNewPage = context.newPage.bind(context);
    context.newPage = async () => waitForHydrationOnGoto(await contextNewPage());
    return context;
  };
  return browser;
}

/** Why a browser suite must skip here (undefined: run). Under CI a missing Chromium fails instead. */
export function browserSkipReason(): Promise<string | undefined> {
  return requireService(`Chromium (${CHROMIUM_PATH})`, chromiumInstalled);
}

/**
 * The real server and Chromium of one browser test file: started before its tests (unless
 * Chromium is missing, then `skipReason` says so) and stopped after them.
 */
export function browserSuite(startServer: () => Promise<TestServer>): {
  server?: TestServer;
  browser?: Browser;
  skipReason?: string;
} {
  const suite: { server?: TestServer; browser?: Browser; skipReason?: string } = {};
  beforeAll(async () => {
    suite.skipReason = await browserSkipReason();
    if (suite.skipReason) return;
    suite.server = await startServer();
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/** Records the URLs of the typed-client calls (/trpc/...) a page makes. */
export function recordTrpcCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/trpc/')) calls.push(r.url());
  });
  return calls;
}

/**
 * Follows a link of the header nav and waits until the new page's main heading shows: until
 * the client-side navigation ends, the page being left is still in the DOM (the home page has
 * a thesis box too), and a field filled then belongs to it.
 */
export async function followNav(page: Page, href: string, heading: string): Promise<void> {
  await page.click(`nav a[href="${href}"]`);
  await page.waitForURL((url) => url.pathname === href);
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}
