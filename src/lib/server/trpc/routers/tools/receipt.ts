/** POST /api/tools/receipt (svc_create_receipt): a deterministic receipt of a Coil, with its provenance. */
import { z } from 'zod';
import { renderProvenance } from '../../../receipts/provenance';
import { provenanceOut } from '../../../receipts/provenance.schema';
import { RECEIPT_KINDS } from '../../../receipts/receipt';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { issueReceipt, storedCoilsOf, ticketBuiltCoil, withForkParent } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { coilField, toolsMeta } from './meta';

export const receiptProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/receipt', 'Issue a deterministic receipt for a Coil', 'svc_create_receipt'))
  .input(z.object({ coil: coilField, kind: z.enum(RECEIPT_KINDS).optional(), nowIso: nowIsoField }))
  .output(toolFields('receipt', { receipt: receiptOut, receiptLog: receiptLogOut, provenance: provenanceOut }))
  .mutation(async ({ ctx, input }) => {
    const coil = await withForkParent(ctx, input.coil);
    // Asking for a receipt is asking to keep it: it is logged (receipts/log-policy.ts).
    const { receipt, receiptLog } = await issueReceipt(ctx, coil, input.kind ?? 'coil_manifest', { asked: 'explicit_receipt' });
    // A fork made on the Coil page is built here: its browser may claim it after signing in.
    if (coil.forkOf) await ticketBuiltCoil(ctx, receipt);
    const lineage = await (await storedCoilsOf(ctx)).lineage(receipt.manifestHash);
    return toolAnswer('receipt', ctx, { receipt, receiptLog, provenance: renderProvenance(receipt.manifestHash, (h) => lineage.get(h)) });
  });
