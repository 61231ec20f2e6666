/**
 * Headless Debian Chromium driven by playwright-core (no browser download). Playwright
 * gives each launch a fresh, empty profile directory of its own.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH, chromiumInstalled, requireService } from './services';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

/** Why a browser suite must skip here (undefined: run). Under CI a missing Chromium fails instead. */
export function browserSkipReason(): Promise<string | undefined> {
  return requireService(`Chromium (${CHROMIUM_PATH})`, chromiumInstalled);
}

/** Records the URLs of the typed-client calls (/trpc/...) a page makes. */
export function recordTrpcCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/trpc/')) calls.push(r.url());
  });
  return calls;
}
