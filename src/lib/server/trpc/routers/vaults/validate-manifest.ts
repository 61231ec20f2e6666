import { z } from 'zod';
import { manifestValidationSchema, validateVaultManifest, vaultManifestHash } from '../../../vaults/manifest';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultManifestSchema } from '../../../vaults/manifest';

export const validateManifestProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_validate_usdg_vault',
    openapi: rest('POST', '/vaults/manifests/validate', 'Validate a USDG vault manifest: 200 with { valid, issues[] } even when invalid'),
  })
  .input(z.object({ manifest: vaultManifestSchema, nowIso: nowIsoField }))
  .output(stampedOutput({ validation: manifestValidationSchema, manifestHash: z.string(), ...chainBlockFields }))
  .mutation(({ ctx, input }) => ({
    validation: validateVaultManifest(input.manifest),
    manifestHash: vaultManifestHash(input.manifest),
    ...vaultChainBlocksFor(ctx.config),
  }));
