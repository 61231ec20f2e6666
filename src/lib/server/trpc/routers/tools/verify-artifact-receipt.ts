/** POST /api/receipts/verify: an artifact receipt (arcpt_) checked against its artifact and the service's keys. */
import { z } from 'zod';
import { verifyArtifactReceipt } from '../../../receipts/artifact';
import { artifactVerificationOut, receiptInput } from '../../../receipts/artifact.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { inclusionOut, receiptChecks, withInclusion } from '../../procedure-kit/receipt-checks';
import { toolsMeta } from './meta';

export const verifyArtifactReceiptProcedure = publicProcedure
  .meta(toolsMeta('POST', '/receipts/verify', 'Verify an artifact receipt (arcpt_) against its artifact'))
  .input(
    z.object({
      receipt: receiptInput,
      subject: z.unknown().optional().describe('the artifact the receipt fingerprints'),
      nowIso: nowIsoField,
    }),
  )
  .output(toolFields('verify-artifact-receipt', { verification: artifactVerificationOut.extend({ inclusion: inclusionOut }) }))
  .mutation(async ({ ctx, input }) => {
    // Artifact receipts are never logged: their blocks say `logged: false`, verified by signature and key period.
    const checks = await receiptChecks(ctx, input.receipt, undefined);
    return toolAnswer('verify-artifact-receipt', ctx, {
      verification: withInclusion(verifyArtifactReceipt(input.receipt, input.subject, checks.keys, checks.signatureOptions), checks),
    });
  });
