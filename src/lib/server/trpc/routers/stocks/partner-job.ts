import { z } from 'zod';
import { stockReceiptStore } from '../../../db/stock-receipt-repository';
import { pollPartnerJob } from '../../../stocks/lane';
import { nowIsoField, publicProcedure, rest } from '../../init';
import {
  partnerJobStatusSchema,
  stockReasonCodeSchema,
  stockReceiptSchema,
  stockReceiptStatusSchema,
} from '../../../stocks/receipt.schema';

const pollOutput = z.object({
  jobId: z.string(),
  partnerJobStatus: partnerJobStatusSchema,
  receiptStatus: stockReceiptStatusSchema,
  statusMeaning: z.string(),
  statusKeptReason: stockReasonCodeSchema.optional().describe('set when on-chain proof kept the receipt where it was'),
  statusKeptMeaning: z.string().optional(),
  polledAt: z.string(),
  receipt: stockReceiptSchema,
  svcExecutesTrade: z.literal(false),
});

export const partnerJobProcedure = publicProcedure
  .meta({
    family: 'stocks',
    openapi: rest('GET', '/stocks/partner-job/{jobId}', 'Poll a partner job and map it to the receipt state'),
  })
  .input(z.object({ jobId: z.string().min(1).max(256), nowIso: nowIsoField }))
  .output(pollOutput)
  .query(({ input, ctx }) =>
    pollPartnerJob(input.jobId, { config: ctx.config, store: stockReceiptStore(), now: ctx.answerTime, serverTime: ctx.serverTime }),
  );
