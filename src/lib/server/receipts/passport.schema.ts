/** An agent passport (receipts/passport.ts) as answers show it. */
import { z } from 'zod';

export const passportOut = z.object({
  agentId: z.string(),
  agentKind: z.enum(['strategist', 'wallet']),
  policyVersion: z.literal('passport-policy-1.0.0'),
  reputation: z.number().int().min(0).max(1000),
  maxReputation: z.literal(1000),
  components: z.array(
    z.object({
      name: z.enum(['manifestsCoiled', 'forksReceived', 'averageScore', 'receipts']),
      value: z.number().nullable(),
      multiplier: z.number(),
      cap: z.number(),
      points: z.number(),
      capped: z.boolean(),
      description: z.string(),
    }),
  ),
  asOf: z.string(),
  basis: z.string(),
});
