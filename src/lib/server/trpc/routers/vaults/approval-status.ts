import { z } from 'zod';
import { validateReceiver } from '../../../vaults/deposit-pack';
import { resolveRailAVault } from '../../../vaults/registry';
import { approvalVerificationSchema, verifyDepositApproval } from '../../../vaults/deposit-progress';
import { parseUsdgAmount } from '../../../vaults/amount';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { bytes32Shape, chainReaderFor, liveSource, vaultInputErrorCode, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { slugInput } from './inputs';

export const approvalStatusProcedure = publicProcedure
  .meta({
    family: 'vaults',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest('GET', '/vaults/{slug}/approval-status/{txHash}', 'Whether an approval transaction is proven on chain'),
  })
  .input(
    z.object({
      slug: slugInput,
      txHash: bytes32Shape,
      owner: z.string().max(128).describe('The depositor whose USDG the approval concerns'),
      amount: z.string().max(64).describe('The deposit amount (decimal USDG) the approval must cover'),
      nowIso: nowIsoField,
    }),
  )
  .output(stampedOutput({ verification: approvalVerificationSchema, ...chainBlockFields }))
  .query(async ({ ctx, input }) => {
    const vault = resolveRailAVault(input.slug);
    const owner = validateReceiver(input.owner, vault, 'owner');
    const amountUnits = parseUsdgAmount(input.amount, 'amount').units;
    const verification = await verifyDepositApproval(
      chainReaderFor(ctx.config),
      input.txHash as `0x${string}`,
      { vault, owner, amountUnits },
      ctx.serverTime,
    );
    return {
      verification,
      ...vaultChainBlocksFor(ctx.config, liveSource('approval receipt', verification.checkedAt, verification.chainIdVerified)),
    };
  });
