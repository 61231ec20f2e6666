import { z } from 'zod';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { PARTNER_CLOUD_ENDPOINTS, X402_HEADERS } from '../../../x402/constants';
import { priceOf, priceSchema } from '../../../x402/directory';
import { chainBlocks, chainBlockFields, laneSelectionSchema } from '../../../x402/lanes';
import { requireSettlingLane } from '../../../x402/paid-call';
import { buildRequirements, requirementV1Schema, requirementV2Schema } from '../../../x402/requirements';
import { laneOf, pinnedOf, requireService, serviceNameField } from './paid-flow';

export const serviceRequirementsProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('POST', '/vaults/x402/{serviceName}/requirements', 'Payment requirements of a paid vault service, rebuilt by the server'),
  })
  .input(z.object({ serviceName: serviceNameField, nowIso: nowIsoField }).catchall(z.unknown()))
  .output(
    stampedOutput({
      serviceName: z.string(),
      title: z.string(),
      price: priceSchema,
      lane: laneSelectionSchema,
      x402Version: z.literal(2),
      resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }).nullable(),
      accepts: z.array(requirementV2Schema),
      acceptsV1: z.array(requirementV1Schema),
      paymentHeaders: z.object({ v1: z.string(), v2: z.string() }),
      partnerCloudListing: z.string().nullable(),
      ignoredBuyerFields: z.array(z.string()),
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .mutation(({ ctx, input }) => {
    const lane = laneOf(ctx.config);
    const service = requireService(input.serviceName);
    const ignoredBuyerFields = Object.keys(input)
      .filter((k) => k !== 'serviceName' && k !== 'nowIso')
      .sort();
    if (lane.lane === 'facilitator') requireSettlingLane(lane);
    const built = lane.settlesHere ? buildRequirements(service, pinnedOf(ctx)) : undefined;
    const listing = PARTNER_CLOUD_ENDPOINTS.find((e) => service.freeRoute !== null && e.mirrors === service.freeRoute)?.name ?? null;
    return {
      serviceName: service.name,
      title: service.title,
      price: priceOf(service, lane),
      lane,
      x402Version: 2 as const,
      resource: built?.resource ?? null,
      accepts: built ? [built.v2] : [],
      acceptsV1: built ? [built.v1] : [],
      paymentHeaders: { v1: X402_HEADERS.v1.payment, v2: X402_HEADERS.v2.payment },
      partnerCloudListing: lane.lane === 'partnerCloud' ? listing : null,
      ignoredBuyerFields,
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(lane),
    };
  });
