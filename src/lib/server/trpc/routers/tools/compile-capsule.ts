/** POST /api/tools/compile-capsule (svc_compile_broker_capsule): a capsule of a valid, non-paper Coil. */
import { z } from 'zod';
import { compileCapsule } from '../../../coil/capsule';
import { capsuleOut } from '../../../coil/capsule.schema';
import type { Coil } from '../../../coil/manifest';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolFields } from '../../procedure-kit/tool-answer';
import { coilField, coilTool, toolsMeta } from './meta';

const compileOptions = z
  .object({
    maxTotalNotionalUsd: z.number().positive().describe('USD, at most 10000'),
    userAcknowledgedAgenticMode: z.boolean(),
  })
  .partial()
  .optional();

export const compileCapsuleProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/compile-capsule', 'Compile a capsule from a valid, non-paper Coil', 'svc_compile_broker_capsule'))
  .input(z.object({ coil: coilField, options: compileOptions, nowIso: nowIsoField }))
  .output(toolFields('compile-capsule', { capsule: capsuleOut, receipt: receiptOut, receiptLog: receiptLogOut }))
  .mutation(
    coilTool('compile-capsule', 'coil_manifest', (coil, input: { coil: Coil; options?: z.infer<typeof compileOptions> }) => ({
      capsule: compileCapsule(coil, input.options ?? {}),
    })),
  );
