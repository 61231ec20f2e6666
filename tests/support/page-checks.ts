/**
 * What every page must pass in Chromium: no horizontal scroll at 390 and 1280 px, an
 * axe-core scan without serious or critical violations, and no console errors. With
 * SVC_SCREENSHOT_DIR set, each check also saves a full-page screenshot there (for a person
 * to look at; tests never compare pictures).
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Collects console errors and uncaught page errors from the moment it is called. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} @ ${message.location().url}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Runs axe-core in the page; returns every violation, whatever its impact (minor and moderate included). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  return violations;
}

/** scrollWidth against innerWidth: positive means the page scrolls sideways. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SVC_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // Tall pages are saved in parts a person can read at full size.
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  }));
  const part = 1600;
  for (let y = 0, i = 1; y < height; y += part, i++) {
    await page.screenshot({
      path: join(dir, `${name}-${i}.png`),
      fullPage: true,
      clip: { x: 0, y, width, height: Math.min(part, height - y) },
    });
  }
}

export interface PageQuality {
  viewport: string;
  overflowPx: number;
  violations: AxeViolation[];
}

/**
 * The layout and accessibility checks of the current page at both widths. `allImpacts`: report
 * axe violations of every impact level, not only the serious and critical ones.
 */
export async function checkAtBothWidths(
  page: Page,
  name: string,
  settle?: () => Promise<void>,
  options: { allImpacts?: boolean } = {},
): Promise<PageQuality[]> {
  const out: PageQuality[] = [];
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.waitForTimeout(150);
    if (settle) await settle();
    const violations = options.allImpacts ? await axeViolations(page) : await seriousAxeViolations(page);
    out.push({ viewport: vp.name, overflowPx: await horizontalOverflow(page), violations });
    await screenshot(page, `${name}-${vp.width}`);
  }
  return out;
}
