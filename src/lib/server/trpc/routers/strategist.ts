/**
 * The strategist family (interface 4.2): `GET /api/agent/svc` reports the provider, `POST` turns
 * a thesis into a StrategistResponse. Failures of the partner answer 503/502 with
 * `{ error, code, prompt }` (the prompt echoed; the output guard does not scan the caller's
 * own words). The generated Coil and its receipt are saved.
 */
import { z } from 'zod';
import { coilSchema } from '../../coil/manifest';
import { buildReceipt, manifestHashOf } from '../../receipts/receipt';
import { runStrategist, strategistStatus, type StrategistRequest } from '../../strategist';
import {
  basketContextSchema,
  STRATEGIST_MODES,
  thesisPromptSchema,
  thesisReadingSchema,
  userPreferencesSchema,
} from '../../strategist/types';
import { memoSchema } from '../../coil/manifest';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { coilOut, providerMetaOut, receiptOut, strategistScoreOut } from './coil-schemas';
import type { RequestContext } from '../context';
import { forkParentFor, persistReceipt, promptErrorCode, strategistConfigOf } from './coil-shared';

const FAILURE_DOC =
  'Failures of the partner (STRATEGIST_PROVIDER=partner) answer `{ error, code, prompt }`: 503 PARTNER_NOT_CONFIGURED; 502 PARTNER_HTTP_ERROR, PARTNER_TIMEOUT, PARTNER_INVALID_OUTPUT, GUARDRAIL_REJECTED (an execution or performance claim, or a non-canonical asset). With partner_or_mock the local strategist answers instead, with providerMeta.usedFallback true and a fallbackReason.';

/**
 * The parent of a refined basket, resolved like every fork's (coil-shared `forkParentFor`): a
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

export const strategistRouter = router({
  status: publicProcedure
    .meta({
      family: 'strategist',
      openapi: rest('GET', '/agent/svc', 'Strategist provider status', {
        description:
          'aiProvider is the provider that would answer now (mock or partner), requested is STRATEGIST_PROVIDER, partnerConfigured says whether PARTNER_API_URL and PARTNER_API_KEY are set (never their values), planningOnly is always true.',
        tags: ['strategist'],
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        aiProvider: z.enum(['mock', 'partner']),
        requested: z.enum(['mock', 'partner', 'partner_or_mock']),
        partnerConfigured: z.boolean(),
        planningOnly: z.literal(true),
        fallbackToMock: z.boolean(),
        disclaimers: z.array(z.string()),
      }),
    )
    .query(({ ctx }) => strategistStatus(strategistConfigOf(ctx.config))),

  generate: publicProcedure
    .meta({
      family: 'strategist',
      inputErrorCode: (path, issue) => (path === 'prompt' ? promptErrorCode(issue) : 'INPUT_INVALID'),
      openapi: rest('POST', '/agent/svc', 'Turn a thesis into a Coil (StrategistResponse)', {
        description: `mode: \`paper\` gives a paper Coil (executionMode paper_only, liveExecutionAllowed false); \`brokerage-mcp-plan\` adds plan.steps a user's own brokerage MCP could follow (compile-only); omitted, the readiness-check planner answers (Coil mode readiness-check). basketContext is refined, not replaced: with a slug the result forks it (forkOf = its slug; parentManifestHash = the manifest hash of a complete Coil, which must be a stored receipt of that slug you may see, else the newest such receipt; 422 FORK_PARENT_NOT_FOUND / FORK_PARENT_MISMATCH otherwise, never a silent root). An empty or whitespace-only prompt is 400 PROMPT_REQUIRED. userPreferences.maxSingleAssetWeightBps bounds every weight (400 PREFERENCES_INFEASIBLE below 667 bps); riskTolerance shapes concentration (without it, the thesis's risk words set it). \`reading\` says how the thesis was read: matched words, included, excluded, pinned weights, stance, risk words, words not understood; the partner's basket is held to it (one that holds an excluded asset or moves a pinned weight is GUARDRAIL_REJECTED). A thesis that excludes so much that no basket can hold what is left is 422 THESIS_NOT_EXPRESSIBLE. The same input and nowIso give a byte-identical response. The Coil and a coil_manifest receipt are saved; the receipt is returned too. ${FAILURE_DOC}`,
        tags: ['strategist'],
      }),
    })
    .input(
      z.object({
        prompt: thesisPromptSchema,
        mode: z.enum(STRATEGIST_MODES).optional(),
        basketContext: basketContextSchema.optional().describe('a partial manifest to refine'),
        userPreferences: userPreferencesSchema.optional(),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        manifest: coilOut,
        memo: memoSchema,
        riskSummary: z.string(),
        score: strategistScoreOut,
        providerMeta: providerMetaOut,
        disclaimers: z.array(z.string()),
        reading: thesisReadingSchema,
        plan: z.object({ compileOnly: z.literal(true), steps: z.array(z.string()) }).optional(),
        receipt: receiptOut,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const request: StrategistRequest = {
        prompt: input.prompt,
        mode: input.mode,
        basketContext: input.basketContext,
        userPreferences: input.userPreferences,
        parentManifestHash: await parentOf(ctx, input.basketContext),
      };
      const response = await runStrategist(request, { config: strategistConfigOf(ctx.config), now: ctx.answerTime });
      const receipt = buildReceipt(response.manifest, 'coil_manifest', ctx.answerTime);
      await persistReceipt(ctx, response.manifest, receipt, response.providerMeta.provider);
      return { ...response, receipt };
    }),
});
