/**
 * Reads a QR code the way a phone camera does: from the pixels Chromium drew. The page's SVG is
 * rasterised on a canvas in the page and decoded there with jsQR (a pure-JavaScript QR reader,
 * loaded into the page from node_modules), so the test proves what a scanner would read.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const JSQR_PATH = createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js');

/** The text of the QR code drawn in the `<svg>` with this data-testid, or null when none decodes. */
export async function decodeQrInPage(page: Page, svgTestid: string): Promise<string | null> {
  if (!(await page.evaluate(() => 'jsQR' in window))) await page.addScriptTag({ path: JSQR_PATH });
  return page.evaluate(async (testid) => {
    const svg = document.querySelector(`[data-testid="${testid}"]`);
    if (!svg) return null;
    const size = 400;
    const xml = new XMLSerializer().serializeToString(svg);
    const image = new Image(size, size);
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0, size, size);
    const pixels = ctx.getImageData(0, 0, size, size);
    const jsQR = (window as unknown as { jsQR: (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null }).jsQR;
    return jsQR(pixels.data, size, size)?.data ?? null;
  }, svgTestid);
}
