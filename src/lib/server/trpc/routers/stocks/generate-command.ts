import { z } from 'zod';
import { commandPackSchema } from '../../../stocks/command-pack';
import { generateStockCommand } from '../../../stocks/generate';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { stockIntentInputErrorCode, stockIntentInputSchema, stockIntentSchema } from '../../../stocks/intent';
import { hardFlagFields } from '../../../stocks/plan';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const generateCommandProcedure = publicProcedure
  .meta({
    family: 'stocks',
    tool: 'svc_generate_partner_stock_token_command',
    inputErrorCode: stockIntentInputErrorCode,
    openapi: rest(
      'POST',
      '/stocks/generate-partner-command',
      'The partner command of a stock-trade intent, and nothing else: no plan is recorded, nobody is contacted',
    ),
  })
  .input(z.object({ intent: stockIntentInputSchema, nowIso: nowIsoField }))
  .output(
    stampedOutput({
      command: z.string(),
      commandPack: commandPackSchema,
      intent: stockIntentSchema,
      recorded: z.literal(false),
      partnerContacted: z.literal(false),
      ...hardFlagFields,
      receipt: artifactReceiptOut,
      generatedAt: z.string(),
    }),
  )
  .mutation(({ input, ctx }) => {
    const generated = generateStockCommand(input.intent, ctx.config);
    return signedAnswer(ctx, {
      ...generated,
      receipt: buildArtifactReceipt('stock_command', generated, ctx.answerTime),
      generatedAt: ctx.answerTime.toISOString(),
    });
  });
