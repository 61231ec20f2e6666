import { z } from 'zod';
import { SvcError } from '../../../errors';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainBlocks, chainBlockFields } from '../../../x402/lanes';
import { requireSettlingLane, settlementViewSchema } from '../../../x402/paid-call';
import { laneOf, requireService, requestPayment, paid, finishBeforeSettlement, serviceNameField } from './paid-flow';

const settleAnswerSchema = stampedOutput({
  serviceName: z.string(),
  settlement: settlementViewSchema,
  generatedAt: z.string(),
  ...chainBlockFields,
});

export const facilitatorSettleProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('POST', '/x402/facilitator/settle', 'Server-side settlement of a payment for a paid vault service'),
    answerFinishedBeforeSettlement: true,
  })
  // The lane gate comes before the input is validated: a lane that is off says so first.
  .use(({ ctx, next }) => {
    requireSettlingLane(laneOf(ctx.config));
    return next();
  })
  .input(
    z.object({
      serviceName: serviceNameField,
      paymentHeader: z.string().max(16_384).optional().describe('the base64 value of an X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2) header'),
      nowIso: nowIsoField,
    }),
  )
  .output(settleAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const lane = laneOf(ctx.config);
    const service = requireService(input.serviceName);
    const paymentHeader = requestPayment(ctx, service, lane, input.paymentHeader);
    if (!paymentHeader) {
      throw new SvcError('X402_PAYMENT_MISSING', 'Give the payment as `paymentHeader` or in an X-PAYMENT / PAYMENT-SIGNATURE header', {
        issues: [{ code: 'X402_PAYMENT_MISSING', message: 'no payment given', path: 'paymentHeader' }],
      });
    }
    // Settlement only: no service is run, the answer is the receipt.
    const { paymentHeader: _value, ...request } = input;
    const { answer, settlement } = await paid(
      ctx,
      service,
      lane,
      paymentHeader,
      { body: { settleOnly: true, ...request }, inputErrorCode: 'INPUT_INVALID' },
      () => null,
      () =>
        finishBeforeSettlement(ctx, input, settleAnswerSchema.omit({ settlement: true }), {
          serviceName: service.name,
          generatedAt: ctx.answerTime.toISOString(),
          ...chainBlocks(lane),
        }),
    );
    return { ...answer, settlement };
  });
