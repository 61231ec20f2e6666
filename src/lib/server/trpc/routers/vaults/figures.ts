import { z } from 'zod';
import { requireVault } from '../../../vaults/registry';
import { readVaultFigures, vaultFiguresSchema } from '../../../vaults/figures';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainReaderFor, liveSource, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { slugInput } from './inputs';

export const figuresProcedure = publicProcedure
  .meta({
    family: 'vaults',
    openapi: rest('GET', '/vaults/{slug}/figures', "A vault's total assets and share price, read live; what a deposit would get"),
  })
  .input(z.object({ slug: slugInput, nowIso: nowIsoField }))
  .output(stampedOutput({ figures: vaultFiguresSchema, ...chainBlockFields }))
  .query(async ({ ctx, input }) => {
    const vault = requireVault(input.slug, 'slug');
    const figures = await readVaultFigures(chainReaderFor(ctx.config), vault, ctx.serverTime);
    return { figures, ...vaultChainBlocksFor(ctx.config, liveSource('vault figures', figures.checkedAt, figures.chainIdVerified)) };
  });
