/** The fuses of a risk audit (coil/audit.ts) as answers show them. */
import { z } from 'zod';
import { FUSE_KINDS } from './fuse-catalogue';

export const fuseUnitOut = z.enum(['seconds', 'bps', 'usd', 'percent', 'flag']);

export const auditedFuseOut = z.object({
  kind: z.enum(FUSE_KINDS),
  label: z.string(),
  unit: fuseUnitOut,
  limit: z.number().nullable(),
  source: z.string(),
  requiredForCapsule: z.boolean(),
});
