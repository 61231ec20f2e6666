/** POST /api/coil/verify (svc_verify_receipt): a Coil receipt checked against its Coil and the service's keys. */
import { z } from 'zod';
import { verifyReceipt } from '../../../receipts/receipt';
import { verificationOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { withForkParent } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { inclusionOut, proofFileField, receiptChecks, withInclusion } from '../../procedure-kit/receipt-checks';
import { coilField, toolsMeta } from './meta';

export const verifyCoilProcedure = publicProcedure
  .meta(toolsMeta('POST', '/coil/verify', 'Verify a receipt against a Coil', 'svc_verify_receipt'))
  .input(
    z.object({
      coil: coilField,
      receipt: z.record(z.string(), z.unknown()).describe('a receipt as issued; any field may be wrong'),
      proof: proofFileField,
      nowIso: nowIsoField,
    }),
  )
  .output(toolFields('verify-coil', { verification: verificationOut.extend({ inclusion: inclusionOut }) }))
  .mutation(async ({ ctx, input }) => {
    // A fork sent without its parent's hash is completed the way the tool that issued the
    // receipt completed it; the receipt's own parentManifestHash is the version to check.
    const named = input.receipt.parentManifestHash;
    const asSent =
      input.coil.forkOf && !input.coil.parentManifestHash && typeof named === 'string'
        ? { ...input.coil, parentManifestHash: named }
        : input.coil;
    const coil = await withForkParent(ctx, asSent, {
      forkOf: 'coil.forkOf',
      parentManifestHash: asSent === input.coil ? 'coil.parentManifestHash' : 'receipt.parentManifestHash',
    });
    const checks = await receiptChecks(ctx, input.receipt, input.proof);
    return toolAnswer('verify-coil', ctx, {
      verification: withInclusion(verifyReceipt(coil, input.receipt, checks.keys, checks.signatureOptions), checks),
    });
  });
