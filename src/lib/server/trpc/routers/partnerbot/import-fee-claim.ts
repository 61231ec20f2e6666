import { z } from 'zod';
import { importPartnerFeeClaim } from '../../../vaults/fee-claim';
import { chainAddressField } from '../../../registry/symbol-space';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { symbolSpaceAware } from '../../error-map';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const importFeeClaimProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    tool: 'svc_import_partner_fee_claim',
    inputErrorCode: symbolSpaceAware('FEE_CLAIM_SHAPE'),
    openapi: rest(
      'POST',
      '/partnerbot/fee-claims/import',
      "Import a fee claim the partner reports, as a deterministic receipt (the partner's word, never proof of payment)",
    ),
  })
  .input(
    z.object({
      claim: z
        .object({
          partnerReference: z
            .string()
            .regex(/^[A-Za-z0-9._:/-]{1,128}$/)
            .describe("the partner's own reference for the claim"),
          amountUnits: z.string().max(48).describe('USDG 6-decimal integer units, e.g. "1250000" for 1.25 USDG'),
          currency: z.string().max(16).optional().describe('USDG'),
          periodStart: z.string().max(40),
          periodEnd: z.string().max(40),
          vaultId: z.string().max(100).optional().describe('a registered vault slug or address'),
          tokenAddress: chainAddressField(/^0x[0-9a-fA-F]{40}$/, 'expected 0x followed by 40 hex digits')
            .optional()
            .describe('a canonical token address'),
        })
        .strict(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      claim: z.object({
        claimVersion: z.string(),
        partnerReference: z.string(),
        amount: z.object({ units: z.string(), usdg: z.string() }),
        currency: z.literal('USDG'),
        period: z.object({ start: z.string(), end: z.string() }),
        subject: z.object({
          kind: z.enum(['vault', 'token']),
          slug: z.string().nullable(),
          address: z.string(),
          ticker: z.string().nullable(),
        }),
        source: z.literal('partner_reported'),
        status: z.literal('imported_unverified'),
        proofOfPayment: z.literal(false),
        paymentVerified: z.literal(false),
      }),
      meaning: z.string(),
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
    }),
  )
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      ...importPartnerFeeClaim(input.claim, { now: ctx.answerTime, serverTime: ctx.serverTime }),
      generatedAt: ctx.answerTime.toISOString(),
    }),
  );
