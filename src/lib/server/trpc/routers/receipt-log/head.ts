/** GET /api/receipts/log/head: the receipt log's current signed tree head. */
import { z } from 'zod';
import { receiptLogTree, receiptLogWithTiles } from '../../../db/receipt-log-repository';
import { signedTreeHead, tilesOfHead } from '../../../receipts/log';
import { signedTreeHeadOut } from '../../../receipts/log.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { signerOf } from '../../service-keys';
import { receiptLogMeta } from './meta';

export const headProcedure = publicProcedure
  .meta(receiptLogMeta('/receipts/log/head', "The receipt log's current signed tree head"))
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(toolFields('receipt-log-head', { head: signedTreeHeadOut }))
  .query(async ({ ctx }) => {
    const signer = await signerOf(ctx);
    const tree = await receiptLogTree();
    const size = tree.size;
    const answering = await receiptLogWithTiles(tree, (t) => tilesOfHead(t, size));
    const head = signedTreeHead(answering, size, ctx.serverTime, signer);
    return toolAnswer('receipt-log-head', ctx, { head });
  });
