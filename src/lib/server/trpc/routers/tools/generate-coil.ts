/** POST /api/tools/generate-coil (svc_generate_coil): a Coil from a thesis, saved with its receipt. */
import { z } from 'zod';
import { healthOut } from '../../../coil/health.schema';
import { coilSchema, executionModeSchema } from '../../../coil/manifest';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { generateCoil } from '../../../strategist';
import { providerMetaOut } from '../../../strategist/strategist.schema';
import { correctionsSchema, thesisPromptSchema, thesisReadingSchema } from '../../../strategist/types';
import { nowIsoField, publicProcedure } from '../../init';
import { issueReceipt, keepReading, ticketBuiltCoil, withForkParent } from '../../procedure-kit/coil-store';
import { strategistConfigOf } from '../../procedure-kit/strategist-config';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { toolsMeta } from './meta';

/** `providerMeta.fallbackReason` of svc_generate_coil over MCP, where the tools send nothing out (interface 4.9). */
const MCP_TRANSMITS_NOTHING =
  "MCP_TRANSMITS_NOTHING: over MCP no tool sends the caller's data to an outside party, so the local strategist answered and the partner was not asked";

export const generateCoilProcedure = publicProcedure
  .meta(toolsMeta('POST', '/tools/generate-coil', 'Generate a Coil from a thesis', 'svc_generate_coil'))
  .input(
    z.object({
      prompt: thesisPromptSchema,
      executionMode: executionModeSchema.optional(),
      corrections: correctionsSchema.optional(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    toolFields('generate-coil', {
      coil: coilSchema,
      health: healthOut,
      receipt: receiptOut,
      receiptLog: receiptLogOut,
      providerMeta: providerMetaOut,
      disclaimers: z.array(z.string()),
      reading: thesisReadingSchema,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const generated = await generateCoil(
      { prompt: input.prompt, executionMode: input.executionMode, corrections: input.corrections },
      {
        config: strategistConfigOf(ctx.config),
        now: ctx.answerTime,
        partnerNotAllowed: ctx.transmitsNothing ? MCP_TRANSMITS_NOTHING : undefined,
      },
    );
    const coil = await withForkParent(ctx, generated.coil);
    const { receipt, receiptLog } = await issueReceipt(ctx, coil, 'coil_manifest', {
      agentId: generated.providerMeta.provider,
      asked: 'generated_coil',
    });
    await ticketBuiltCoil(ctx, receipt);
    await keepReading(ctx, receipt, { thesis: input.prompt, reading: generated.reading, corrections: input.corrections });
    return toolAnswer('generate-coil', ctx, { ...generated, coil, receipt, receiptLog });
  });
