/**
 * GET /api/receipts/log/inclusion/{receiptId}: the inclusion proof of a stored receipt in the first
 * log (svc-receipt-log-1.0.0, closed: the receipts already in it). Newer receipts are proven by
 * GET /api/receipts/log/proof/{receiptId} in the checkpointed log (http/tlog-routes.ts).
 */
import { z } from 'zod';
import { receiptLogEntryOf, receiptLogTree, receiptLogWithTiles, tlogEntryOfRow } from '../../../db/receipt-log-repository';
import { inclusionAnswer, LOG_VERSION, tilesOfInclusionAnswer } from '../../../receipts/log';
import { NOT_LOGGED_MESSAGE } from '../../../receipts/log-policy';
import { HEX_64, signedTreeHeadOut } from '../../../receipts/log.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { storedCoilsOf } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { signerOf } from '../../service-keys';
import { receiptLogMeta, receiptNotFound, receiptNotLogged, sizeOutOfRange, treeSizeParam } from './meta';

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
    const rows = await (await storedCoilsOf(ctx)).receiptRows(input.receiptId);
    if (rows.length === 0) throw receiptNotFound();
    // By the leaf hash of a row the caller may read, never by id (another row of the same id
    // may hold other bytes: a release later, or another wallet's).
    let entry: { index: number; leafHash: string } | null = null;
    for (const row of rows) if ((entry = await receiptLogEntryOf(row.receiptJson))) break;
    if (!entry) {
      const inTlog = (await Promise.all(rows.map((row) => tlogEntryOfRow(row.id)))).some((e) => e !== null);
      throw inTlog
        ? receiptNotLogged(
            'This receipt is in the checkpointed receipt log, not in this one',
            `this log (${LOG_VERSION}) is closed; its proof is GET /api/receipts/log/proof/${input.receiptId} (c2sp.org/tlog-proof@v1)`,
          )
        : receiptNotLogged('This receipt is not in the receipt log', NOT_LOGGED_MESSAGE);
    }
    const signer = await signerOf(ctx);
    const tree = await receiptLogTree();
    const size = tree.size;
    const treeSize = input.treeSize ?? size;
    const index = entry.index;
    if (treeSize > size || treeSize <= index) throw sizeOutOfRange('treeSize', size);
    const answering = await receiptLogWithTiles(tree, (t) => tilesOfInclusionAnswer(t, index, treeSize));
    return toolAnswer('receipt-log-inclusion', ctx, inclusionAnswer(answering, index, treeSize, input.receiptId, ctx.serverTime, signer));
  });
