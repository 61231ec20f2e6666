/** Helpers the tools and strategist routers (and the share-card image route) share. */
import { z } from 'zod';
import { scoreCoil } from '../../coil/health';
import { buildShareCard, type ShareCard, type ShareCardInput } from '../../coil/share-card';
import { validateCoil } from '../../coil/validate';
import { SvcError } from '../../errors';
import { scanForExecutionClaims } from '../../guards/output-guard';
import { coilSchema, type Coil } from '../../coil/manifest';
import type { ServiceConfig } from '../../config';
import { recordCoilClaim } from '../../db/coil-claim-repository';
import { ensureClaimTokenHash } from '../../http/claim-cookie';
import { saveCoilWithReceipt, storedCoilsVisibleTo, type StoredCoils } from '../../db/coil-repository';
import type { ErrorIssue } from '../../errors';
import { SYMBOL_SPACE_CONFUSION } from '../../registry/symbol-space';
import { COIL_FORK_PATHS, resolveForkParent, type ForkReference, type ForkReferencePaths } from '../../receipts/lineage';
import type { Receipt } from '../../receipts/receipt';
import type { StrategistConfig } from '../../strategist';
import { carriesCredentials } from '../../url-credentials';
import type { RequestContext } from '../context';

/**
 * The base URL a share link is built on (`{shareUrlBase}/{receiptId}.svg`), for every route that
 * makes a share card: an absolute http(s) URL that carries no credentials, since the link is
 * published with the card.
 */
export const shareUrlBaseField = z
  .url({ protocol: /^https?$/ })
  .max(500)
  .refine((u) => !carriesCredentials(u), 'a share link may not carry credentials')
  .optional()
  .describe('absolute http(s) URL the share link is built on; no user name or password');

export function strategistConfigOf(config: ServiceConfig): StrategistConfig {
  return {
    strategistProvider: config.strategistProvider,
    partner: { apiUrl: config.partner.apiUrl, apiKey: config.partner.apiKey, timeoutMs: config.partner.timeoutMs },
  };
}

/** A missing, empty or blank prompt is `PROMPT_REQUIRED`; an over-long one `PROMPT_TOO_LONG`. */
export function promptErrorCode(issue?: ErrorIssue): string {
  return issue?.code === 'TOO_BIG' ? 'PROMPT_TOO_LONG' : 'PROMPT_REQUIRED';
}

/**
 * Tools answer `COIL_SHAPE` for a broken Coil, `RECEIPT_SHAPE` for a broken receipt, and
 * `SYMBOL_SPACE_CONFUSION` when a ticker and a chain address trade places.
 */
export function toolInputErrorCode(path: string, issue?: ErrorIssue): string {
  if (issue?.code === SYMBOL_SPACE_CONFUSION) return SYMBOL_SPACE_CONFUSION;
  if (path === 'coil' || path.startsWith('coil.')) return 'COIL_SHAPE';
  if (path === 'receipt' || path.startsWith('receipt.')) return 'RECEIPT_SHAPE';
  if (path === 'prompt') return promptErrorCode(issue);
  return 'INPUT_INVALID';
}

/**
 * The stored Coils and receipts this call may read: those saved under no wallet and the
 * caller's own wallet's (receipts/visibility.ts, docs/visibility.md). Every procedure that
 * reads a stored Coil or receipt reads it through here, so the caller's session decides.
 */
export async function storedCoilsOf(ctx: RequestContext): Promise<StoredCoils> {
  return storedCoilsVisibleTo((await ctx.getSession())?.address ?? null);
}

/**
 * The parent manifest hash of a fork reference, resolved from the receipts the caller may
 * see (src/lib/server/receipts/lineage.ts): the one resolution every receipt-issuing route,
 * the strategist and verification use.
 */
export async function forkParentFor(
  ctx: RequestContext,
  ref: ForkReference,
  paths: ForkReferencePaths = COIL_FORK_PATHS,
): Promise<string | undefined> {
  if (!ref.forkOf) return ref.parentManifestHash ?? undefined;
  return resolveForkParent(ref, (await storedCoilsOf(ctx)).forkParents, paths);
}

/** The Coil with its fork's parent resolved and stamped (unchanged when it is not a fork). */
export async function withForkParent(ctx: RequestContext, coil: Coil, paths?: ForkReferencePaths): Promise<Coil> {
  if (!coil.forkOf) return coil;
  const parentManifestHash = await forkParentFor(ctx, coil, paths);
  return parentManifestHash === coil.parentManifestHash ? coil : { ...coil, parentManifestHash };
}

/**
 * Saves a Coil and its receipt under the caller's wallet when signed in (else under no
 * wallet: the store still keeps them for lineage, provenance and passports). `shared` is the
 * share card's explicit act of sharing: the pair is also saved under no wallet, so the Coil
 * and the card are public by their content addresses (docs/visibility.md#sharing), without
 * naming the wallet.
 */
export async function persistReceipt(
  ctx: RequestContext,
  coil: Coil,
  receipt: Receipt,
  agentId: string | null = null,
  shared = false,
): Promise<void> {
  const owner = (await ctx.getSession())?.address ?? null;
  const saveUnder = (ownerAddress: string | null) =>
    saveCoilWithReceipt({
      coil,
      manifestHash: receipt.manifestHash,
      ownerAddress,
      agentId,
      score: scoreCoil(coil).total,
      storedAt: ctx.serverTime,
      receipt,
    });
  await Promise.all(shared && owner !== null ? [saveUnder(owner), saveUnder(null)] : [saveUnder(owner)]);
}

/**
 * A claim ticket for a Coil the web app built without a wallet session, so that this browser
 * can claim it for a wallet after signing in, explicitly (docs/visibility.md#claiming). Nothing
 * for a signed-in build (already the wallet's) or outside the web app's door.
 */
export async function ticketBuiltCoil(ctx: RequestContext, receipt: Receipt): Promise<void> {
  if (await ctx.getSession()) return;
  const tokenHash = ensureClaimTokenHash(ctx);
  if (tokenHash) await recordCoilClaim(tokenHash, receipt.manifestHash, receipt.receiptId, ctx.serverTime);
}

/**
 * The share card of a Coil, refused (422 SHARE_CARD_REJECTED, issue EXECUTION_CLAIM_TEXT)
 * when a text of the card reads as an execution claim. A card is a picture people post under
 * the service's name, and its texts are the Coil's texts cut and combined (title, headline,
 * alt text), so the caller's words in it are refused at input, naming the Coil fields (or the
 * card field a combination produced), rather than blocked as a 500 of the output guard.
 * It sits beside `assertNoPerformanceClaim` in spirit; it lives here because coil/ belongs
 * to another change of this round.
 */
export function shareCardOrRefusal(input: ShareCardInput): ShareCard {
  const card = buildShareCard(input);
  const coilIssues = validateCoil(input.coil)
    .issues.filter((i) => i.code === 'EXECUTION_CLAIM_TEXT')
    .map((i) => ({
      code: 'EXECUTION_CLAIM_TEXT',
      message: 'this text reads as a claim that an execution happened',
      path: `coil.${i.path}`,
    }));
  const cardClaim = coilIssues.length === 0 ? scanForExecutionClaims(card) : undefined;
  const issues = cardClaim
    ? [
        {
          code: 'EXECUTION_CLAIM_TEXT',
          message: "this card text, made from the Coil's texts, reads as a claim that an execution happened",
          path: `card.${cardClaim.path}`,
        },
      ]
    : coilIssues;
  if (issues.length === 0) return card;
  throw new SvcError(
    'SHARE_CARD_REJECTED',
    "A share card never carries a claim that an execution happened; this Coil's texts read as one",
    { issues },
  );
}

/**
 * The share card of a stored receipt this caller may read (docs/visibility.md), rebuilt from the
 * stored receipt and Coil, or undefined when either is not readable. Refused like POST
 * /api/tools/share-card when the Coil's texts read as a claim. The one reading behind the card's
 * images and its page.
 */
export async function storedShareCard(
  ctx: RequestContext,
  receiptId: string,
): Promise<{ card: ShareCard; receipt: Receipt; coil: Coil } | undefined> {
  const rows = await storedCoilsOf(ctx);
  const receipt = await rows.receipt(receiptId);
  if (!receipt) return undefined;
  const coil = coilSchema.safeParse(await rows.coil(receipt.manifestHash));
  if (!coil.success) return undefined;
  return { card: shareCardOrRefusal({ coil: coil.data, receipt, serviceOrigin: ctx.config.origin }), receipt, coil: coil.data };
}
