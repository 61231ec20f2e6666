// The share card of a stored receipt as an SVG image (a picture people can post). Not a
// tRPC route: it answers image/svg+xml. Documented in the OpenAPI document through
// src/lib/server/trpc/extra-openapi.ts.
import type { RequestHandler } from './$types';
import { renderShareCardSvg } from '$lib/server/coil/share-card';
import { coilSchema } from '$lib/server/coil/manifest';
import { config } from '$lib/server/config';
import { findCoilByManifestHash, findReceipt } from '$lib/server/db/coil-repository';
import { findSvcError, SvcError } from '$lib/server/errors';
import { shareCardOrRefusal } from '$lib/server/trpc/routers/coil-shared';
import { restErrorResponse } from '$lib/server/trpc/http';

const RECEIPT_ID = /^hrcpt_[0-9a-f]{32}$/;

const notFound = () =>
  restErrorResponse(
    new SvcError('RECEIPT_NOT_FOUND', 'No stored receipt has this id', {
      issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'create one with POST /api/tools/share-card', path: 'receiptId' }],
    }),
    'tools',
  );

export const GET: RequestHandler = async ({ params }) => {
  if (!RECEIPT_ID.test(params.receiptId)) return notFound();
  const receipt = await findReceipt(params.receiptId);
  if (!receipt) return notFound();
  const stored = await findCoilByManifestHash(receipt.manifestHash);
  const coil = coilSchema.safeParse(stored);
  if (!coil.success) return notFound();
  try {
    // An image escapes the JSON answer finishing, so the card's texts are scanned here, by the
    // same refusal as POST /api/tools/share-card (422 SHARE_CARD_REJECTED, naming the field).
    const card = shareCardOrRefusal({ coil: coil.data, receipt, serviceOrigin: config().origin });
    return new Response(renderShareCardSvg(card), {
      headers: {
        'content-type': 'image/svg+xml; charset=utf-8',
        'cache-control': 'public, max-age=86400, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      },
    });
  } catch (error) {
    const svc = findSvcError(error);
    if (svc) return restErrorResponse(svc, 'tools');
    throw error;
  }
};

// A trailing slash is the caller's path as sent: answered (404 or the route) in the API's own
// envelope, never redirected with the query repeated in a Location header.
export const trailingSlash = 'ignore';
