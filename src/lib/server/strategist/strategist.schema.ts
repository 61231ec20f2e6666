/** What the strategist (strategist/index.ts) answers, as answers show it. */
import { z } from 'zod';
import { correctionsSchema, thesisReadingSchema } from './types';

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

/**
 * A thesis kept with the receipt of the generation that read it (db/coil-reading-repository.ts).
 * `reader` is any version: a reading stored by an earlier reader is shown as it was read.
 */
export const keptReadingOut = z.object({
  receiptId: z.string().describe('the receipt of the generation that read this thesis'),
  thesis: z.string().describe('the thesis as written'),
  reading: thesisReadingSchema.extend({ reader: z.string() }),
  corrections: correctionsSchema.optional().describe('the corrections that generation applied, as sent'),
});
