import { z } from 'zod';
import { partnerJobPollAnswerSchema } from '../../../stocks/lane.schema';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { pollPartnerJob } from '../../../stocks/job-poll';
import { nowIsoField, publicProcedure, rest } from '../../init';

export const partnerJobProcedure = publicProcedure
  .meta({
    family: 'stocks',
    openapi: rest('GET', '/stocks/partner-job/{jobId}', 'Poll a partner job and map it to the receipt state'),
  })
  .input(z.object({ jobId: z.string().min(1).max(256), nowIso: nowIsoField }))
  .output(partnerJobPollAnswerSchema)
  .query(({ input, ctx }) =>
    pollPartnerJob(input.jobId, { config: ctx.config, store: stockReceiptStore(), now: ctx.answerTime, serverTime: ctx.serverTime }),
  );
