/**
 * POST /api/agent/svc: a thesis turned into a StrategistResponse. Failures of the partner answer
 * 503/502 with `{ error, code, prompt }` (the prompt echoed; the output guard does not scan the
 * caller's own words). The generated Coil and its receipt are saved.
 */
import { z } from 'zod';
import { coilSchema, memoSchema } from '../../../coil/manifest';
import { buildReceipt, manifestHashOf } from '../../../receipts/receipt';
import { receiptLogOut } from '../../../receipts/log.schema';
import { receiptOut } from '../../../receipts/receipt.schema';
import { runStrategist, type StrategistRequest } from '../../../strategist';
import { providerMetaOut, strategistScoreOut } from '../../../strategist/strategist.schema';
import {
  basketContextSchema,
  correctionsSchema,
  STRATEGIST_MODES,
  thesisPromptSchema,
  thesisReadingSchema,
  userPreferencesSchema,
} from '../../../strategist/types';
import type { RequestContext } from '../../context';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { forkParentFor, keepReading, persistReceipt } from '../../procedure-kit/coil-store';
import { promptErrorCode } from '../../procedure-kit/input-error-codes';
import { strategistConfigOf } from '../../procedure-kit/strategist-config';

/**
 * The parent of a refined basket, resolved like every fork's (procedure-kit `forkParentFor`): a
 * complete Coil names its own hash, which must be a stored receipt of its slug you may see; a
 * partial context with a slug forks the newest of them. A context without a slug is no fork.
 */
async function parentOf(ctx: RequestContext, context: StrategistRequest['basketContext']): Promise<string | undefined> {
  if (!context?.slug) return undefined;
  const full = coilSchema.safeParse(context);
  return forkParentFor(
    ctx,
    { forkOf: context.slug, parentManifestHash: full.success ? manifestHashOf(full.data) : undefined },
    { forkOf: 'basketContext.slug', parentManifestHash: 'basketContext' },
  );
}

export const generateProcedure = publicProcedure
  .meta({
    family: 'strategist',
    inputErrorCode: (path, issue) => (path === 'prompt' ? promptErrorCode(issue) : 'INPUT_INVALID'),
    openapi: rest('POST', '/agent/svc', 'Turn a thesis into a Coil (StrategistResponse)', { tags: ['strategist'] }),
  })
  .input(
    z.object({
      prompt: thesisPromptSchema,
      mode: z.enum(STRATEGIST_MODES).optional(),
      basketContext: basketContextSchema.optional().describe('a partial manifest to refine'),
      userPreferences: userPreferencesSchema.optional(),
      corrections: correctionsSchema.optional(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      manifest: coilSchema,
      memo: memoSchema,
      riskSummary: z.string(),
      score: strategistScoreOut,
      providerMeta: providerMetaOut,
      disclaimers: z.array(z.string()),
      reading: thesisReadingSchema,
      plan: z.object({ compileOnly: z.literal(true), steps: z.array(z.string()) }).optional(),
      receipt: receiptOut,
      receiptLog: receiptLogOut,
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const request: StrategistRequest = {
      prompt: input.prompt,
      mode: input.mode,
      basketContext: input.basketContext,
      userPreferences: input.userPreferences,
      parentManifestHash: await parentOf(ctx, input.basketContext),
      corrections: input.corrections,
    };
    const response = await runStrategist(request, { config: strategistConfigOf(ctx.config), now: ctx.answerTime });
    const { receipt, receiptLog } = await persistReceipt(
      ctx,
      response.manifest,
      buildReceipt(response.manifest, 'coil_manifest', ctx.answerTime),
      {
        agentId: response.providerMeta.provider,
        asked: 'generated_coil',
      },
    );
    await keepReading(ctx, receipt, { thesis: input.prompt, reading: response.reading, corrections: input.corrections });
    return { ...response, receipt, receiptLog };
  });
