/** GET /api/receipts/log/consistency: the consistency proof between two tree sizes of the log. */
import { z } from 'zod';
import { receiptLogTree, receiptLogWithTiles } from '../../../db/receipt-log-repository';
import { consistencyAnswer, tilesOfConsistencyAnswer } from '../../../receipts/log';
import { HEX_64, signedTreeHeadOut } from '../../../receipts/log.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { signerOf } from '../../service-keys';
import { receiptLogMeta, sizeOutOfRange, treeSizeParam } from './meta';

export const consistencyProcedure = publicProcedure
  .meta(receiptLogMeta('/receipts/log/consistency', 'The consistency proof between two tree sizes of the log'))
  .input(
    z.object({
      first: treeSizeParam('the size of the older tree (the head you kept)').unwrap(),
      second: treeSizeParam('the size of the newer tree (default: the current size)'),
      nowIso: nowIsoField,
    }),
  )
  .output(
    toolFields('receipt-log-consistency', {
      first: z.number().int(),
      second: z.number().int(),
      proof: z.array(HEX_64),
      firstHead: signedTreeHeadOut,
      secondHead: signedTreeHeadOut,
    }),
  )
  .query(async ({ ctx, input }) => {
    const signer = await signerOf(ctx);
    const tree = await receiptLogTree();
    const size = tree.size;
    const second = input.second ?? size;
    if (second > size) throw sizeOutOfRange('second', size);
    if (input.first > second) throw sizeOutOfRange('first', size);
    const answering = await receiptLogWithTiles(tree, (t) => tilesOfConsistencyAnswer(t, input.first, second));
    return toolAnswer('receipt-log-consistency', ctx, consistencyAnswer(answering, input.first, second, ctx.serverTime, signer));
  });
