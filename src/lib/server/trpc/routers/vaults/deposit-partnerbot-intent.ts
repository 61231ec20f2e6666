import { z } from 'zod';
import { publicProcedure, rest, stampedOutput } from '../../init';
import { packRequestShape, sightedDepositPackAnswer, sightedPrepareOutputShape, vaultInputErrorCode } from '../../vault-shapes';
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
  .output(stampedOutput(sightedPrepareOutputShape))
  .mutation(({ ctx, input }) => {
    const { slug, amountUsdg, receiver, expiresInSeconds } = input;
    return sightedDepositPackAnswer({ vaultId: slug, amountUsdg, receiver, expiresInSeconds }, ctx);
  });
