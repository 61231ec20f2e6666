/** POST /api/tools/drift-check (svc_drift_check): drift of current weights against a valid Coil. */
import { z } from 'zod';
import { requireValidCoil } from '../../../coil/capsule';
import { driftCheck } from '../../../coil/drift';
import { driftReportOut } from '../../../coil/drift.schema';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { issueReceipt, withForkParent } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { coilField, toolsMeta } from './meta';

export const driftCheckProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/drift-check', 'Drift of current weights against a valid Coil', 'svc_drift_check'))
  .input(
    z.object({
      coil: coilField,
      currentWeightsBps: z
        .record(z.string().min(1).max(16), z.number().int().min(0).max(10_000))
        .optional()
        .describe('symbol → integer bps'),
      nowIso: nowIsoField,
    }),
  )
  .output(toolFields('drift-check', { report: driftReportOut, receipt: receiptOut, receiptLog: receiptLogOut }))
  .mutation(async ({ ctx, input }) => {
    const coil = await withForkParent(ctx, input.coil);
    requireValidCoil(coil);
    // The report names the Coil by its receipt's id and hash, so the receipt comes first.
    const { receipt, receiptLog } = await issueReceipt(ctx, coil, 'coil_manifest');
    const report = driftCheck({
      coil,
      coilId: receipt.coilId,
      manifestHash: receipt.manifestHash,
      currentWeightsBps: input.currentWeightsBps,
      now: ctx.answerTime,
    });
    return toolAnswer('drift-check', ctx, { report, receipt, receiptLog });
  });
