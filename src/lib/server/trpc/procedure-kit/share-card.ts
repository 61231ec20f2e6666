/** The share card as procedures make it: the tools family, autonomy and the card's image route. */
import { z } from 'zod';
import { coilSchema, type Coil } from '../../coil/manifest';
import { buildShareCard, type ShareCard, type ShareCardInput } from '../../coil/share-card';
import { validateCoil } from '../../coil/validate';
import { SvcError } from '../../errors';
import { scanForExecutionClaims } from '../../guards/output-guard';
import type { Receipt } from '../../receipts/receipt';
import { carriesCredentials } from '../../url-credentials';
import type { RequestContext } from '../context';
import { storedCoilsOf } from './coil-store';

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
