import { z } from 'zod';
import { requireVault } from '../../../vaults/registry';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultListingSchema } from '../../../vaults/registry.schema';
import { slugInput } from './inputs';

export const vaultProcedure = publicProcedure
  .meta({ family: 'vaults', openapi: rest('GET', '/vaults/{slug}', 'One registered vault by slug or address') })
  .input(z.object({ slug: slugInput, nowIso: nowIsoField }))
  .output(stampedOutput({ vault: vaultListingSchema, ...chainBlockFields }))
  .query(({ ctx, input }) => {
    const vault = requireVault(input.slug, 'slug');
    return { vault, ...vaultChainBlocksFor(ctx.config) };
  });
