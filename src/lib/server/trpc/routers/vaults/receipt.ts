import { z } from 'zod';
import { SvcError } from '../../../errors';
import { validateReceiver } from '../../../vaults/deposit-pack';
import { manifestReceipt, packReceipt, settlementReceipt, vaultReceiptSchema } from '../../../vaults/receipts';
import { resolveRailAVault } from '../../../vaults/registry';
import { parseUsdgAmount } from '../../../vaults/amount';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import {
  bytes32Shape,
  chainReaderFor,
  packShape,
  vaultInputErrorCode,
  verificationShape,
  verificationSource,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultManifestSchema } from '../../../vaults/manifest';

export const receiptProcedure = publicProcedure
  .meta({
    family: 'vaults',
    tool: 'svc_generate_vault_receipt',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest(
      'POST',
      '/vaults/receipt',
      'A deterministic vault receipt: for a manifest, a deposit pack, or a deposit transaction verified on chain',
    ),
  })
  .input(
    z.object({
      manifest: vaultManifestSchema.optional(),
      pack: packShape.optional(),
      txHash: bytes32Shape.optional(),
      receiver: z.string().max(128).optional(),
      amountUsdg: z.string().max(64).optional(),
      vaultId: z.string().max(100).optional(),
      nowIso: nowIsoField,
    }),
  )
  .output(stampedOutput({ receipt: vaultReceiptSchema, verification: verificationShape.nullable(), ...chainBlockFields }))
  .mutation(async ({ ctx, input }) => {
    const given = [input.manifest, input.pack, input.txHash].filter((v) => v !== undefined).length;
    if (given !== 1) {
      throw new SvcError('INPUT_INVALID', 'Give exactly one of manifest, pack or txHash', {
        issues: [{ code: 'RECEIPT_SUBJECT', message: 'exactly one of manifest, pack, txHash' }],
      });
    }
    if (input.manifest)
      return { receipt: manifestReceipt(input.manifest, ctx.answerTime), verification: null, ...vaultChainBlocksFor(ctx.config) };
    if (input.pack) return { receipt: packReceipt(input.pack, ctx.answerTime), verification: null, ...vaultChainBlocksFor(ctx.config) };
    const vault = resolveRailAVault(input.vaultId);
    const receiver = input.receiver === undefined ? undefined : validateReceiver(input.receiver, vault);
    const amountUnits = input.amountUsdg === undefined ? undefined : parseUsdgAmount(input.amountUsdg).units;
    const out = await settlementReceipt(
      { txHash: input.txHash as `0x${string}`, vaultId: vault.slug, receiver, amountUnits },
      chainReaderFor(ctx.config),
      ctx.answerTime,
    );
    return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
  });
