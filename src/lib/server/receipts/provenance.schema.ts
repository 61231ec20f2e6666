/** The provenance of a manifest (receipts/provenance.ts) as answers show it. */
import { z } from 'zod';

export const provenanceOut = z.object({
  manifestHash: z.string(),
  rootManifestHash: z.string(),
  chain: z.array(
    z.object({
      manifestHash: z.string(),
      parentManifestHash: z.string().nullable(),
      slug: z.string().nullable(),
      stored: z.boolean(),
      receiptIds: z.array(z.string()),
      depth: z.number().int(),
    }),
  ),
  forkDepth: z.number().int(),
  rootUnresolved: z.boolean(),
  cycleDetected: z.boolean(),
});
