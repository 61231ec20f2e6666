/** GET /api/receipts/log/inclusion/{receiptId}: the inclusion proof of a stored receipt in the log. */
import { z } from 'zod';
import { receiptLogEntryOf, receiptLogTree, receiptLogWithTiles } from '../../../db/receipt-log-repository';
import { SvcError } from '../../../errors';
import { inclusionAnswer, tilesOfInclusionAnswer } from '../../../receipts/log';
import { HEX_64, signedTreeHeadOut } from '../../../receipts/log.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { storedCoilsOf } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { signerOf } from '../../service-keys';
import { receiptLogMeta, sizeOutOfRange, treeSizeParam } from './meta';

export const inclusionProcedure = publicProcedure
  .meta(receiptLogMeta('/receipts/log/inclusion/{receiptId}', 'The inclusion proof of a stored receipt in the log'))
  .input(
    z.object({
      receiptId: z.string().regex(/^hrcpt_[0-9a-f]{32}$/, 'expected hrcpt_ followed by 32 hex digits'),
      treeSize: treeSizeParam('the size of the tree to prove inclusion in (default: the current size)'),
      nowIso: nowIsoField,
    }),
  )
  .output(
    toolFields('receipt-log-inclusion', {
      receiptId: z.string(),
      leafIndex: z.number().int(),
      leafHash: HEX_64,
      treeSize: z.number().int(),
      auditPath: z.array(HEX_64),
      head: signedTreeHeadOut,
    }),
  )
  .query(async ({ ctx, input }) => {
    const stored = await (await storedCoilsOf(ctx)).receipt(input.receiptId);
    if (!stored)
      throw new SvcError('RECEIPT_NOT_FOUND', 'No receipt with this id is stored for you', {
        issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'issue the receipt first', path: 'receiptId' }],
      });
    const entry = await receiptLogEntryOf(input.receiptId);
    if (!entry)
      throw new SvcError('RECEIPT_NOT_LOGGED', 'This receipt was stored before the receipt log existed', {
        issues: [{ code: 'RECEIPT_NOT_LOGGED', message: 'no log entry holds this receipt', path: 'receiptId' }],
      });
    const signer = await signerOf(ctx);
    const tree = await receiptLogTree();
    const size = tree.size;
    const treeSize = input.treeSize ?? size;
    if (treeSize > size || treeSize <= entry.index) throw sizeOutOfRange('treeSize', size);
    const answering = await receiptLogWithTiles(tree, (t) => tilesOfInclusionAnswer(t, entry.index, treeSize));
    return toolAnswer(
      'receipt-log-inclusion',
      ctx,
      inclusionAnswer(answering, entry.index, treeSize, input.receiptId, ctx.serverTime, signer),
    );
  });
