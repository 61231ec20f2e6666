/**
 * The REST routes under /api that are not tRPC procedures: the OpenAPI document (generated
 * from the procedures), the share card as an SVG or PNG image, and the checkpointed receipt
 * log in its C2SP formats (checkpoint, tiles, proof files: text and bytes, never JSON). They pass the same front as every
 * route (rate limit, guards, log line); their route ids are what the rate limit counts and
 * the log names. Both are listed in the OpenAPI document (trpc/extra-openapi.ts).
 */
import { resolveClock } from '../clock';
import { renderShareCardSvg } from '../coil/share-card';
import { config, secretValues } from '../config';
import { findSvcError, SvcError } from '../errors';
import { finishAnswer } from '../guards/finish-answer';
import { storedShareCard } from '../trpc/procedure-kit/share-card';
import { currentCheckpoint, tlogProofFile, tlogTile } from '../trpc/procedure-kit/tlog';
import { signerOf } from '../trpc/service-keys';
import { contextOfRequest, restErrorAnswer, type DispatchRequest } from './dispatch';
import { stampedError } from '../trpc/init';
import { logger } from '../logger';
import { jsonAnswer, type ApiAnswer } from './answer';

export interface ExtraRoute {
  method: 'GET';
  /** How the rate limit and the log name the route. */
  routeId: string;
  pattern: RegExp;
  /** Its errors carry the invariants (a tools-family route, interface 1). */
  invariants: boolean;
  answer(params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer>;
}

let openApiText: string | undefined;

/**
 * The document is the same for the life of the process: generated and finished (output guard,
 * secret scrub) once, on the first request.
 */
async function openApiAnswer(): Promise<ApiAnswer> {
  if (openApiText === undefined) {
    const { openApiDocument } = await import('../trpc/openapi');
    const { answer, report } = finishAnswer(openApiDocument(config().origin), { secrets: secretValues() });
    if (report.secretScrubbed)
      logger.error({ event: 'secret_scrubbed', route: 'GET /api/openapi.json' }, 'a configuration secret was about to leave in a response');
    openApiText = JSON.stringify(answer);
  }
  return jsonAnswer(200, openApiText, { 'cache-control': 'no-cache' });
}

const RECEIPT_ID = /^hrcpt_[0-9a-f]{32}$/;

const receiptNotFound = () =>
  restErrorAnswer(
    stampedError(
      new SvcError('RECEIPT_NOT_FOUND', 'No stored receipt has this id', {
        issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'create one with POST /api/tools/share-card', path: 'receiptId' }],
      }),
    ),
  );

/**
 * The share card of a stored receipt as an SVG image (a picture people can post): of a receipt
 * the caller may read (docs/visibility.md), so a wallet's private receipt is not found for
 * anyone else until the wallet issues its share card.
 */
async function shareCardSvgAnswer(params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer> {
  return shareCardImageAnswer(params, request, 'svg');
}

/**
 * The same card as a PNG (1200x630), for the places that show no SVG: Open Graph and Twitter
 * card previews. Rendered from the very SVG above by resvg (@resvg/resvg-js), so the two never
 * differ; the system's fonts draw the text.
 */
async function shareCardPngAnswer(params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer> {
  return shareCardImageAnswer(params, request, 'png');
}

async function shareCardImageAnswer(params: Record<string, string>, request: DispatchRequest, format: 'svg' | 'png'): Promise<ApiAnswer> {
  const receiptId = params.receiptId!;
  try {
    // The image never shows `nowIso`, but a malformed one is refused as on every other route
    // (it was ignored: 200).
    resolveClock(request.url.searchParams.get('nowIso') ?? undefined, request.serverTime);
    if (!RECEIPT_ID.test(receiptId)) return receiptNotFound();
    const ctx = contextOfRequest(request);
    // What a session may read, a shared cache must not keep for others.
    const cacheControl = (await ctx.getSession()) ? 'private, max-age=86400' : 'public, max-age=86400, immutable';
    // An image escapes the JSON answer finishing, so the card's texts are scanned on the way
    // (storedShareCard refuses as POST /api/tools/share-card does: 422 SHARE_CARD_REJECTED).
    const stored = await storedShareCard(ctx, receiptId);
    if (!stored) return receiptNotFound();
    const card = stored.card;
    const svg = renderShareCardSvg(card);
    if (format === 'png') {
      return {
        status: 200,
        headers: { 'content-type': 'image/png', 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' },
        body: await renderPng(svg),
      };
    }
    return {
      status: 200,
      headers: {
        'content-type': 'image/svg+xml; charset=utf-8',
        'cache-control': cacheControl,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      },
      body: svg,
    };
  } catch (error) {
    const svc = findSvcError(error);
    if (svc) return restErrorAnswer(stampedError(svc));
    throw error;
  }
}

/** resvg is a native module: loaded on the first PNG, so nothing else pays for it. */
async function renderPng(svg: string): Promise<Uint8Array> {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
}

/**
 * An answer of the C2SP routes: their errors in the envelope, like every route's. Their bytes
 * never depend on `nowIso` (a checkpoint carries the server's clock), but a malformed one is
 * refused as on every other route.
 */
async function enveloped(request: DispatchRequest, answer: () => Promise<ApiAnswer>): Promise<ApiAnswer> {
  try {
    resolveClock(request.url.searchParams.get('nowIso') ?? undefined, request.serverTime);
    return await answer();
  } catch (error) {
    const svc = findSvcError(error);
    if (svc) return restErrorAnswer(stampedError(svc));
    throw error;
  }
}

const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** GET /api/receipts/log/checkpoint: the log's signed checkpoint (c2sp.org/tlog-checkpoint), mutable. */
async function checkpointAnswer(_params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer> {
  return enveloped(request, async () => {
    const ctx = contextOfRequest(request);
    const checkpoint = await currentCheckpoint(ctx.config, await signerOf(ctx), ctx.serverTime);
    return {
      status: 200,
      headers: { 'content-type': TEXT_PLAIN, 'cache-control': 'public, max-age=5', 'x-content-type-options': 'nosniff' },
      body: checkpoint.note,
    };
  });
}

/** GET /api/receipts/log/tile/...: a hash tile or an entry bundle (c2sp.org/tlog-tiles); a full one never changes. */
async function tileAnswer(params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer> {
  return enveloped(request, async () => {
    const tile = await tlogTile(params.tile!);
    return {
      status: 200,
      headers: {
        'content-type': 'application/octet-stream',
        'cache-control': tile.full ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
        'x-content-type-options': 'nosniff',
      },
      body: tile.bytes,
    };
  });
}

/**
 * GET /api/receipts/log/proof/{receiptId}: the c2sp.org/tlog-proof@v1 file of the receipt row the
 * caller may read. It holds the row's salt: never kept by a shared cache.
 */
async function proofAnswer(params: Record<string, string>, request: DispatchRequest): Promise<ApiAnswer> {
  return enveloped(request, async () => {
    if (!RECEIPT_ID.test(params.receiptId!))
      throw new SvcError('INPUT_INVALID', 'The receipt id is malformed', {
        issues: [{ code: 'INPUT_INVALID', message: 'expected hrcpt_ followed by 32 hex digits', path: 'receiptId' }],
      });
    const ctx = contextOfRequest(request);
    const proof = await tlogProofFile(ctx, await signerOf(ctx), params.receiptId!);
    return {
      status: 200,
      headers: {
        'content-type': TEXT_PLAIN,
        'cache-control': 'private, no-store',
        'content-disposition': `inline; filename="${params.receiptId}.tlog-proof"`,
        'x-content-type-options': 'nosniff',
      },
      body: proof,
    };
  });
}

const EXTRA_ROUTES: readonly ExtraRoute[] = [
  {
    method: 'GET',
    routeId: '/api/receipts/log/checkpoint',
    invariants: true,
    pattern: /^\/api\/receipts\/log\/checkpoint$/,
    answer: checkpointAnswer,
  },
  {
    method: 'GET',
    routeId: '/api/receipts/log/tile/[...tile]',
    invariants: true,
    pattern: /^\/api\/receipts\/log\/tile\/(?<tile>.+)$/,
    answer: tileAnswer,
  },
  {
    method: 'GET',
    routeId: '/api/receipts/log/proof/[receiptId]',
    invariants: true,
    pattern: /^\/api\/receipts\/log\/proof\/(?<receiptId>[^/]+)$/,
    answer: proofAnswer,
  },
  { method: 'GET', routeId: '/api/openapi.json', pattern: /^\/api\/openapi\.json\/?$/, invariants: false, answer: openApiAnswer },
  {
    method: 'GET',
    routeId: '/api/share-card/[receiptId].svg',
    invariants: true,
    pattern: /^\/api\/share-card\/(?<receiptId>[^/]+)\.svg\/?$/,
    answer: shareCardSvgAnswer,
  },
  {
    method: 'GET',
    routeId: '/api/share-card/[receiptId].png',
    invariants: true,
    pattern: /^\/api\/share-card\/(?<receiptId>[^/]+)\.png\/?$/,
    answer: shareCardPngAnswer,
  },
];

export function resolveExtraRoute(method: string, pathname: string): { route: ExtraRoute; params: Record<string, string> } | undefined {
  for (const route of EXTRA_ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(pathname);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}

export function extraRouteAtPath(pathname: string): ExtraRoute | undefined {
  return EXTRA_ROUTES.find((r) => r.pattern.test(pathname));
}
