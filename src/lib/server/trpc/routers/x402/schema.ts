import { z } from 'zod';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { feeScheduleSchema, FEE_SCHEDULE } from '../../../vaults/fees';
import { x402ArchitectureFromConfig, x402ArchitectureSchema } from '../../../x402/architecture';
import { PAID_VAULT_SERVICES } from '../../../x402/catalogue';
import { FACILITATOR_LANE, X402_HEADERS, X402_SCHEME } from '../../../x402/constants';
import { serviceListing, serviceListingSchema } from '../../../x402/directory';
import { chainBlocks, chainBlockFields } from '../../../x402/lanes';
import { laneOf } from './paid-flow';

export const schemaProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('GET', '/x402/schema', 'x402 payment lanes per service, with the architecture object'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    stampedOutput({
      schemaVersion: z.string(),
      architecture: x402ArchitectureSchema,
      scheme: z.literal('exact'),
      x402Versions: z.array(z.number().int()),
      headers: z.object({
        v1: z.object({ challenge: z.string(), payment: z.string(), paymentResponse: z.string() }),
        v2: z.object({ challenge: z.string(), payment: z.string(), paymentResponse: z.string() }),
      }),
      facilitatorApi: z.object({ settle: z.string(), supported: z.string(), verifyRouteUsed: z.literal(false) }),
      services: z.array(serviceListingSchema),
      feeSchedule: feeScheduleSchema,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .query(({ ctx }) => {
    const lane = laneOf(ctx.config);
    return {
      schemaVersion: 'svc-x402-schema-1.0.0',
      architecture: x402ArchitectureFromConfig(ctx.config.facilitator),
      scheme: X402_SCHEME,
      x402Versions: [1, 2],
      headers: {
        v1: {
          challenge: 'HTTP 402 JSON body { x402Version, error, accepts }',
          payment: X402_HEADERS.v1.payment,
          paymentResponse: X402_HEADERS.v1.paymentResponse,
        },
        v2: {
          challenge: X402_HEADERS.v2.paymentRequired,
          payment: X402_HEADERS.v2.payment,
          paymentResponse: X402_HEADERS.v2.paymentResponse,
        },
      },
      facilitatorApi: {
        settle: FACILITATOR_LANE.settleRoute,
        supported: FACILITATOR_LANE.supportedRoute,
        verifyRouteUsed: false as const,
      },
      services: PAID_VAULT_SERVICES.map((s) => serviceListing(s, lane)),
      feeSchedule: FEE_SCHEDULE,
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(lane),
    };
  });
