/** A share card (coil/share-card.ts) as answers show it. */
import { z } from 'zod';
import { memoSchema } from './manifest';

export const shareCardOut = z.object({
  cardVersion: z.string(),
  kind: z.literal('thesis'),
  title: z.string(),
  slug: z.string(),
  headline: z.string(),
  summary: z.string(),
  assets: z.array(z.object({ ticker: z.string(), weightBps: z.number(), weightPercent: z.string(), rationale: z.string() })),
  memo: memoSchema.nullable(),
  receiptId: z.string(),
  manifestHash: z.string(),
  shareUrl: z.string(),
  imageUrl: z.string(),
  altText: z.string(),
  disclaimer: z.string(),
});
