/** GET /api/coil/share-cards/{receiptId}: a stored share card, for its share page. */
import { z } from 'zod';
import { shareCardOut } from '../../../coil/share-card.schema';
import { SvcError } from '../../../errors';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { storedShareCard } from '../../procedure-kit/share-card';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { toolsMeta } from './meta';

export const storedShareCardProcedure = publicProcedure
  .meta(toolsMeta('GET', '/coil/share-cards/{receiptId}', 'A stored share card by its receipt id, for its share page'))
  .input(z.object({ receiptId: z.string().regex(/^hrcpt_[0-9a-f]{32}$/, 'expected hrcpt_ and 32 hex digits'), nowIso: nowIsoField }))
  .output(toolFields('stored-share-card', { card: shareCardOut, receipt: receiptOut }))
  .query(async ({ ctx, input }) => {
    const stored = await storedShareCard(ctx, input.receiptId);
    if (!stored) {
      throw new SvcError('RECEIPT_NOT_FOUND', 'No stored receipt has this id', {
        issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'create one with POST /api/tools/share-card', path: 'receiptId' }],
      });
    }
    return toolAnswer('stored-share-card', ctx, { card: stored.card, receipt: stored.receipt });
  });
