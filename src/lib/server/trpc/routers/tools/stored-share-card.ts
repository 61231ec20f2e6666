/** GET /api/coil/share-cards/{receiptId}: a stored share card, for its share page. */
import { z } from 'zod';
import { shareCardOut } from '../../../coil/share-card.schema';
import { SvcError } from '../../../errors';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { storedShareCard } from '../../procedure-kit/share-card';
import { sharedReadingOf } from '../../../db/coil-reading-repository';
import { keptReadingOut } from '../../../strategist/strategist.schema';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { toolsMeta } from './meta';

export const storedShareCardProcedure = publicProcedure
  .meta({
    ...toolsMeta('GET', '/coil/share-cards/{receiptId}', 'A stored share card by its receipt id, for its share page'),
    // The owner's own thesis, shared by them: their words, not statements of the service.
    callerPaths: ['sharedThesis'],
  })
  .input(z.object({ receiptId: z.string().regex(/^hrcpt_[0-9a-f]{32}$/, 'expected hrcpt_ and 32 hex digits'), nowIso: nowIsoField }))
  .output(
    toolFields('stored-share-card', {
      card: shareCardOut,
      receipt: receiptOut,
      sharedThesis: keptReadingOut
        .optional()
        .describe('the thesis and its reading, present only when the owner chose to share them with this card (shareThesis)'),
    }),
  )
  .query(async ({ ctx, input }) => {
    const stored = await storedShareCard(ctx, input.receiptId);
    if (!stored) {
      throw new SvcError('RECEIPT_NOT_FOUND', 'No stored receipt has this id', {
        issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'create one with POST /api/tools/share-card', path: 'receiptId' }],
      });
    }
    const sharedThesis = await sharedReadingOf(input.receiptId);
    return toolAnswer('stored-share-card', ctx, { card: stored.card, receipt: stored.receipt, ...(sharedThesis ? { sharedThesis } : {}) });
  });
