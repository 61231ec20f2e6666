import { z } from 'zod';
import { compileBrokerPath } from '../../../autonomy/broker-path';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { shareCardOut } from '../../../coil/share-card.schema';
import { persistReceipt } from '../../procedure-kit/coil-store';
import { signedAnswer } from '../../procedure-kit/tool-answer';
import { shareUrlBaseField } from '../../procedure-kit/share-card';
import { pathReceiptOut } from '../../../receipts/artifact.schema';
import { meta, pathDeps } from './meta';
import { autonomyModeField, coilField, pathOptionsField } from './inputs';
import { autonomyFuseOut, commandPackOut, gateOut, instructionsOut } from './shapes';

export const compileBrokerPathProcedure = publicProcedure
  .meta(
    meta(
      'svc_compile_partnerbot_broker_path',
      '/partnerbot/compile-broker-path',
      'Compile the whole partnerbot → broker path: command pack, broker MCP instructions, paper runbook, gate, receipt, share card',
    ),
  )
  .input(
    z.object({
      coil: coilField,
      options: pathOptionsField,
      shareUrlBase: shareUrlBaseField,
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      generatedAt: z.string(),
      autonomyMode: autonomyModeField,
      gate: gateOut,
      liveReadiness: z
        .object({ verdict: z.enum(['ready', 'blocked']), missing: z.array(z.string()) })
        .describe('the gate as live_candidate'),
      fuses: z.array(autonomyFuseOut),
      fuseChecksum: z.string(),
      commandPack: commandPackOut,
      brokerMcpInstructions: instructionsOut,
      paperRunbook: z.object({
        runbookVersion: z.string(),
        mode: z.literal('paper'),
        steps: z.array(z.string()),
        liveOrderPossible: z.literal(false),
      }),
      receipt: pathReceiptOut,
      coilReceipt: receiptOut,
      coilReceiptLog: receiptLogOut,
      shareCard: shareCardOut,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const path = compileBrokerPath(input.coil, input.options ?? {}, {
      ...pathDeps(ctx),
      serviceOrigin: ctx.config.origin,
      shareUrlBase: input.shareUrlBase,
    });
    const { receipt: coilReceipt, receiptLog: coilReceiptLog } = await persistReceipt(ctx, input.coil, path.coilReceipt);
    return { generatedAt: ctx.answerTime.toISOString(), ...signedAnswer(ctx, { ...path, coilReceipt }), coilReceiptLog };
  });
