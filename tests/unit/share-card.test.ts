/** Share cards: a thesis artifact, escaped SVG, never a performance claim. */
import { describe, expect, it } from 'vitest';
import { buildShareCard, escapeXml, findPerformanceClaim, renderShareCardSvg } from '../../src/lib/server/coil/share-card';
import { SvcError } from '../../src/lib/server/errors';
import { buildReceipt } from '../../src/lib/server/receipts/receipt';
import { makeCoil } from '../support/coils';

const NOW = new Date('2026-01-01T00:00:00Z');

function cardOf(overrides: Parameters<typeof makeCoil>[0] = {}, shareUrlBase?: string) {
  const coil = makeCoil(overrides);
  return buildShareCard({ coil, receipt: buildReceipt(coil, 'coil_manifest', NOW), serviceOrigin: 'https://svc.example/', shareUrlBase });
}

describe('share card', () => {
  it('carries title, assets and weights, memo, receipt id and the disclaimer', () => {
    const card = cardOf({ memo: { title: 'AI thesis', body: 'Accelerators keep scaling.', disclaimer: 'Not investment advice.' } });
    expect(card.title).toBe('AI chips test basket');
    expect(card.assets.map(({ ticker, weightBps, weightPercent }) => ({ ticker, weightBps, weightPercent }))).toEqual([
      { ticker: 'NVDA', weightBps: 4000, weightPercent: '40.00%' },
      { ticker: 'AMD', weightBps: 3000, weightPercent: '30.00%' },
      { ticker: 'MSFT', weightBps: 3000, weightPercent: '30.00%' },
    ]);
    expect(card.assets[0]!.rationale).toBe('Leads data-center accelerators.');
    expect(card.memo?.title).toBe('AI thesis');
    expect(card.receiptId).toMatch(/^hrcpt_[0-9a-f]{32}$/);
    expect(card.disclaimer).toMatch(/not a performance claim/);
    expect(card.kind).toBe('thesis');
  });

  it('builds the link from shareUrlBase and the image from the service origin', () => {
    const card = cardOf({}, 'https://my.site/coils/');
    expect(card.shareUrl).toBe(`https://my.site/coils/${card.receiptId}.svg`);
    expect(card.imageUrl).toBe(`https://svc.example/api/share-card/${card.receiptId}.svg`);
    expect(cardOf().shareUrl).toBe(`https://svc.example/api/share-card/${cardOf().receiptId}.svg`);
  });

  it.each([
    'Guaranteed returns from the AI wave.',
    'A risk-free way to own chips.',
    'This basket will beat the market.',
    'Expect 25% returns a year.',
    'NVDA returned 40% last year.',
    'Projected APY of 12.',
    'It outperformed the index.',
  ])('refuses a Coil whose text makes a performance claim: %s', (body) => {
    expect(findPerformanceClaim(body)).toBeDefined();
    try {
      cardOf({ memo: { title: 'x', body, disclaimer: 'x' } });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(SvcError);
      expect((error as SvcError).code).toBe('SHARE_CARD_REJECTED');
      expect((error as SvcError).issues[0]).toMatchObject({ code: 'PERFORMANCE_CLAIM', path: 'coil.memo.body' });
    }
  });

  it('lets an honest thesis through', () => {
    expect(findPerformanceClaim('Accelerator demand keeps growing; weights follow the thesis, with a 40% cap.')).toBeUndefined();
  });
});

describe('SVG rendering', () => {
  it('escapes every piece of user text', () => {
    const card = cardOf({
      name: '<script>alert("x")</script> & co',
      memo: { title: '"><img src=x onerror=alert(1)>', body: "it's <b>bold</b>", disclaimer: 'x' },
    });
    const svg = renderShareCardSvg(card);
    expect(svg).not.toMatch(/<script/i);
    expect(svg).not.toMatch(/<img/i);
    expect(svg).not.toMatch(/<b>/);
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(svg).toContain(card.receiptId);
    expect(svg).toContain('NOT A PERFORMANCE CLAIM');
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml('a\u0000b\u001Fc\uFFFE\uD800d')).toBe('abcd');
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
  });

  it('draws a bar per asset in proportion to its weight and stays a fixed-size image', () => {
    const svg = renderShareCardSvg(cardOf());
    const widths = [...svg.matchAll(/<rect x="190" y="\d+" width="(\d+)"/g)].map((m) => Number(m[1]));
    expect(widths).toEqual([280, 210, 210]);
    expect(svg).toContain('viewBox="0 0 1200 630"');
  });
});
