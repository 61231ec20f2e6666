/**
 * Share cards: a thesis artifact (title, assets and weights, memo, receipt id, disclaimer)
 * and its SVG rendering, a picture people can post. A card never carries a performance
 * claim: a Coil whose texts promise returns is refused, and the card says what it is.
 */
import { SvcError } from '../errors';
import type { Receipt } from '../receipts/receipt';
import type { Coil } from './manifest';
import { coilTexts } from './validate';

export const SHARE_CARD_VERSION = 'svc-share-card-1.0.0';
export const SHARE_CARD_DISCLAIMER = 'A thesis, not a performance claim. Paper planning only: no order is placed. Not investment advice.';
export const SHARE_CARD_PATH = '/api/share-card';

/** Phrases that promise or report performance; a card must never carry one. */
export const PERFORMANCE_CLAIM_PATTERNS: readonly RegExp[] = [
  /\bguaranteed?\s+(?:returns?|yields?|profits?|gains?|apy|apr|income)\b/i,
  /\brisk[- ]free\b/i,
  /\bno[- ]risk\b/i,
  /\bsafe\s+profits?\b/i,
  /\bpassive\s+income\b/i,
  /\bbeats?\s+the\s+market\b|\bbeating\s+the\s+market\b/i,
  /\boutperform(?:s|ed|ing|ance)?\b/i,
  /\bprojected\s+(?:apy|apr|returns?|yields?|gains?)\b/i,
  /[+-]?\d+(?:\.\d+)?\s*%\s*(?:returns?|gains?|yield|apy|apr|upside|profits?|a\s+year|per\s+year|annually)\b/i,
  /\b(?:returned|gained|yielded|returns?\s+of|up)\s+\+?\d+(?:\.\d+)?\s*%/i,
  /\b\d{1,4}x\s+(?:returns?|gains?|profits?)\b/i,
  /\bset\s+and\s+forget\b/i,
  /\b(?:can(?:no|')t|cannot)\s+lose\b/i,
];

export function findPerformanceClaim(text: string): RegExp | undefined {
  return PERFORMANCE_CLAIM_PATTERNS.find((p) => p.test(text));
}

export interface ShareCard {
  cardVersion: string;
  kind: 'thesis';
  title: string;
  slug: string;
  headline: string;
  summary: string;
  assets: Array<{ ticker: string; weightBps: number; weightPercent: string; rationale: string }>;
  memo: { title: string; body: string; disclaimer: string } | null;
  receiptId: string;
  manifestHash: string;
  shareUrl: string;
  imageUrl: string;
  altText: string;
  disclaimer: string;
}

export interface ShareCardInput {
  coil: Coil;
  receipt: Pick<Receipt, 'receiptId' | 'manifestHash'>;
  /** The service's public origin, for the image link. */
  serviceOrigin: string;
  /** Base of the share link; defaults to the service's own image route. */
  shareUrlBase?: string;
}

function truncate(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max
    ? chars.join('')
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

export function percentOf(weightBps: number): string {
  return `${(weightBps / 100).toFixed(2)}%`;
}

/** Refuses a Coil whose texts read as a performance claim (422 SHARE_CARD_REJECTED). */
export function assertNoPerformanceClaim(coil: Coil): void {
  const offending = coilTexts(coil).filter(([, text]) => findPerformanceClaim(text));
  if (offending.length === 0) return;
  throw new SvcError('SHARE_CARD_REJECTED', 'A share card is a thesis artifact and never carries a performance claim', {
    issues: offending.map(([path]) => ({
      code: 'PERFORMANCE_CLAIM',
      message: 'this text reads as a promise or report of performance',
      path: `coil.${path}`,
    })),
  });
}

export function buildShareCard(input: ShareCardInput): ShareCard {
  const { coil, receipt } = input;
  assertNoPerformanceClaim(coil);
  const origin = input.serviceOrigin.replace(/\/+$/, '');
  const base = (input.shareUrlBase ?? `${origin}${SHARE_CARD_PATH}`).replace(/\/+$/, '');
  const assets = coil.assets.map((a) => ({
    ticker: a.ticker,
    weightBps: a.weightBps,
    weightPercent: percentOf(a.weightBps),
    rationale: truncate(a.rationale, 280),
  }));
  const headline = truncate(coil.memo?.title || coil.name, 120);
  const summary = truncate(coil.memo?.body ?? assets.map((a) => `${a.ticker} ${a.weightPercent}`).join(', '), 400);
  return {
    cardVersion: SHARE_CARD_VERSION,
    kind: 'thesis',
    title: truncate(coil.name, 120),
    slug: coil.slug,
    headline,
    summary,
    assets,
    memo: coil.memo ? { ...coil.memo } : null,
    receiptId: receipt.receiptId,
    manifestHash: receipt.manifestHash,
    shareUrl: `${base}/${receipt.receiptId}.svg`,
    imageUrl: `${origin}${SHARE_CARD_PATH}/${receipt.receiptId}.svg`,
    altText: `Thesis card "${truncate(coil.name, 80)}": ${assets.map((a) => `${a.ticker} ${a.weightPercent}`).join(', ')}. Receipt ${receipt.receiptId}.`,
    disclaimer: SHARE_CARD_DISCLAIMER,
  };
}

/** XML-escapes text and drops the characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- matching the C0 controls XML 1.0 forbids is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

function wrap(text: string, width: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if ([...next].length > width && line) {
      lines.push(line);
      line = word;
      if (lines.length === maxLines) break;
    } else line = next;
  }
  if (lines.length < maxLines && line) lines.push(line);
  if (lines.length === maxLines && words.join(' ').length > lines.join(' ').length) {
    lines[maxLines - 1] = truncate(`${lines[maxLines - 1]} …`, width);
  }
  return lines.map((l) => truncate(l, width));
}

const MAX_ROWS = 8;

/** The card as a 1200x630 SVG image. Every piece of text is escaped; no script, no external reference. */
export function renderShareCardSvg(card: ShareCard): string {
  const t = (x: number, y: number, size: number, fill: string, text: string, weight = 400) =>
    `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(text)}</text>`;
  const parts: string[] = [];
  parts.push('<rect width="1200" height="630" fill="#0f172a"/>');
  parts.push(t(60, 70, 20, '#fbbf24', 'THESIS CARD · NOT A PERFORMANCE CLAIM', 600));
  // 40 px bold: about 42 characters fit the 1080 px text column.
  wrap(card.title, 42, 2).forEach((line, i) => parts.push(t(60, 125 + i * 46, 40, '#f8fafc', line, 700)));
  wrap(card.headline === card.title ? card.summary : card.headline, 80, 2).forEach((line, i) =>
    parts.push(t(60, 225 + i * 30, 22, '#cbd5e1', line)),
  );
  const rows = card.assets.slice(0, MAX_ROWS);
  rows.forEach((a, i) => {
    const y = 300 + i * 34;
    parts.push(t(60, y + 20, 22, '#e2e8f0', a.ticker, 600));
    parts.push(`<rect x="190" y="${y + 4}" width="${Math.max(2, Math.round((a.weightBps / 10_000) * 700))}" height="20" fill="#38bdf8"/>`);
    parts.push(t(910, y + 20, 22, '#e2e8f0', a.weightPercent));
  });
  if (card.assets.length > MAX_ROWS) parts.push(t(60, 300 + MAX_ROWS * 34 + 16, 18, '#94a3b8', `+${card.assets.length - MAX_ROWS} more`));
  parts.push(t(60, 590, 16, '#94a3b8', `Receipt ${card.receiptId} · manifest ${card.manifestHash.slice(0, 16)}…`));
  parts.push(t(60, 614, 16, '#fbbf24', card.disclaimer));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="${escapeXml(card.altText)}" font-family="system-ui, sans-serif">`,
    `<title>${escapeXml(card.title)}</title>`,
    `<desc>${escapeXml(card.altText)} ${escapeXml(card.disclaimer)}</desc>`,
    ...parts,
    '</svg>',
  ].join('\n');
}
