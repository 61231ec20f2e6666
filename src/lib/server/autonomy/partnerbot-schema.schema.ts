/** The fields of the autonomy path's schema as `GET /api/partnerbot/schema` answers it (partnerbotSchema). */
import { z } from 'zod';

export const partnerbotSchemaFields = {
  schemaVersion: z.string(),
  generatedAt: z.string(),
  routes: z.array(z.object({ method: z.string(), path: z.string(), workflow: z.string(), railId: z.string().nullable() })),
  autonomyModes: z.array(z.object({ mode: z.enum(['paper', 'preview', 'live_candidate']), default: z.boolean(), meaning: z.string() })),
  executionModeBounds: z
    .array(z.object({ executionMode: z.string(), highestAutonomyMode: z.enum(['paper', 'preview', 'live_candidate']) }))
    .describe('the highest autonomy mode each Coil executionMode allows: a path never goes further than its Coil'),
  modes: z.array(
    z.object({
      mode: z.enum(['A', 'B', 'C']),
      title: z.string(),
      description: z.string(),
      envGates: z.array(z.string()).describe('names of the environment gates, never their values'),
      refusalCodes: z.array(z.string()),
    }),
  ),
  mandatoryFuses: z
    .array(
      z.object({
        kind: z.string(),
        label: z.string(),
        unit: z.string(),
        min: z.number().nullable(),
        max: z.number().nullable(),
        requiredForCapsule: z.boolean(),
        widening: z.string(),
      }),
    )
    .describe('the mandatory autonomy fuses: POST /api/partnerbot/validate-autonomy applies exactly this list, with no defaults'),
  liveAutonomyAcknowledgment: z.object({
    description: z.string(),
    fields: z.array(z.object({ field: z.string(), statement: z.string(), type: z.literal('boolean'), mustBe: z.literal(true) })),
    timestampField: z.literal('acknowledgedAt'),
    maxAgeSeconds: z.number().int(),
    futureSkewSeconds: z.number().int(),
  }),
  x402CallPlan: z.object({
    lane: z.enum(['facilitator', 'partnerCloud']),
    laneReason: z.string(),
    settlesHere: z.boolean(),
    paymentChain: z.string(),
    chainId: z.number().int(),
    asset: z.string(),
    steps: z.array(z.string()),
    services: z.array(
      z.object({
        serviceName: z.string(),
        title: z.string(),
        route: z.string(),
        requirementsRoute: z.string(),
        priceUnits: z.string().describe('USDG 6-decimal units'),
        priceUsdg: z.string(),
        freeRoute: z.string().nullable(),
      }),
    ),
  }),
  truthRules: z.array(z.string()),
};
