/** POST /api/tools/risk-audit (svc_risk_audit): the fuses of a Coil, with a risk_fuse receipt. */
import { z } from 'zod';
import { riskAudit } from '../../../coil/audit';
import { auditedFuseOut } from '../../../coil/audit.schema';
import { issueOut } from '../../../coil/validation.schema';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolFields } from '../../procedure-kit/tool-answer';
import { coilField, coilTool, toolsMeta } from './meta';

export const riskAuditProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/risk-audit', 'Audit the risk fuses of a Coil', 'svc_risk_audit'))
  .input(z.object({ coil: coilField, nowIso: nowIsoField }))
  .output(
    toolFields('risk-audit', {
      fuses: z.array(auditedFuseOut),
      requiredForCapsule: z.array(z.string()),
      missingRequired: z.array(z.string()),
      issues: z.array(issueOut),
      fuseChecksum: z.string(),
      receipt: receiptOut,
      receiptLog: receiptLogOut,
    }),
  )
  .mutation(coilTool('risk-audit', 'risk_fuse', (coil) => riskAudit(coil)));
