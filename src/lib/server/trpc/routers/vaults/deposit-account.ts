import { z } from 'zod';
import { validateReceiver } from '../../../vaults/deposit-pack';
import { resolveRailAVault } from '../../../vaults/registry';
import { depositAccountSchema, readDepositAccount } from '../../../vaults/deposit-progress';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainReaderFor, liveSource, vaultInputErrorCode, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { slugInput } from './inputs';

export const depositAccountProcedure = publicProcedure
  .meta({
    family: 'vaults',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest('GET', '/vaults/{slug}/deposit-account', "A wallet's USDG balance and its allowance for the vault, read live"),
  })
  .input(
    z.object({
      slug: slugInput,
      owner: z.string().max(128).describe('The depositor (the receiver of the deposit)'),
      nowIso: nowIsoField,
    }),
  )
  .output(stampedOutput({ account: depositAccountSchema, ...chainBlockFields }))
  .query(async ({ ctx, input }) => {
    const vault = resolveRailAVault(input.slug);
    const owner = validateReceiver(input.owner, vault, 'owner');
    const account = await readDepositAccount(chainReaderFor(ctx.config), vault, owner, ctx.serverTime);
    return { account, ...vaultChainBlocksFor(ctx.config, liveSource('deposit account', account.checkedAt, account.chainIdVerified)) };
  });
