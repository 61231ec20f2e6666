/** POST /api/tools/validate-coil (svc_validate_coil): the issues of a Coil, with a validation receipt. */
import { z } from 'zod';
import { validateCoil } from '../../../coil/validate';
import { validationOut } from '../../../coil/validation.schema';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolFields } from '../../procedure-kit/tool-answer';
import { coilField, coilTool, toolsMeta } from './meta';

export const validateCoilProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/validate-coil', 'Validate a Coil', 'svc_validate_coil'))
  .input(z.object({ coil: coilField, nowIso: nowIsoField }))
  .output(toolFields('validate-coil', { validation: validationOut, receipt: receiptOut, receiptLog: receiptLogOut }))
  .mutation(coilTool('validate-coil', 'validation', (coil) => ({ validation: validateCoil(coil) })));
