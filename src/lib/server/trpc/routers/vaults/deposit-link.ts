import { z } from 'zod';
import { buildDepositLink } from '../../../vaults/deposit-link';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { ackSource, depositPackDepsFor, prepareOutputShape, vaultInputErrorCode, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { ackTextSchema, vaultListingSchema } from '../../../vaults/registry.schema';
import { slugInput } from './inputs';

export const depositLinkProcedure = publicProcedure
  .meta({
    family: 'vaults',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'GET',
      '/vaults/{slug}/deposit-link',
      'Vault identity, the required ack texts with their keccak256 hashes and the deposit widget link',
    ),
  })
  .input(
    z.object({ slug: slugInput, amount: z.string().max(64).optional(), receiver: z.string().max(128).optional(), nowIso: nowIsoField }),
  )
  .output(
    stampedOutput({
      vault: vaultListingSchema,
      ackTexts: z.array(ackTextSchema),
      depositFunction: z.string(),
      depositLinkUrl: z.string(),
      full: z.boolean(),
      prepared: z.object(prepareOutputShape).omit({ vaultChain: true, x402PaymentChain: true, sourceVerification: true }).nullable(),
      ...chainBlockFields,
    }),
  )
  .query(async ({ ctx, input }) => {
    const link = await buildDepositLink(input, depositPackDepsFor(ctx.config, ctx.answerTime));
    return { ...link, ...vaultChainBlocksFor(ctx.config, link.prepared ? [ackSource(link.prepared.ackVerification)] : []) };
  });
