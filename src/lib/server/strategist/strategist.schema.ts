/** What the strategist (strategist/index.ts) answers, as answers show it. */
import { z } from 'zod';

export const providerMetaOut = z.object({
  provider: z.enum(['mock', 'partner']),
  requested: z.enum(['mock', 'partner', 'partner_or_mock']),
  usedFallback: z.boolean(),
  fallbackReason: z.string().optional(),
});

export const strategistScoreOut = z.object({
  total: z.number().int().min(0).max(100),
  explanation: z.string(),
  validity: z.number(),
  canonicalAssets: z.number(),
  diversification: z.number(),
  riskPosture: z.number(),
  documentation: z.number(),
});

/** The fields of the provider status (`strategistStatus`; the answer adds the invariants). */
export const strategistStatusFields = {
  aiProvider: z.enum(['mock', 'partner']),
  requested: z.enum(['mock', 'partner', 'partner_or_mock']),
  partnerConfigured: z.boolean(),
  planningOnly: z.literal(true),
  fallbackToMock: z.boolean(),
  disclaimers: z.array(z.string()),
};
