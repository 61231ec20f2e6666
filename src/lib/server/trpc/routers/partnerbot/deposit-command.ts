import { z } from 'zod';
import { buildDepositCommand } from '../../../vaults/deposit-pack';
import { ackVerificationShape, addressShape, modesShape } from '../../../vaults/pack-shapes';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { publicProcedure, rest, stampedOutput } from '../../init';
import {
  ackSource,
  bytes32Shape,
  depositPackDepsFor,
  packRequestShape,
  vaultInputErrorCode,
  vaultChainBlocksFor,
} from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const depositCommandProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    tool: 'svc_generate_partnerbot_deposit_command',
    inputErrorCode: vaultInputErrorCode,
    openapi: rest('POST', '/partnerbot/vault-deposit/command', 'The partnerbot deposit command alone (Mode A), with Mode C beside it'),
  })
  .input(z.object(packRequestShape))
  .output(
    stampedOutput({
      command: z.object({
        social: z.string(),
        venuePhrase: z.literal('on broker'),
        executor: z.literal('partner'),
        executionVerifiable: z.literal(false),
      }),
      vaultSlug: z.string(),
      vaultAddress: addressShape,
      amount: z.string(),
      amountUnits: z.string(),
      receiver: addressShape,
      ackHashes: z.object({ risk: bytes32Shape, jurisdiction: bytes32Shape }),
      planHash: z.string(),
      generatedAt: z.string(),
      expiresAt: z.string(),
      ackVerification: ackVerificationShape,
      depositLinkUrl: z.string(),
      modes: modesShape,
      completionRoute: z.string(),
      svcExecutesDeposit: z.literal(false),
      receipt: artifactReceiptOut,
      ...chainBlockFields,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const command = await buildDepositCommand(input, depositPackDepsFor(ctx.config, ctx.answerTime));
    return signedAnswer(ctx, {
      ...command,
      receipt: buildArtifactReceipt('vault_deposit_command', command, ctx.answerTime),
      ...vaultChainBlocksFor(ctx.config, [ackSource(command.ackVerification)]),
    });
  });
