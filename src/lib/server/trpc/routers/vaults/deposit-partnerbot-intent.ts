import { z } from 'zod';
import { publicProcedure, rest, stampedOutput } from '../../init';
import {
  ackSource,
  buildSightedDepositPack,
  packRequestShape,
  prepareOutputShape,
  vaultInputErrorCode,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { slugInput } from './inputs';

export const depositPartnerbotIntentProcedure = publicProcedure
  .meta({
    family: 'vaults',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/vaults/{slug}/deposit-partnerbot-intent',
      'A Mode A deposit pack pinned to this vault (same as prepare-command)',
    ),
  })
  .input(z.object({ slug: slugInput, ...packRequestShape }).omit({ vaultId: true }))
  .output(stampedOutput(prepareOutputShape))
  .mutation(async ({ ctx, input }) => {
    const result = await buildSightedDepositPack(
      { vaultId: input.slug, amountUsdg: input.amountUsdg, receiver: input.receiver, expiresInSeconds: input.expiresInSeconds },
      ctx.config,
      ctx,
    );
    return { ...result, ...vaultChainBlocksFor(ctx.config, [ackSource(result.ackVerification)]) };
  });
