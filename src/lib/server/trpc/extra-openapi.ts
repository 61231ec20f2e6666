/**
 * REST routes that are not tRPC procedures (they answer something other than JSON), added to
 * the generated OpenAPI document so that it still lists every route.
 */
const ERROR_ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

export const EXTRA_OPENAPI_PATHS: Record<string, Record<string, unknown>> = {
  '/share-card/{receiptId}.svg': {
    get: {
      operationId: 'shareCardSvg',
      summary: 'The share card of a stored receipt as an SVG image',
      description:
        'A 1200x630 SVG picture of the thesis card (title, assets and weights, receipt id, disclaimer) built from the stored receipt and Coil; the same card as POST /api/tools/share-card returns as JSON (its imageUrl). Every piece of text is XML-escaped, the image has no script and no external reference, and it never carries a performance claim. 404 RECEIPT_NOT_FOUND for an unknown receipt id.',
      tags: ['tools'],
      parameters: [{ name: 'receiptId', in: 'path', required: true, schema: { type: 'string', pattern: '^hrcpt_[0-9a-f]{32}$' } }],
      responses: {
        '200': { description: 'The card', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        '404': { description: 'No stored receipt has this id', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
        '422': {
          description: 'The stored Coil carries a performance claim (SHARE_CARD_REJECTED)',
          content: { 'application/json': { schema: ERROR_ENVELOPE_REF } },
        },
      },
    },
  },
  '/share-card/{receiptId}.png': {
    get: {
      operationId: 'shareCardPng',
      summary: 'The share card of a stored receipt as a PNG image',
      description:
        'The same 1200x630 card as GET /api/share-card/{receiptId}.svg, rendered to PNG from that SVG (for link previews: Open Graph and Twitter cards show no SVG). 404 RECEIPT_NOT_FOUND for an unknown receipt id.',
      tags: ['tools'],
      parameters: [{ name: 'receiptId', in: 'path', required: true, schema: { type: 'string', pattern: '^hrcpt_[0-9a-f]{32}$' } }],
      responses: {
        '200': { description: 'The card', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
        '404': { description: 'No stored receipt has this id', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
        '422': {
          description: 'The stored Coil carries a performance claim (SHARE_CARD_REJECTED)',
          content: { 'application/json': { schema: ERROR_ENVELOPE_REF } },
        },
      },
    },
  },
};
