import { z } from 'zod';
import { SvcError } from '../../../errors';
import { zodIssues } from '../../error-map';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { X402_HEADERS } from '../../../x402/constants';
import { chainBlocks, chainBlockFields } from '../../../x402/lanes';
import { requireSettlingLane, settlementViewSchema } from '../../../x402/paid-call';
import { paidServiceInputErrorCode, runPaidService } from '../../../x402/settlement';
import { depositPackDepsFor } from '../../vault-shapes';
import { laneOf, requireService, requestPayment, paid, finishBeforeSettlement, serviceNameField } from './paid-flow';

const paidAnswerSchema = stampedOutput({
  serviceName: z.string(),
  result: z.record(z.string(), z.unknown()),
  payment: settlementViewSchema,
  generatedAt: z.string(),
  ...chainBlockFields,
});

export const paidCallProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('POST', '/vaults/x402/{serviceName}', 'A paid vault service (x402): 402 challenge, then settle, run and answer'),
    answerFinishedBeforeSettlement: true,
    unpaidChallenge: { paymentHeaders: [X402_HEADERS.v1.payment, X402_HEADERS.v2.payment] },
  })
  .input(z.object({ serviceName: serviceNameField, nowIso: nowIsoField }).catchall(z.unknown()))
  .output(paidAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const lane = laneOf(ctx.config);
    const service = requireService(input.serviceName);
    requireSettlingLane(lane);
    const { serviceName: _name, nowIso: _now, ...serviceInput } = input;
    const { answer, settlement } = await paid(
      ctx,
      service,
      lane,
      requestPayment(ctx, service, lane),
      { body: input, inputErrorCode: paidServiceInputErrorCode(service, '') },
      async () => {
        // Checked before any money moves: an invalid request costs nothing.
        const parsed = service.input.safeParse(serviceInput);
        if (!parsed.success) {
          const issues = zodIssues(parsed.error);
          throw new SvcError(
            paidServiceInputErrorCode(service, issues[0]?.path ?? ''),
            'The request did not match the service input; nothing was charged',
            { issues },
          );
        }
        // Answering before settlement also refuses a semantically invalid request (a fee
        // above its cap, a non-canonical asset, a deposit pack whose ack pins differ or
        // cannot be read) while nothing is charged. The services change nothing: the
        // deposit pack only reads the chain.
        return runPaidService(service, parsed.data, depositPackDepsFor(ctx.config, ctx.answerTime));
      },
      (result) =>
        finishBeforeSettlement(ctx, input, paidAnswerSchema.omit({ payment: true }), {
          serviceName: service.name,
          result,
          generatedAt: ctx.answerTime.toISOString(),
          ...chainBlocks(lane),
        }),
    );
    return { ...answer, payment: settlement };
  });
