import { z } from 'zod';
import { createManifestInputSchema, createVaultManifest, manifestValidationSchema } from '../../../vaults/manifest';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultManifestSchema } from '../../../vaults/manifest';

export const createManifestProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_create_vault_manifest',
    openapi: rest(
      'POST',
      '/vaults/manifests/create',
      'Create a USDG vault manifest with the documented default fuses; returns it with its validation and hash',
    ),
  })
  .input(createManifestInputSchema.extend({ nowIso: nowIsoField }))
  .output(
    stampedOutput({ manifest: vaultManifestSchema, validation: manifestValidationSchema, manifestHash: z.string(), ...chainBlockFields }),
  )
  .mutation(({ ctx, input }) => {
    const { nowIso: _n, ...rest } = input;
    return { ...createVaultManifest(rest), ...vaultChainBlocksFor(ctx.config) };
  });
