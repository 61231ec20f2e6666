/**
 * REST routes that are not tRPC procedures (they answer something other than JSON), added to
 * the generated OpenAPI document so that it still lists every route.
 */
const ERROR_ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/** The images never show `nowIso`; a malformed one is refused as on every route. */
const NOW_ISO_QUERY = {
  name: 'nowIso',
  in: 'query',
  required: false,
  description: 'accepted as on every route; the image does not depend on it',
  schema: { type: 'string' },
};

export const EXTRA_OPENAPI_PATHS: Record<string, Record<string, unknown>> = {
  '/share-card/{receiptId}.svg': {
    get: {
      operationId: 'shareCardSvg',
      summary: 'The share card of a stored receipt as an SVG image',
      description:
        'A 1200x630 SVG picture of the thesis card (title, assets and weights, receipt id, disclaimer) built from the stored receipt and Coil; the same card as POST /api/tools/share-card returns as JSON (its imageUrl). Every piece of text is XML-escaped, the image has no script and no external reference, and it never carries a performance claim. 404 RECEIPT_NOT_FOUND for an unknown receipt id.',
      tags: ['tools'],
      parameters: [
        { name: 'receiptId', in: 'path', required: true, schema: { type: 'string', pattern: '^hrcpt_[0-9a-f]{32}$' } },
        NOW_ISO_QUERY,
      ],
      responses: {
        '200': { description: 'The card', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        '400': { description: 'A malformed nowIso (NOW_ISO_INVALID)', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
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
      parameters: [
        { name: 'receiptId', in: 'path', required: true, schema: { type: 'string', pattern: '^hrcpt_[0-9a-f]{32}$' } },
        NOW_ISO_QUERY,
      ],
      responses: {
        '200': { description: 'The card', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
        '400': { description: 'A malformed nowIso (NOW_ISO_INVALID)', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
        '404': { description: 'No stored receipt has this id', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
        '422': {
          description: 'The stored Coil carries a performance claim (SHARE_CARD_REJECTED)',
          content: { 'application/json': { schema: ERROR_ENVELOPE_REF } },
        },
      },
    },
  },
  '/receipts/log/checkpoint': {
    get: {
      operationId: 'receiptLogCheckpoint',
      summary: "The checkpointed receipt log's signed checkpoint (c2sp.org/tlog-checkpoint)",
      description:
        "A c2sp.org/signed-note: the origin line, the tree size, the base64 RFC 6962 root hash, a blank line, then the Ed25519 note signature by the service's key (note verifier key: GET /api/receipts/keys checkpointLog.noteVerifierKey) and the same key's c2sp.org/tlog-cosignature timestamped signature (the log's own signed clock). A new checkpoint is signed at least every RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS while the log grows. Only receipts someone asked to keep are entries (docs/trust-model.md).",
      tags: ['receipts'],
      parameters: [
        {
          name: 'nowIso',
          in: 'query',
          required: false,
          description: 'accepted as on every route; the answer does not depend on it',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The checkpoint', content: { 'text/plain': { schema: { type: 'string' } } } },
        '400': { description: 'A malformed nowIso (NOW_ISO_INVALID)', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
      },
    },
  },
  '/receipts/log/tile/{L}/{N}': {
    get: {
      operationId: 'receiptLogTile',
      summary: 'A hash tile or an entry bundle of the checkpointed receipt log (c2sp.org/tlog-tiles)',
      description:
        'tile/<L>/<N>[.p/<W>]: 256 (or W, a partial tile) 32-byte Merkle tree hashes at level L (level 0: the leaf hashes SHA-256(0x00 || entry)); tile/entries/<N>[.p/<W>]: the entries, each a big-endian uint16 length and 32 bytes, SHA-256(salt || JCS(receipt without signature)). <N> is the tile index in zero-padded groups of 3 digits, all but the last prefixed with x (1234067: x001/x234/067). A full tile never changes (cache-control immutable). 404 TILE_NOT_FOUND beyond the log.',
      tags: ['receipts'],
      parameters: [
        {
          name: 'L',
          in: 'path',
          required: true,
          description: 'the level (0 to 63), or entries',
          schema: { type: 'string', pattern: '^(entries|0|[1-9][0-9]?)$' },
        },
        {
          name: 'N',
          in: 'path',
          required: true,
          description: 'the tile index path, with .p/<W> for a partial tile (the path may span several segments)',
          schema: { type: 'string', pattern: '^(x[0-9]{3}/)*[0-9]{3}(\\.p/[1-9][0-9]{0,2})?$' },
        },
        {
          name: 'nowIso',
          in: 'query',
          required: false,
          description: 'accepted as on every route; the answer does not depend on it',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The tile', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        '400': { description: 'A malformed nowIso (NOW_ISO_INVALID)', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
        '404': { description: 'No such tile (TILE_NOT_FOUND)', content: { 'application/json': { schema: ERROR_ENVELOPE_REF } } },
      },
    },
  },
  '/receipts/log/proof/{receiptId}': {
    get: {
      operationId: 'receiptLogProof',
      summary: 'The offline inclusion proof of a receipt you may read (c2sp.org/tlog-proof@v1)',
      description:
        "The proof file of the stored receipt row the caller may read (docs/visibility.md): c2sp.org/tlog-proof@v1, an extra line with the row's 32-byte salt (base64), the entry index, the audit path (base64 hashes, from the leaf's sibling up) and the checkpoint it was made against. `svc verify --proof` checks it. 404 RECEIPT_NOT_FOUND for a receipt you may not read (as for one nobody stored), 404 RECEIPT_NOT_LOGGED for a receipt nobody asked to keep (the reason in the issue), 400 INPUT_INVALID for a malformed id. Never cached by a shared cache (it holds the salt).",
      tags: ['receipts'],
      parameters: [
        { name: 'receiptId', in: 'path', required: true, schema: { type: 'string', pattern: '^hrcpt_[0-9a-f]{32}$' } },
        {
          name: 'nowIso',
          in: 'query',
          required: false,
          description: 'accepted as on every route; the answer does not depend on it',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'The proof file', content: { 'text/plain': { schema: { type: 'string' } } } },
        '400': {
          description: 'A malformed receipt id (INPUT_INVALID) or nowIso (NOW_ISO_INVALID)',
          content: { 'application/json': { schema: ERROR_ENVELOPE_REF } },
        },
        '404': {
          description: 'No receipt you may read has this id (RECEIPT_NOT_FOUND), or it is not logged (RECEIPT_NOT_LOGGED)',
          content: { 'application/json': { schema: ERROR_ENVELOPE_REF } },
        },
      },
    },
  },
};
