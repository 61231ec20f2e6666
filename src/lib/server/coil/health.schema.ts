/** The health of a Coil (coil/health.ts) as answers show it. */
import { z } from 'zod';
import { HEALTH_COMPONENTS } from './health';

export const healthOut = z.object({
  total: z.number().int().min(0).max(100),
  healthVersion: z.string(),
  basis: z.literal('structure_and_readiness_only'),
  components: z.array(z.object({ name: z.enum(HEALTH_COMPONENTS), points: z.number(), maxPoints: z.number(), explanation: z.string() })),
  explanation: z.string(),
});
