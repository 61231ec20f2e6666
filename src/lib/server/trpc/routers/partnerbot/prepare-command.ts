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

export const prepareCommandProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    tool: 'svc_prepare_partnerbot_vault_deposit',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/partnerbot/vault-deposit/prepare-command',
      'Build a Mode A vault deposit pack (approve + depositWithAcks calldata you sign yourself)',
    ),
  })
  .input(z.object(packRequestShape))
  .output(stampedOutput(prepareOutputShape))
  .mutation(async ({ ctx, input }) => {
    const result = await buildSightedDepositPack(input, ctx.config, ctx);
    return { ...result, ...vaultChainBlocksFor(ctx.config, [ackSource(result.ackVerification)]) };
  });
