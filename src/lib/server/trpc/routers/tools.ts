/**
 * The tools family (spec 4.3): the nine Coil tools, plus provenance and the agent passport.
 * Each procedure parses, calls the domain function, persists the Coil and its receipt, and
 * shapes the answer; the rules live in src/lib/server/{coil,receipts,strategist}.
 */
import { z } from 'zod';
import { compileCapsule, requireValidCoil } from '../../coil/capsule';
import { riskAudit } from '../../coil/audit';
import { driftCheck } from '../../coil/drift';
import { scoreCoil } from '../../coil/health';
import { coilSchema, executionModeSchema, SHA256_HEX, type Coil } from '../../coil/manifest';
import { validateCoil } from '../../coil/validate';
import { loadLineage, passportStats } from '../../db/coil-repository';
import type { ErrorIssue } from '../../errors';
import { SvcError } from '../../errors';
import { computePassport, PASSPORT_COMPONENTS } from '../../receipts/passport';
import { renderProvenance } from '../../receipts/provenance';
import { buildReceipt, RECEIPT_KINDS, verifyReceipt, type Receipt, type ReceiptKind } from '../../receipts/receipt';
import { checksumAddress } from '../../registry';
import { generateCoil } from '../../strategist';
import { PROMPT_MAX_CHARS } from '../../strategist/types';
import { registerErrorStatuses } from '../error-map';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import type { RequestContext } from '../context';
import {
  auditedFuseOut,
  capsuleOut,
  coilOut,
  driftReportOut,
  healthOut,
  issueOut,
  passportOut,
  provenanceOut,
  providerMetaOut,
  receiptOut,
  shareCardOut,
  validationOut,
  verificationOut,
} from './coil-schemas';
import { persistReceipt, promptErrorCode, shareCardOrRefusal, strategistConfigOf } from './coil-shared';

registerErrorStatuses({
  RECEIPT_SHAPE: 400,
  PROMPT_TOO_LONG: 400,
  PREFERENCES_INFEASIBLE: 400,
  SHARE_CARD_REJECTED: 422,
  MANIFEST_NOT_FOUND: 404,
  RECEIPT_NOT_FOUND: 404,
});

/** Tools answer `COIL_SHAPE` for a broken Coil, `RECEIPT_SHAPE` for a broken receipt. */
function toolInputErrorCode(path: string, issue?: ErrorIssue): string {
  if (path === 'coil' || path.startsWith('coil.')) return 'COIL_SHAPE';
  if (path === 'receipt' || path.startsWith('receipt.')) return 'RECEIPT_SHAPE';
  if (path === 'prompt') return promptErrorCode(issue);
  return 'INPUT_INVALID';
}

const meta = (method: 'GET' | 'POST', path: `/${string}`, summary: string, description: string) => ({
  family: 'tools' as const,
  inputErrorCode: toolInputErrorCode,
  openapi: rest(method, path, summary, { description, tags: ['tools'] }),
});

const coilField = coilSchema.describe('A Coil (spec 2.3); a value that is not a Coil at all is 400 COIL_SHAPE');

const toolFields = <N extends string, T extends z.ZodRawShape>(tool: N, shape: T) =>
  stampedOutput({ tool: z.literal(tool), generatedAt: z.string(), ...shape });

/** Builds the receipt of a Coil at the request's clock, saves both and returns the receipt. */
async function issueReceipt(ctx: RequestContext, coil: Coil, kind: ReceiptKind, agentId: string | null = null): Promise<Receipt> {
  const receipt = buildReceipt(coil, kind, ctx.answerTime);
  await persistReceipt(ctx, coil, receipt, agentId);
  return receipt;
}

const COIL_MODES_DOC =
  'Coil modes: `paper` and `readiness-check` are planning modes (an address outside the registry is the warning UNKNOWN_ADDRESS); `brokerage-mcp-plan` and `live` are live modes (the error NONCANONICAL_ASSET). A paper Coil never sets liveExecutionAllowed.';

export const toolsRouter = router({
  generateCoil: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/generate-coil',
        'Generate a Coil from a thesis',
        `Runs the strategist (STRATEGIST_PROVIDER) on the thesis and returns a Coil that validates, its health, a coil_manifest receipt and the provider labels. Strategist failures in \`partner\` mode answer 503/502 \`{ error, code, prompt }\`. The Coil is saved with its receipt. ${COIL_MODES_DOC}`,
      ),
    )
    .input(z.object({ prompt: z.string().max(PROMPT_MAX_CHARS).describe('the thesis, at most 2000 characters; an empty or off-topic one gets the labelled default basket'), executionMode: executionModeSchema.optional(), nowIso: nowIsoField }))
    .output(toolFields('generate-coil', { coil: coilOut, health: healthOut, receipt: receiptOut, providerMeta: providerMetaOut, disclaimers: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const generated = await generateCoil({ prompt: input.prompt, executionMode: input.executionMode }, { config: strategistConfigOf(ctx.config), now: ctx.answerTime });
      const receipt = await issueReceipt(ctx, generated.coil, 'coil_manifest', generated.providerMeta.provider);
      return { tool: 'generate-coil' as const, generatedAt: ctx.answerTime.toISOString(), ...generated, receipt };
    }),

  validateCoil: publicProcedure
    .meta(meta('POST', '/tools/validate-coil', 'Validate a Coil (spec 2.4)', `An invalid Coil is 200 with issues (each with severity, code, message, path) and validationStatus valid, valid-with-warnings or invalid. A value that is not a Coil at all is 400 COIL_SHAPE. ${COIL_MODES_DOC}`))
    .input(z.object({ coil: coilField, nowIso: nowIsoField }))
    .output(toolFields('validate-coil', { validation: validationOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const validation = validateCoil(input.coil);
      const receipt = await issueReceipt(ctx, input.coil, 'validation');
      return { tool: 'validate-coil' as const, generatedAt: ctx.answerTime.toISOString(), validation, receipt };
    }),

  scoreCoil: publicProcedure
    .meta(meta('POST', '/tools/score-coil', 'Coil health 0 to 100', 'Structure and readiness only (validity 30, canonical assets 20, diversification 20, risk posture 15, documentation 15); never returns, prices or performance.'))
    .input(z.object({ coil: coilField, nowIso: nowIsoField }))
    .output(toolFields('score-coil', { health: healthOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const health = scoreCoil(input.coil);
      const receipt = await issueReceipt(ctx, input.coil, 'coil_manifest');
      return { tool: 'score-coil' as const, generatedAt: ctx.answerTime.toISOString(), health, receipt };
    }),

  compileCapsule: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/compile-capsule',
        'Compile a capsule from a valid, non-paper Coil',
        'Execution modes paper_only, preview_only, human_confirm, agentic_mcp_enabled (needs options.userAcknowledgedAgenticMode: true, else 422 CAPSULE_COMPILE with AGENTIC_ACK_REQUIRED). maxTotalNotionalUsd defaults to the Coil\'s maxTotalNotional fuse or 500 and may not exceed 10000 (422 NOTIONAL_CAP_EXCEEDED) or the Coil\'s own fuse. Missing required fuses get conservative defaults listed in fusesDefaulted. The capsule lists what a human must still confirm and never contains an order. Paper Coils: 422 CAPSULE_COMPILE (PAPER_COIL); invalid Coils: 422 COIL_INVALID.',
      ),
    )
    .input(
      z.object({
        coil: coilField,
        options: z
          .object({
            maxTotalNotionalUsd: z.number().positive().describe('USD, at most 10000'),
            userAcknowledgedAgenticMode: z.boolean(),
          })
          .partial()
          .optional(),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('compile-capsule', { capsule: capsuleOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const capsule = compileCapsule(input.coil, input.options ?? {});
      const receipt = await issueReceipt(ctx, input.coil, 'coil_manifest');
      return { tool: 'compile-capsule' as const, generatedAt: ctx.answerTime.toISOString(), capsule, receipt };
    }),

  riskAudit: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/risk-audit',
        'Audit the risk fuses of a Coil',
        'Fuses come from `fuses[]` and from the fields that imply them (risk.oracleStalenessSeconds, risk.maxSingleAssetWeightBps, risk.allowNonCanonicalAssets false, rebalancePolicy.maxSlippageBps, rebalancePolicy.maxDailyTurnoverBps). Returns the fuses, the kinds required for a capsule, the missing ones, issues (DUPLICATE_FUSE, FUSE_BOUNDS, FUSE_CONFLICT, MISSING_REQUIRED_FUSE, CONCENTRATION) and fuseChecksum = sha256(JCS([{kind, limit}] sorted by kind)). Issues a risk_fuse receipt.',
      ),
    )
    .input(z.object({ coil: coilField, nowIso: nowIsoField }))
    .output(
      toolFields('risk-audit', {
        fuses: z.array(auditedFuseOut),
        requiredForCapsule: z.array(z.string()),
        missingRequired: z.array(z.string()),
        issues: z.array(issueOut),
        fuseChecksum: z.string(),
        receipt: receiptOut,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const audit = riskAudit(input.coil);
      const receipt = await issueReceipt(ctx, input.coil, 'risk_fuse');
      return { tool: 'risk-audit' as const, generatedAt: ctx.answerTime.toISOString(), ...audit, receipt };
    }),

  driftCheck: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/drift-check',
        'Drift of current weights against a valid Coil (spec 2.7)',
        'driftBps = current - target (signed); an entry breaches when |driftBps| >= the Coil\'s rebalancePolicy.driftThresholdBps. A proposal (previews, human confirmation, three abort conditions, no notional, no quantity) appears only when breachCount > 0. Without currentWeightsBps there is no reading: entries carry null readings and nothing is invented. Symbols held outside the basket drift from a target of 0. Invalid Coils: 422 COIL_INVALID.',
      ),
    )
    .input(
      z.object({
        coil: coilField,
        currentWeightsBps: z.record(z.string().min(1).max(16), z.number().int().min(0).max(10_000)).optional().describe('symbol → integer bps'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('drift-check', { report: driftReportOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      requireValidCoil(input.coil);
      const receipt = await issueReceipt(ctx, input.coil, 'coil_manifest');
      const report = driftCheck({ coil: input.coil, coilId: receipt.coilId, manifestHash: receipt.manifestHash, currentWeightsBps: input.currentWeightsBps, now: ctx.answerTime });
      return { tool: 'drift-check' as const, generatedAt: ctx.answerTime.toISOString(), report, receipt };
    }),

  receipt: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/receipt',
        'Issue a deterministic receipt for a Coil (spec 2.5)',
        'kind: coil_manifest (default), validation or risk_fuse. manifestHash = sha256(RFC 8785 JCS of the Coil without createdAt, addresses checksummed); weightsChecksum = sha256(JCS of [lowercase address, weightBps] pairs sorted by address); receiptId = hrcpt_ + 32 hex of sha256(JCS({generatedAt, kind, manifestHash})). The same Coil, kind and nowIso give the same receipt; it is stored once per wallet. A fork carries parentManifestHash (from the Coil\'s parentManifestHash). Also returns the provenance chain from stored receipts.',
      ),
    )
    .input(z.object({ coil: coilField, kind: z.enum(RECEIPT_KINDS).optional(), nowIso: nowIsoField }))
    .output(toolFields('receipt', { receipt: receiptOut, provenance: provenanceOut }))
    .mutation(async ({ ctx, input }) => {
      const receipt = await issueReceipt(ctx, input.coil, input.kind ?? 'coil_manifest');
      const lineage = await loadLineage(receipt.manifestHash);
      return { tool: 'receipt' as const, generatedAt: ctx.answerTime.toISOString(), receipt, provenance: renderProvenance(receipt.manifestHash, (h) => lineage.get(h)) };
    }),

  shareCard: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/share-card',
        'A share card of a valid Coil: a thesis artifact, never a performance claim',
        'Title, assets and weights, memo, receipt id and disclaimer. The card is also served as an SVG image at GET /api/share-card/{receiptId}.svg (imageUrl). shareUrl = {shareUrlBase}/{receiptId}.svg, where shareUrlBase defaults to {origin}/api/share-card. A Coil whose texts read as a performance claim or as an execution claim is 422 SHARE_CARD_REJECTED (PERFORMANCE_CLAIM, EXECUTION_CLAIM_TEXT, naming the field); invalid Coils are 422 COIL_INVALID.',
      ),
    )
    .input(
      z.object({
        coil: coilField,
        shareUrlBase: z
          .url({ protocol: /^https?$/ })
          .max(500)
          .refine((u) => !/^https?:\/\/[^/]*@/i.test(u), 'a share link may not carry credentials')
          .optional()
          .describe('absolute http(s) URL the share link is built on'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('share-card', { card: shareCardOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      requireValidCoil(input.coil);
      const receipt = buildReceipt(input.coil, 'coil_manifest', ctx.answerTime);
      const card = shareCardOrRefusal({ coil: input.coil, receipt, serviceOrigin: ctx.config.origin, shareUrlBase: input.shareUrlBase });
      await persistReceipt(ctx, input.coil, receipt);
      return { tool: 'share-card' as const, generatedAt: ctx.answerTime.toISOString(), card, receipt };
    }),

  verifyCoil: publicProcedure
    .meta(
      meta(
        'POST',
        '/coil/verify',
        'Verify a receipt against a Coil',
        'Recomputes manifestHash, weightsChecksum, receiptId, coilId, parentManifestHash, validationStatus, fuseChecksum (risk_fuse receipts) and checks anchoring and liveOrderSent; ok is true only when nothing mismatches, and every mismatch is named.',
      ),
    )
    .input(z.object({ coil: coilField, receipt: z.record(z.string(), z.unknown()).describe('a receipt as issued (spec 2.5); any field may be wrong'), nowIso: nowIsoField }))
    .output(toolFields('verify-coil', { verification: verificationOut }))
    .mutation(({ ctx, input }) => ({ tool: 'verify-coil' as const, generatedAt: ctx.answerTime.toISOString(), verification: verifyReceipt(input.coil, input.receipt) })),

  provenance: publicProcedure
    .meta(
      meta(
        'GET',
        '/coil/provenance/{manifestHash}',
        'Provenance of a manifest: the root-first chain and its fork depth',
        'Rendered from the receipts stored in the database (so it survives restarts). forkDepth is 0 for a root. An ancestor named by a stored fork but never stored itself ends the chain with stored: false (rootUnresolved). 404 MANIFEST_NOT_FOUND when no receipt of the manifest is stored.',
      ),
    )
    .input(z.object({ manifestHash: z.string().regex(SHA256_HEX, 'expected 64 lowercase hex digits'), nowIso: nowIsoField }))
    .output(toolFields('provenance', { provenance: provenanceOut }))
    .query(async ({ ctx, input }) => {
      const lineage = await loadLineage(input.manifestHash);
      if (!lineage.has(input.manifestHash)) {
        throw new SvcError('MANIFEST_NOT_FOUND', 'No receipt of this manifest is stored', { issues: [{ code: 'MANIFEST_NOT_FOUND', message: 'issue a receipt first', path: 'manifestHash' }] });
      }
      return { tool: 'provenance' as const, generatedAt: ctx.answerTime.toISOString(), provenance: renderProvenance(input.manifestHash, (h) => lineage.get(h)) };
    }),

  passport: publicProcedure
    .meta(
      meta(
        'GET',
        '/agents/passport/{agentId}',
        'Agent passport: a 0 to 1000 reputation (policy passport-policy-1.0.0)',
        `The "agent" is whoever coiled the manifests: a strategist id (\`mock\` or \`partner\`, the providerMeta.provider of generate-coil and POST /api/agent/svc) or a wallet address (the Coils saved under that wallet's session). Points, each capped: ${Object.entries(PASSPORT_COMPONENTS)
          .map(([k, v]) => `${k} x${v.multiplier} capped at ${v.cap}`)
          .join('; ')} (caps sum to 1000). Manifests are counted once (distinct manifest hashes); forks are distinct stored manifests whose parentManifestHash is one of the agent's; average score is the mean Coil health (0-100) x2 (no Coil: null, 0 points); receipts are distinct receipt ids. Computed from stored Coils and receipts; never about returns.`,
      ),
    )
    .input(z.object({ agentId: z.string().regex(/^(?:mock|partner|0x[0-9a-fA-F]{40})$/, 'mock, partner or a wallet address'), nowIso: nowIsoField }))
    .output(toolFields('passport', { passport: passportOut }))
    .query(async ({ ctx, input }) => {
      const wallet = input.agentId.startsWith('0x');
      const id = wallet ? checksumAddress(input.agentId)! : input.agentId;
      const stats = await passportStats({ kind: wallet ? 'wallet' : 'strategist', id });
      return { tool: 'passport' as const, generatedAt: ctx.answerTime.toISOString(), passport: computePassport(id, wallet ? 'wallet' : 'strategist', stats, ctx.answerTime) };
    }),
});
