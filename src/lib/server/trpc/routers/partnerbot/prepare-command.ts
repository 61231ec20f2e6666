import { z } from 'zod';
import { publicProcedure, rest, stampedOutput } from '../../init';
import { packRequestShape, sightedDepositPackAnswer, sightedPrepareOutputShape, vaultInputErrorCode } from '../../vault-shapes';

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
  .output(stampedOutput(sightedPrepareOutputShape))
  .mutation(({ ctx, input }) => {
    return sightedDepositPackAnswer(input, ctx);
  });
