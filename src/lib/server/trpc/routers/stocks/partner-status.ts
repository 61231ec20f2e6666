import { z } from 'zod';
import { partnerLaneStatus } from '../../../stocks/lane';
import { nowIsoField, publicProcedure, rest } from '../../init';
import { hardFlagFields } from '../../../stocks/plan';

const statusOutput = z.object({
  lane: z.literal('rail_b_partner_stock_token'),
  laneStatus: z.enum(['enabled', 'not_enabled']),
  prepareAvailable: z.literal(true),
  partnerAgentApiEnabled: z.boolean(),
  partnerApiKeyConfigured: z.boolean(),
  partnerApiUrlConfigured: z.boolean(),
  submitAvailable: z.boolean(),
  jobPollAvailable: z.boolean(),
  chainReconcileConfigured: z.boolean(),
  chainId: z.literal(4663),
  notionalCapUsd: z.number(),
  slippageCapBps: z.number().int(),
  ...hardFlagFields,
  checkedAt: z.string(),
});

export const partnerStatusProcedure = publicProcedure
  .meta({
    family: 'stocks',
    openapi: rest('GET', '/stocks/partner-status', 'Stock lane status: submit availability as booleans'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(statusOutput)
  .query(({ ctx }) => partnerLaneStatus(ctx.config, ctx.answerTime));
