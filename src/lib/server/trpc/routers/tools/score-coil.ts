/** POST /api/tools/score-coil (svc_score_coil): the health of a Coil, with its receipt. */
import { z } from 'zod';
import { scoreCoil } from '../../../coil/health';
import { healthOut } from '../../../coil/health.schema';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolFields } from '../../procedure-kit/tool-answer';
import { coilField, coilTool, toolsMeta } from './meta';

export const scoreCoilProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/score-coil', 'Coil health 0 to 100', 'svc_score_coil'))
  .input(z.object({ coil: coilField, nowIso: nowIsoField }))
  .output(toolFields('score-coil', { health: healthOut, receipt: receiptOut, receiptLog: receiptLogOut }))
  .mutation(coilTool('score-coil', 'coil_manifest', (coil) => ({ health: scoreCoil(coil) })));
