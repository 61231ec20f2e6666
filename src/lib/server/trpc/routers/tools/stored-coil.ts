/** GET /api/coil/manifests/{manifestHash}: a stored Coil with its health, stored receipts and provenance. */
import { z } from 'zod';
import { scoreCoil } from '../../../coil/health';
import { healthOut } from '../../../coil/health.schema';
import { coilSchema } from '../../../coil/manifest';
import { provenanceOut } from '../../../receipts/provenance.schema';
import { renderProvenance } from '../../../receipts/provenance';
import type { StoredReceipt } from '../../../db/coil-repository';
import { receiptOut } from '../../../receipts/receipt.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { readingsOfCaller, storedCoilsOf } from '../../procedure-kit/coil-store';
import { keptReadingOut } from '../../../strategist/strategist.schema';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { manifestHashParam, manifestNotFound } from './manifest-hash';
import { toolsMeta } from './meta';

/** How many stored receipts the stored-Coil route returns. */
const STORED_COIL_RECEIPTS = 20;

export const storedCoilProcedure = publicProcedure
  .meta({
    ...toolsMeta(
      'GET',
      '/coil/manifests/{manifestHash}',
      "A stored Coil by its manifest hash, with its health, stored receipts, provenance and the caller's own theses of it",
    ),
    // The caller's own thesis, read back: their words, not statements of the service.
    callerPaths: ['readings'],
  })
  .input(z.object({ manifestHash: manifestHashParam, nowIso: nowIsoField }))
  .output(
    toolFields('stored-coil', {
      manifestHash: z.string(),
      coiledBy: z
        .array(z.enum(['mock', 'partner']))
        .describe(
          "the strategists that produced this manifest (mock: the local strategist, partner: the partner's agent); empty for a Coil a caller supplied, such as a fork",
        ),
      coil: coilSchema,
      health: healthOut,
      receipts: z.array(receiptOut),
      provenance: provenanceOut,
      readings: z
        .array(keptReadingOut)
        .describe(
          "the caller's own theses that generated this Coil and how each was read, newest first: those of the session's wallet, or of this browser (its claim cookie) when built without one; empty for anyone else (docs/visibility.md#the-thesis-and-its-reading)",
        ),
    }),
  )
  .query(async ({ ctx, input }) => {
    const rows = await storedCoilsOf(ctx);
    const stored = coilSchema.safeParse(await rows.coil(input.manifestHash));
    if (!stored.success) throw manifestNotFound('No Coil with this manifest hash is stored', 'generate, validate or receipt a Coil first');
    const [lineage, strategists, readings] = await Promise.all([
      rows.lineage(input.manifestHash),
      rows.coilingStrategists(input.manifestHash),
      readingsOfCaller(ctx, input.manifestHash),
    ]);
    const receiptIds = lineage.get(input.manifestHash)?.receiptIds.slice(0, STORED_COIL_RECEIPTS) ?? [];
    const receipts = (await Promise.all(receiptIds.map((id) => rows.receipt(id)))).filter((r): r is StoredReceipt => r !== undefined);
    return toolAnswer('stored-coil', ctx, {
      manifestHash: input.manifestHash,
      coiledBy: strategists.filter((s): s is 'mock' | 'partner' => s === 'mock' || s === 'partner'),
      coil: stored.data,
      health: scoreCoil(stored.data),
      receipts,
      provenance: renderProvenance(input.manifestHash, (h) => lineage.get(h)),
      readings,
    });
  });
