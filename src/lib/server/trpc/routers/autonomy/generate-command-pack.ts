import { z } from 'zod';
import { generatePartnerbotCommandPack } from '../../../autonomy/broker-path';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { meta, pathDeps } from './meta';
import { coilField, pathOptionsField } from './inputs';
import { commandPackOut } from './shapes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const generateCommandPackProcedure = publicProcedure
  .meta(
    meta(
      'svc_generate_partnerbot_command_pack',
      '/partnerbot/generate-command-pack',
      'The partner command pack of a Coil: one command per stock or ETF token, each ending "on broker"',
    ),
  )
  .input(z.object({ coil: coilField, options: pathOptionsField, nowIso: nowIsoField }))
  .output(stampedOutput({ generatedAt: z.string(), commandPack: commandPackOut, receipt: artifactReceiptOut }))
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      generatedAt: ctx.answerTime.toISOString(),
      ...generatePartnerbotCommandPack(input.coil, input.options ?? {}, pathDeps(ctx)),
    }),
  );
