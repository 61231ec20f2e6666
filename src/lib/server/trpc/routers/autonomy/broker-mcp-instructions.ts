import { z } from 'zod';
import { generateBrokerMcpInstructions } from '../../../autonomy/broker-path';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { pathReceiptOut } from '../../../receipts/artifact.schema';
import { meta, pathDeps } from './meta';
import { coilField, pathOptionsField } from './inputs';
import { instructionsOut } from './shapes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const brokerMcpInstructionsProcedure = publicProcedure
  .meta(
    meta(
      'svc_generate_broker_mcp_instructions',
      '/partnerbot/broker-mcp-instructions',
      "The broker MCP instruction pack alone: what a user's own broker-MCP agent follows",
    ),
  )
  .input(z.object({ coil: coilField, options: pathOptionsField, nowIso: nowIsoField }))
  .output(stampedOutput({ generatedAt: z.string(), instructions: instructionsOut, receipt: pathReceiptOut }))
  .mutation(({ ctx, input }) =>
    signedAnswer(ctx, {
      generatedAt: ctx.answerTime.toISOString(),
      ...generateBrokerMcpInstructions(input.coil, input.options ?? {}, pathDeps(ctx)),
    }),
  );
