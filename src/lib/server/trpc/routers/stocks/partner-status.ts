import { z } from 'zod';
import { stockLaneStatusSchema } from '../../../stocks/lane.schema';
import { partnerLaneStatus } from '../../../stocks/lane-config';
import { nowIsoField, publicProcedure, rest } from '../../init';

export const partnerStatusProcedure = publicProcedure
  .meta({
    family: 'stocks',
    openapi: rest('GET', '/stocks/partner-status', 'Stock lane status: submit availability as booleans'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(stockLaneStatusSchema)
  .query(({ ctx }) => partnerLaneStatus(ctx.config, ctx.answerTime));
