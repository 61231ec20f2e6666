/** GET /api/coil/provenance/{manifestHash}: the root-first chain of a stored manifest. */
import { z } from 'zod';
import { renderProvenance } from '../../../receipts/provenance';
import { provenanceOut } from '../../../receipts/provenance.schema';
import { nowIsoField, publicProcedure } from '../../init';
import { storedCoilsOf } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { manifestHashParam, manifestNotFound } from './manifest-hash';
import { toolsMeta } from './meta';

export const provenanceProcedure = publicProcedure
  .meta(toolsMeta('GET', '/coil/provenance/{manifestHash}', 'Provenance of a manifest: the root-first chain and its fork depth'))
  .input(z.object({ manifestHash: manifestHashParam, nowIso: nowIsoField }))
  .output(toolFields('provenance', { provenance: provenanceOut }))
  .query(async ({ ctx, input }) => {
    const lineage = await (await storedCoilsOf(ctx)).lineage(input.manifestHash);
    if (!lineage.has(input.manifestHash)) throw manifestNotFound('No receipt of this manifest is stored', 'issue a receipt first');
    return toolAnswer('provenance', ctx, { provenance: renderProvenance(input.manifestHash, (h) => lineage.get(h)) });
  });
