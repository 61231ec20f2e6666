/**
 * The caller's saved Coils and receipts (interface 5, rule 2): GET /api/me/coils,
 * GET /api/me/coils/{slug}, GET /api/me/receipts. Each needs a wallet session (401
 * SESSION_REQUIRED without one) and returns only rows owned by that wallet, newest first,
 * paginated with an opaque cursor.
 */
import { z } from 'zod';
import { AUTH_CODES } from '../../auth/errors';
import type { SessionInfo } from '../../auth/session';
import { findOwnedCoil, listOwnedCoils, listOwnedReceipts } from '../../db/me-repository';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, decodeCursor } from '../../db/page-cursor';
import { SvcError } from '../../errors';
import { claimCoils, listClaimableCoils } from '../../db/coil-claim-repository';
import { claimTokenHashOf } from '../../http/claim-cookie';
import type { RequestContext } from '../context';
import { nowIsoField, publicProcedure, queryInt, rest, router } from '../init';

async function requireSession(ctx: RequestContext): Promise<SessionInfo> {
  const session = await ctx.getSession();
  if (!session) {
    throw new SvcError(AUTH_CODES.SESSION_REQUIRED, 'Sign in with Ethereum first: this route needs a wallet session', {
      issues: [{ code: AUTH_CODES.SESSION_REQUIRED, message: 'no valid svc_session cookie (missing, expired, logged out or unknown)' }],
    });
  }
  ctx.resHeaders.set('cache-control', 'private, no-store');
  return session;
}

/** How a query integer reads in the OpenAPI document (queryInt also takes a digit string). */
function integerParam(description: string, min: number, max: number) {
  return {
    description,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: 'integer', minimum: min, maximum: max });
    },
  };
}

const pageFields = {
  cursor: z.string().max(400).meta({ description: '`nextCursor` of the previous page, unchanged; omit for the newest page' }).optional(),
  limit: queryInt({ min: 1, max: MAX_PAGE_LIMIT })
    .meta(integerParam(`Rows per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`, 1, MAX_PAGE_LIMIT))
    .optional(),
};

const document = z.record(z.string(), z.unknown());

const ownedCoil = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string().nullable(),
  manifestHash: z.string(),
  parentManifestHash: z.string().nullable(),
  forkOf: z.string().nullable(),
  score: z.number().nullable(),
  createdAt: z.string(),
  manifest: document.describe('The stored manifest (canonical JSON)'),
});

const ownedReceipt = z.object({
  id: z.string(),
  receiptId: z.string(),
  kind: z.string(),
  manifestHash: z.string(),
  parentManifestHash: z.string().nullable(),
  weightsChecksum: z.string(),
  validationStatus: z.string(),
  coilSlug: z.string(),
  createdAt: z.string(),
  receipt: document.describe('The stored receipt document'),
});

const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page');

function pageOf(input: { cursor?: string; limit?: number } | undefined) {
  return {
    cursor: input?.cursor !== undefined ? decodeCursor(input.cursor) : undefined,
    limit: input?.limit ?? DEFAULT_PAGE_LIMIT,
  };
}

const PAGINATION_TEXT = `Newest first (by creation time, then id). Pagination: \`limit\` (1 to ${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT}) and \`cursor\` (the previous page's \`nextCursor\`; 400 CURSOR_INVALID if altered). 401 SESSION_REQUIRED without a valid session.`;

const MANIFEST_HASH = /^[0-9a-f]{64}$/;
const CLAIM_LIST_LIMIT = 50;

export const meRouter = router({
  claimableCoils: publicProcedure
    .meta({
      family: 'me',
      openapi: rest('GET', '/me/claimable-coils', 'Coils this browser built before signing in, which the wallet may claim', {
        protect: true,
        description: `The Coils this browser built in the web app without a wallet session (it holds their claim ticket in the HttpOnly svc_builder cookie) and has not claimed yet, newest first, at most ${CLAIM_LIST_LIMIT}. Listing claims nothing: POST /api/me/claim-coils does, explicitly. Empty without the cookie. 401 SESSION_REQUIRED without a valid session.`,
      }),
      callerPaths: ['items.*.name', 'items.*.slug'],
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      z.object({
        items: z.array(
          z.object({ manifestHash: z.string(), slug: z.string(), name: z.string(), assetCount: z.number().int(), builtAt: z.string() }),
        ),
      }),
    )
    .query(async ({ ctx }) => {
      await requireSession(ctx);
      const tokenHash = claimTokenHashOf(ctx);
      return { items: tokenHash ? await listClaimableCoils(tokenHash, CLAIM_LIST_LIMIT) : [] };
    }),

  claimCoils: publicProcedure
    .meta({
      family: 'me',
      openapi: rest('POST', '/me/claim-coils', 'Claim Coils this browser built before signing in for the signed-in wallet', {
        protect: true,
        description:
          "Copies each named Coil and the receipt of its build under the session's wallet, so My Coils lists them, when this browser holds an unused claim ticket for it (the svc_builder cookie set when the web app built it without a session). A ticket is used once. A Coil without one (built elsewhere, by another browser, or already claimed) is answered claimed: false with reason NO_CLAIM_TICKET and nothing of it is copied. The public copy stays public (it was from the start). 401 SESSION_REQUIRED without a valid session.",
      }),
    })
    .input(
      z.object({
        manifestHashes: z.array(z.string().regex(MANIFEST_HASH, 'expected 64 lower-case hex digits')).min(1).max(CLAIM_LIST_LIMIT),
        nowIso: nowIsoField,
      }),
    )
    .output(
      z.object({
        results: z.array(
          z.discriminatedUnion('claimed', [
            z.object({ manifestHash: z.string(), claimed: z.literal(true) }),
            z.object({ manifestHash: z.string(), claimed: z.literal(false), reason: z.literal('NO_CLAIM_TICKET') }),
          ]),
        ),
        claimedCount: z.number().int(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const session = await requireSession(ctx);
      const tokenHash = claimTokenHashOf(ctx);
      const unique = [...new Set(input.manifestHashes)];
      const results = tokenHash
        ? await claimCoils(tokenHash, unique, session.address, ctx.serverTime)
        : unique.map((manifestHash) => ({ manifestHash, claimed: false as const, reason: 'NO_CLAIM_TICKET' as const }));
      return { results, claimedCount: results.filter((r) => r.claimed).length };
    }),

  coils: publicProcedure
    .meta({
      family: 'me',
      openapi: rest('GET', '/me/coils', "The caller's saved Coils", {
        protect: true,
        description: `Coils generated by tools requests that carried this wallet's session. ${PAGINATION_TEXT}`,
      }),
      // The caller's own saved texts, read back: not statements of the service.
      callerPaths: ['items.*.name', 'items.*.forkOf', 'items.*.manifest'],
    })
    .input(z.object({ ...pageFields, nowIso: nowIsoField }).optional())
    .output(z.object({ items: z.array(ownedCoil), nextCursor }))
    .query(async ({ ctx, input }) => {
      const session = await requireSession(ctx);
      return listOwnedCoils(session.address, pageOf(input));
    }),

  coil: publicProcedure
    .meta({
      family: 'me',
      openapi: rest('GET', '/me/coils/{slug}', "One of the caller's saved Coils, with its receipts", {
        protect: true,
        description:
          "The newest save of this slug by the caller's wallet, and its newest receipts (follow `receiptsNextCursor` with GET /api/me/receipts?coilSlug=...). A slug the caller does not own answers 404 COIL_NOT_FOUND, the same as a slug nobody has: another wallet's Coil is never shown and its existence is not revealed. 401 SESSION_REQUIRED without a valid session.",
      }),
      callerPaths: ['coil.name', 'coil.forkOf', 'coil.manifest'],
    })
    .input(z.object({ slug: z.string().min(1).max(200), nowIso: nowIsoField }))
    .output(z.object({ coil: ownedCoil, receipts: z.array(ownedReceipt), receiptsNextCursor: nextCursor }))
    .query(async ({ ctx, input }) => {
      const session = await requireSession(ctx);
      const coil = await findOwnedCoil(session.address, input.slug);
      if (!coil) {
        throw new SvcError('COIL_NOT_FOUND', 'No saved Coil with this slug belongs to your wallet', {
          issues: [{ code: 'COIL_NOT_FOUND', message: 'not among your saved Coils', path: 'slug' }],
        });
      }
      const receipts = await listOwnedReceipts(session.address, { coilSlug: input.slug, limit: DEFAULT_PAGE_LIMIT });
      return { coil, receipts: receipts.items, receiptsNextCursor: receipts.nextCursor };
    }),

  receipts: publicProcedure
    .meta({
      family: 'me',
      openapi: rest('GET', '/me/receipts', "The caller's saved receipts", {
        protect: true,
        description: `Receipts issued by tools requests that carried this wallet's session; \`coilSlug\` narrows them to one Coil. ${PAGINATION_TEXT}`,
      }),
    })
    .input(
      z
        .object({
          ...pageFields,
          coilSlug: z.string().min(1).max(200).meta({ description: 'Only the receipts of this Coil slug' }).optional(),
          nowIso: nowIsoField,
        })
        .optional(),
    )
    .output(z.object({ items: z.array(ownedReceipt), nextCursor }))
    .query(async ({ ctx, input }) => {
      const session = await requireSession(ctx);
      return listOwnedReceipts(session.address, { ...pageOf(input), coilSlug: input?.coilSlug });
    }),
});
