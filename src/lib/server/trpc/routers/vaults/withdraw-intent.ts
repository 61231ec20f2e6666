import { z } from 'zod';
import { createWithdrawIntent } from '../../../vaults/intents';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { addressShape, chainReaderFor, gateShape, liveSource, vaultInputErrorCode, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { intentCallSchema } from '../../../vaults/intents.schema';
import { slugInput } from './inputs';

export const withdrawIntentProcedure = publicProcedure
  .meta({
    family: 'vaults',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/vaults/{slug}/withdraw-intent',
      'A withdraw intent (redeem calldata you sign yourself), refused while the deposit gate is closed',
    ),
  })
  .input(
    z.object({
      slug: slugInput,
      shares: z.string().max(80).describe('Share units (integer string)'),
      receiver: z.string().max(128),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      intent: z.object({
        intentVersion: z.string(),
        kind: z.literal('withdraw'),
        stage: z.literal('PREPARATION'),
        liveTransactionSent: z.literal(false),
        vaultSlug: z.string(),
        vaultAddress: addressShape,
        shares: z.string(),
        receiver: addressShape,
        owner: addressShape,
        function: z.string(),
        calls: z.array(intentCallSchema),
        generatedAt: z.string(),
      }),
      gate: gateShape,
      ...chainBlockFields,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const out = await createWithdrawIntent(
      { vaultId: input.slug, shares: input.shares, receiver: input.receiver },
      { now: ctx.answerTime, chain: chainReaderFor(ctx.config) },
    );
    return { ...out, ...vaultChainBlocksFor(ctx.config, liveSource('deposit gate', out.gate.checkedAt, true)) };
  });
