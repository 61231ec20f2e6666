/**
 * Headless Debian Chromium driven by playwright-core (no browser download). Playwright
 * gives each launch a fresh, empty profile directory of its own.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from './services';

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
