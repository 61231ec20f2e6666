/** POST /api/tools/share-card (svc_export_share_card): the share card of a valid Coil, made public. */
import { z } from 'zod';
import { requireValidCoil } from '../../../coil/capsule';
import { shareCardOut } from '../../../coil/share-card.schema';
import { buildReceipt } from '../../../receipts/receipt';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { shareReading } from '../../../db/coil-reading-repository';
import { persistReceipt, readingViewerOf, withForkParent } from '../../procedure-kit/coil-store';
import { shareCardOrRefusal, shareUrlBaseField } from '../../procedure-kit/share-card';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { coilField, toolsMeta } from './meta';

export const shareCardProcedure = publicProcedure
  .meta(
    toolsMeta(
      'POST',
      '/tools/share-card',
      'A share card of a valid Coil: a thesis artifact, never a performance claim',
      'svc_export_share_card',
    ),
  )
  .input(
    z.object({
      coil: coilField,
      shareUrlBase: shareUrlBaseField,
      shareThesis: z
        .boolean()
        .default(false)
        .describe(
          "also publish the caller's own newest thesis of this Coil and its reading on the card's share page (default false: the thesis stays private)",
        ),
      nowIso: nowIsoField,
    }),
  )
  .output(
    toolFields('share-card', {
      card: shareCardOut,
      receipt: receiptOut,
      receiptLog: receiptLogOut,
      thesisShared: z
        .boolean()
        .describe(
          'the share page shows the thesis: asked for with shareThesis, and the caller (its wallet or browser) generated this Coil from one',
        ),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const coil = await withForkParent(ctx, input.coil);
    requireValidCoil(coil);
    const receipt = buildReceipt(coil, 'coil_manifest', ctx.answerTime);
    const card = shareCardOrRefusal({ coil, receipt, serviceOrigin: ctx.config.origin, shareUrlBase: input.shareUrlBase });
    // Issuing a card is the act of sharing it: the Coil and the card become public.
    const { receipt: signed, receiptLog } = await persistReceipt(ctx, coil, receipt, { shared: true });
    // The thesis is the person's own: public only when they ask, as a copy bound to this card.
    const thesisShared = input.shareThesis
      ? await shareReading(receipt.manifestHash, await readingViewerOf(ctx), receipt.receiptId, ctx.serverTime)
      : false;
    return toolAnswer('share-card', ctx, { card, receipt: signed, receiptLog, thesisShared });
  });
