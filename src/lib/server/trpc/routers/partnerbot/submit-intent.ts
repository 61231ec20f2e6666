import { z } from 'zod';
import { depositPackSightings, vaultDepositJobRepository } from '../../../db/vault-deposit-job-repository';
import { checkModeBConfigGates, submitModeBIntent } from '../../../vaults/mode-b';
import { publicProcedure, rest, stampedOutput } from '../../init';
import {
  chainReaderFor,
  modeBSettingsFor,
  packRequestShape,
  packShape,
  vaultInputErrorCode,
  verificationShape,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { jobShape } from '../../../vaults/mode-b.schema';
import { chainBlockFields } from '../../../x402/lanes';

export const submitIntentProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/partnerbot/vault-deposit/submit-intent',
      "Mode B: submit one deposit prompt for the operator's own partner wallet",
    ),
  })
  // The lane's configuration gates come before the input is validated: a lane that is off
  // says so before it asks for the fields only it needs.
  .use(({ ctx, next }) => {
    checkModeBConfigGates(modeBSettingsFor(ctx.config));
    return next();
  })
  .input(
    z.object({
      ...packRequestShape,
      confirmPlanHash: z.string().max(128).describe('The planHash of the pack being confirmed'),
      packGeneratedAt: z.string().max(64).describe('The generatedAt of that pack'),
    }),
  )
  .output(
    stampedOutput({ job: jobShape, verification: verificationShape, complete: z.literal(false), pack: packShape, ...chainBlockFields }),
  )
  .mutation(async ({ ctx, input }) => {
    const out = await submitModeBIntent(input, {
      answerTime: ctx.answerTime,
      serverTime: ctx.serverTime,
      appOrigin: ctx.config.origin,
      chain: chainReaderFor(ctx.config),
      settings: modeBSettingsFor(ctx.config),
      store: vaultDepositJobRepository,
      sightings: depositPackSightings,
    });
    return { ...out, ...vaultChainBlocksFor(ctx.config) };
  });
