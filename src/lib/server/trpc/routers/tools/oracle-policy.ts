/** POST /api/tools/oracle-policy (svc_explain_oracle_policy): the oracle policy, and readings classified by it. */
import { z } from 'zod';
import { parseIsoInstant } from '../../../clock';
import { HEX_ADDRESS } from '../../../coil/manifest';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { explainOraclePolicy } from '../../../registry/oracle-policy';
import { oraclePolicyOut, priceReadingOut } from '../../../registry/oracle-policy.schema';
import { chainAddressField } from '../../../registry/symbol-space';
import { nowIsoField, publicProcedure } from '../../init';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { toolsMeta } from './meta';

const priceReadingIn = z
  .object({
    tokenAddress: chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits'),
    updatedAt: z
      .string()
      .max(40)
      .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' }),
    price: z
      .string()
      .regex(/^\d{1,18}(\.\d{1,18})?$/)
      .optional()
      .describe('USD, a decimal string'),
  })
  .strict();

export const oraclePolicyProcedure = publicProcedure
  .meta(
    toolsMeta(
      'POST',
      '/tools/oracle-policy',
      'The oracle policy in force: per asset the price feed, the staleness bound, and what stale or missing means',
      'svc_explain_oracle_policy',
    ),
  )
  .input(
    z.object({
      readings: z.array(priceReadingIn).max(64).optional().describe('price readings to classify against the policy'),
      nowIso: nowIsoField,
    }),
  )
  .output(
    toolFields('oracle-policy', { policy: oraclePolicyOut, readings: z.array(priceReadingOut).nullable(), receipt: artifactReceiptOut }),
  )
  .mutation(({ ctx, input }) => {
    const explained = explainOraclePolicy(
      input.readings?.map((r) => ({ tokenAddress: r.tokenAddress, updatedAt: parseIsoInstant(r.updatedAt)!, price: r.price })),
      ctx.serverTime,
    );
    return toolAnswer('oracle-policy', ctx, { ...explained, receipt: buildArtifactReceipt('oracle_policy', explained, ctx.answerTime) });
  });
