import { z } from 'zod';
import { createDepositIntent } from '../../../vaults/intents';
import { publicProcedure, rest, stampedOutput } from '../../init';
import {
  ackSource,
  addressShape,
  depositPackDepsFor,
  gateShape,
  liveSource,
  packRequestShape,
  packShape,
  vaultInputErrorCode,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { intentCallSchema } from '../../../vaults/intents.schema';
import { slugInput } from './inputs';

export const depositIntentProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_generate_vault_deposit_intent',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/vaults/{slug}/deposit-intent',
      'A deposit intent (PREPARATION stage), refused while the deposit gate is closed',
    ),
  })
  .input(z.object({ slug: slugInput, ...packRequestShape }).omit({ vaultId: true }))
  .output(
    stampedOutput({
      intent: z.object({
        intentVersion: z.string(),
        kind: z.literal('deposit'),
        stage: z.literal('PREPARATION'),
        liveTransactionSent: z.literal(false),
        vaultSlug: z.string(),
        vaultAddress: addressShape,
        planHash: z.string(),
        calls: z.array(intentCallSchema),
      }),
      gate: gateShape,
      pack: packShape,
      ...chainBlockFields,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const out = await createDepositIntent(
      { vaultId: input.slug, amountUsdg: input.amountUsdg, receiver: input.receiver, expiresInSeconds: input.expiresInSeconds },
      depositPackDepsFor(ctx.config, ctx.answerTime),
    );
    return {
      intent: out.intent,
      gate: out.gate,
      pack: out.result.pack,
      ...vaultChainBlocksFor(ctx.config, [...liveSource('deposit gate', out.gate.checkedAt, true), ackSource(out.result.ackVerification)]),
    };
  });
