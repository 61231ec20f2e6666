/**
 * The tools family (interface 4.3): the nine Coil tools, plus provenance and the agent passport.
 * Each procedure parses, calls the domain function, persists the Coil and its receipt, and
 * shapes the answer; the rules live in src/lib/server/{coil,receipts,strategist}.
 */
import { storedShareCard, ticketBuiltCoil } from './coil-shared';
import { z } from 'zod';
import { compileCapsule, requireValidCoil } from '../../coil/capsule';
import { riskAudit } from '../../coil/audit';
import { driftCheck } from '../../coil/drift';
import { scoreCoil } from '../../coil/health';
import { coilSchema, executionModeSchema, HEX_ADDRESS, SHA256_HEX, type Coil } from '../../coil/manifest';
import { validateCoil } from '../../coil/validate';
import { SvcError } from '../../errors';
import { computePassport, PASSPORT_COMPONENTS } from '../../receipts/passport';
import { renderProvenance } from '../../receipts/provenance';
import { buildReceipt, RECEIPT_KINDS, verifyReceipt, type Receipt, type ReceiptKind } from '../../receipts/receipt';
import { checksumAddress } from '../../registry';
import { explainOraclePolicy } from '../../registry/oracle-policy';
import { ORACLE_POLICY_VERSION } from '../../registry';
import { parseIsoInstant } from '../../clock';
import { buildArtifactReceipt, verifyArtifactReceipt } from '../../receipts/artifact';
import { chainAddressField } from '../../registry/symbol-space';
import { artifactReceiptOut, artifactVerificationOut, receiptInput } from './receipt-shapes';
import type { McpToolName } from '../../registry/agents';
import { generateCoil } from '../../strategist';
import { thesisPromptSchema, thesisReadingSchema } from '../../strategist/types';
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
import {
  persistReceipt,
  shareCardOrRefusal,
  shareUrlBaseField,
  storedCoilsOf,
  strategistConfigOf,
  toolInputErrorCode,
  withForkParent,
} from './coil-shared';
import { oraclePolicyOut, priceReadingOut } from './oracle-shapes';
import { publishedKeysOf } from '../service-keys';

/** The MCP tool (interface 4.9) each tools route backs; provenance and the passport back none. */
const TOOL_OF_PATH: Readonly<Record<string, McpToolName>> = {
  '/tools/generate-coil': 'svc_generate_coil',
  '/tools/validate-coil': 'svc_validate_coil',
  '/tools/score-coil': 'svc_score_coil',
  '/tools/compile-capsule': 'svc_compile_broker_capsule',
  '/tools/risk-audit': 'svc_risk_audit',
  '/tools/drift-check': 'svc_drift_check',
  '/tools/receipt': 'svc_create_receipt',
  '/tools/share-card': 'svc_export_share_card',
  '/tools/oracle-policy': 'svc_explain_oracle_policy',
  '/coil/verify': 'svc_verify_receipt',
};

const meta = (method: 'GET' | 'POST', path: `/${string}`, summary: string, description: string) => ({
  family: 'tools' as const,
  ...(TOOL_OF_PATH[path] ? { tool: TOOL_OF_PATH[path] } : {}),
  inputErrorCode: toolInputErrorCode,
  openapi: rest(method, path, summary, { description, tags: ['tools'] }),
});

const FORK_DOC =
  "A fork (forkOf set) gets its parent from the stored receipts you may see (those under no wallet, and your own wallet's): parentManifestHash, when absent, is stamped with the newest receipt of the forkOf slug, and when given must be the manifest of one of them (422 FORK_PARENT_MISMATCH); a forkOf with no such receipt is 422 FORK_PARENT_NOT_FOUND, never a root. The receipt fingerprints the Coil with its parent.";

/** The meta of a route that issues a receipt: its description also states how a fork's parent is resolved. */
const receiptMeta = (method: 'GET' | 'POST', path: `/${string}`, summary: string, description: string) =>
  meta(method, path, summary, `${description} ${FORK_DOC}`);

const coilField = coilSchema.describe('A Coil; a value that is not a Coil at all is 400 COIL_SHAPE');

const toolFields = <N extends string, T extends z.ZodRawShape>(tool: N, shape: T) =>
  stampedOutput({ tool: z.literal(tool), generatedAt: z.string(), ...shape });

/**
 * Builds the receipt of a Coil at the request's clock, saves both and returns the receipt.
 * `coil` has passed `withForkParent` (every tool resolves a fork's parent before any work).
 */
async function issueReceipt(ctx: RequestContext, coil: Coil, kind: ReceiptKind, agentId: string | null = null): Promise<Receipt> {
  const receipt = buildReceipt(coil, kind, ctx.answerTime);
  await persistReceipt(ctx, coil, receipt, agentId);
  return receipt;
}

/** `providerMeta.fallbackReason` of svc_generate_coil over MCP, where the tools send nothing out (interface 4.9). */
const MCP_TRANSMITS_NOTHING =
  "MCP_TRANSMITS_NOTHING: over MCP no tool sends the caller's data to an outside party, so the local strategist answered and the partner was not asked";

/** How many stored receipts the stored-Coil route returns. */
const STORED_COIL_RECEIPTS = 20;

const COIL_MODES_DOC =
  'Coil modes: `paper` and `readiness-check` are planning modes (an address outside the registry is the warning UNKNOWN_ADDRESS); `brokerage-mcp-plan` and `live` are live modes (the error NONCANONICAL_ASSET). A paper Coil never sets liveExecutionAllowed.';

export const toolsRouter = router({
  generateCoil: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/generate-coil',
        'Generate a Coil from a thesis',
        `Runs the strategist (STRATEGIST_PROVIDER) on the thesis and returns a Coil that validates, its health, a coil_manifest receipt, the provider labels and \`reading\` (how the thesis was read: matched words, included, excluded, pinned weights, stance, risk words, words not understood). A thesis that excludes so much that no basket can hold what is left is 422 THESIS_NOT_EXPRESSIBLE. Strategist failures in \`partner\` mode answer 503/502 \`{ error, code, prompt }\`. As the MCP tool svc_generate_coil it never asks the partner (MCP tools send nothing out): the local strategist answers, with providerMeta.usedFallback true and fallbackReason MCP_TRANSMITS_NOTHING unless mock was requested. The Coil is saved with its receipt. ${COIL_MODES_DOC}`,
      ),
    )
    .input(z.object({ prompt: thesisPromptSchema, executionMode: executionModeSchema.optional(), nowIso: nowIsoField }))
    .output(
      toolFields('generate-coil', {
        coil: coilOut,
        health: healthOut,
        receipt: receiptOut,
        providerMeta: providerMetaOut,
        disclaimers: z.array(z.string()),
        reading: thesisReadingSchema,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const generated = await generateCoil(
        { prompt: input.prompt, executionMode: input.executionMode },
        {
          config: strategistConfigOf(ctx.config),
          now: ctx.answerTime,
          partnerNotAllowed: ctx.transmitsNothing ? MCP_TRANSMITS_NOTHING : undefined,
        },
      );
      const coil = await withForkParent(ctx, generated.coil);
      const receipt = await issueReceipt(ctx, coil, 'coil_manifest', generated.providerMeta.provider);
      await ticketBuiltCoil(ctx, receipt);
      return { tool: 'generate-coil' as const, generatedAt: ctx.answerTime.toISOString(), ...generated, coil, receipt };
    }),

  validateCoil: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/validate-coil',
        'Validate a Coil',
        `An invalid Coil is 200 with issues (each with severity, code, message, path) and validationStatus valid, valid-with-warnings or invalid. A value that is not a Coil at all is 400 COIL_SHAPE. ${COIL_MODES_DOC}`,
      ),
    )
    .input(z.object({ coil: coilField, nowIso: nowIsoField }))
    .output(toolFields('validate-coil', { validation: validationOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const coil = await withForkParent(ctx, input.coil);
      const validation = validateCoil(coil);
      const receipt = await issueReceipt(ctx, coil, 'validation');
      return { tool: 'validate-coil' as const, generatedAt: ctx.answerTime.toISOString(), validation, receipt };
    }),

  scoreCoil: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/score-coil',
        'Coil health 0 to 100',
        'Structure and readiness only (validity 30, canonical assets 20, diversification 20, risk posture 15, documentation 15); never returns, prices or performance.',
      ),
    )
    .input(z.object({ coil: coilField, nowIso: nowIsoField }))
    .output(toolFields('score-coil', { health: healthOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const coil = await withForkParent(ctx, input.coil);
      const health = scoreCoil(coil);
      const receipt = await issueReceipt(ctx, coil, 'coil_manifest');
      return { tool: 'score-coil' as const, generatedAt: ctx.answerTime.toISOString(), health, receipt };
    }),

  compileCapsule: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/compile-capsule',
        'Compile a capsule from a valid, non-paper Coil',
        "Execution modes paper_only, preview_only, human_confirm, agentic_mcp_enabled (needs options.userAcknowledgedAgenticMode: true, else 422 CAPSULE_COMPILE with AGENTIC_ACK_REQUIRED). maxTotalNotionalUsd defaults to the Coil's maxTotalNotional fuse or 500 and may not exceed 10000 (422 NOTIONAL_CAP_EXCEEDED) or the Coil's own fuse. Missing required fuses get conservative defaults listed in fusesDefaulted. The capsule lists what a human must still confirm and never contains an order. Paper Coils: 422 CAPSULE_COMPILE (PAPER_COIL); invalid Coils: 422 COIL_INVALID.",
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
      const coil = await withForkParent(ctx, input.coil);
      const capsule = compileCapsule(coil, input.options ?? {});
      const receipt = await issueReceipt(ctx, coil, 'coil_manifest');
      return { tool: 'compile-capsule' as const, generatedAt: ctx.answerTime.toISOString(), capsule, receipt };
    }),

  riskAudit: publicProcedure
    .meta(
      receiptMeta(
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
      const coil = await withForkParent(ctx, input.coil);
      const audit = riskAudit(coil);
      const receipt = await issueReceipt(ctx, coil, 'risk_fuse');
      return { tool: 'risk-audit' as const, generatedAt: ctx.answerTime.toISOString(), ...audit, receipt };
    }),

  driftCheck: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/drift-check',
        'Drift of current weights against a valid Coil',
        "driftBps = current - target (signed); an entry breaches when |driftBps| >= the Coil's rebalancePolicy.driftThresholdBps. A proposal (previews, human confirmation, three abort conditions, no notional, no quantity) appears only when breachCount > 0. Without currentWeightsBps there is no reading: entries carry null readings and nothing is invented. Symbols held outside the basket drift from a target of 0. Invalid Coils: 422 COIL_INVALID.",
      ),
    )
    .input(
      z.object({
        coil: coilField,
        currentWeightsBps: z
          .record(z.string().min(1).max(16), z.number().int().min(0).max(10_000))
          .optional()
          .describe('symbol → integer bps'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('drift-check', { report: driftReportOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const coil = await withForkParent(ctx, input.coil);
      requireValidCoil(coil);
      const receipt = await issueReceipt(ctx, coil, 'coil_manifest');
      const report = driftCheck({
        coil,
        coilId: receipt.coilId,
        manifestHash: receipt.manifestHash,
        currentWeightsBps: input.currentWeightsBps,
        now: ctx.answerTime,
      });
      return { tool: 'drift-check' as const, generatedAt: ctx.answerTime.toISOString(), report, receipt };
    }),

  receipt: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/receipt',
        'Issue a deterministic receipt for a Coil',
        'kind: coil_manifest (default), validation or risk_fuse. manifestHash = sha256(RFC 8785 JCS of the Coil without createdAt, addresses checksummed); weightsChecksum = sha256(JCS of [lowercase address, weightBps] pairs sorted by address); receiptId = hrcpt_ + 32 hex of sha256(JCS({generatedAt, kind, manifestHash})). The same Coil, kind and nowIso give the same receipt; it is stored once per wallet. Also returns the provenance chain from stored receipts.',
      ),
    )
    .input(z.object({ coil: coilField, kind: z.enum(RECEIPT_KINDS).optional(), nowIso: nowIsoField }))
    .output(toolFields('receipt', { receipt: receiptOut, provenance: provenanceOut }))
    .mutation(async ({ ctx, input }) => {
      const coil = await withForkParent(ctx, input.coil);
      const receipt = await issueReceipt(ctx, coil, input.kind ?? 'coil_manifest');
      // A fork made on the Coil page is built here: its browser may claim it after signing in.
      if (coil.forkOf) await ticketBuiltCoil(ctx, receipt);
      const lineage = await (await storedCoilsOf(ctx)).lineage(receipt.manifestHash);
      return {
        tool: 'receipt' as const,
        generatedAt: ctx.answerTime.toISOString(),
        receipt,
        provenance: renderProvenance(receipt.manifestHash, (h) => lineage.get(h)),
      };
    }),

  shareCard: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/tools/share-card',
        'A share card of a valid Coil: a thesis artifact, never a performance claim',
        'Title, assets and weights, memo, receipt id and disclaimer. The card is also served as an SVG image at GET /api/share-card/{receiptId}.svg (imageUrl). shareUrl = {shareUrlBase}/{receiptId}.svg, where shareUrlBase defaults to {origin}/api/share-card. A Coil whose texts read as a performance claim or as an execution claim is 422 SHARE_CARD_REJECTED (PERFORMANCE_CLAIM, EXECUTION_CLAIM_TEXT, naming the field); invalid Coils are 422 COIL_INVALID.',
      ),
    )
    .input(
      z.object({
        coil: coilField,
        shareUrlBase: shareUrlBaseField,
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('share-card', { card: shareCardOut, receipt: receiptOut }))
    .mutation(async ({ ctx, input }) => {
      const coil = await withForkParent(ctx, input.coil);
      requireValidCoil(coil);
      const receipt = buildReceipt(coil, 'coil_manifest', ctx.answerTime);
      const card = shareCardOrRefusal({ coil, receipt, serviceOrigin: ctx.config.origin, shareUrlBase: input.shareUrlBase });
      // Issuing a card is the act of sharing it: the Coil and the card become public.
      await persistReceipt(ctx, coil, receipt, null, true);
      return { tool: 'share-card' as const, generatedAt: ctx.answerTime.toISOString(), card, receipt };
    }),

  storedShareCard: publicProcedure
    .meta(
      meta(
        'GET',
        '/coil/share-cards/{receiptId}',
        'A stored share card by its receipt id, for its share page',
        "The card of a stored receipt (the same card POST /api/tools/share-card returned, rebuilt from the stored receipt and Coil), with its Coil's manifest hash: what the web app's share page /coils/{manifestHash}/share/{receiptId} shows and puts in its Open Graph and Twitter card tags, next to the PNG (GET /api/share-card/{receiptId}.png) and the SVG. 404 RECEIPT_NOT_FOUND for a receipt this caller cannot read (docs/visibility.md). Reads only: nothing is stored.",
      ),
    )
    .input(z.object({ receiptId: z.string().regex(/^hrcpt_[0-9a-f]{32}$/, 'expected hrcpt_ and 32 hex digits'), nowIso: nowIsoField }))
    .output(toolFields('stored-share-card', { card: shareCardOut, receipt: receiptOut }))
    .query(async ({ ctx, input }) => {
      const stored = await storedShareCard(ctx, input.receiptId);
      if (!stored) {
        throw new SvcError('RECEIPT_NOT_FOUND', 'No stored receipt has this id', {
          issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'create one with POST /api/tools/share-card', path: 'receiptId' }],
        });
      }
      return { tool: 'stored-share-card' as const, generatedAt: ctx.answerTime.toISOString(), card: stored.card, receipt: stored.receipt };
    }),

  verifyCoil: publicProcedure
    .meta(
      receiptMeta(
        'POST',
        '/coil/verify',
        'Verify a receipt against a Coil',
        "Recomputes manifestHash, weightsChecksum, receiptId, coilId, parentManifestHash, validationStatus, fuseChecksum (risk_fuse receipts), checks anchoring and liveOrderSent, and checks the service's signature against its published keys (GET /api/receipts/keys): a signature that does not verify is the mismatch `signature`; an unsigned receipt is judged on its hashes and says signature.status absent. ok is true only when nothing mismatches, and every mismatch is named. To check without trusting this service, use the offline CLI (docs/trust-model.md).",
      ),
    )
    .input(
      z.object({
        coil: coilField,
        receipt: z.record(z.string(), z.unknown()).describe('a receipt as issued; any field may be wrong'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('verify-coil', { verification: verificationOut }))
    .mutation(async ({ ctx, input }) => {
      // A fork sent without its parent's hash is completed the way the tool that issued the
      // receipt completed it; the receipt's own parentManifestHash is the version to check.
      const named = input.receipt.parentManifestHash;
      const asSent =
        input.coil.forkOf && !input.coil.parentManifestHash && typeof named === 'string'
          ? { ...input.coil, parentManifestHash: named }
          : input.coil;
      const coil = await withForkParent(ctx, asSent, {
        forkOf: 'coil.forkOf',
        parentManifestHash: asSent === input.coil ? 'coil.parentManifestHash' : 'receipt.parentManifestHash',
      });
      const { keys } = await publishedKeysOf(ctx);
      return {
        tool: 'verify-coil' as const,
        generatedAt: ctx.answerTime.toISOString(),
        verification: verifyReceipt(coil, input.receipt, keys),
      };
    }),

  oraclePolicy: publicProcedure
    .meta(
      meta(
        'POST',
        '/tools/oracle-policy',
        'The oracle policy in force: per asset the price feed, the staleness bound, and what stale or missing means',
        `Version ${ORACLE_POLICY_VERSION}: the price source (the oracle adapter, per-token feed configuration), the 24/5 market session, and per asset the price basis and the largest age of a live price. A stale, future-stamped or missing price is unknown, never zero and never live. With \`readings\` ({ tokenAddress, updatedAt, price? }), each stock and ETF token is classified against the server's clock (never nowIso): FRESH (live, price shown), STALE, MISSING, TIMESTAMP_IN_FUTURE (unknown, price null); an address outside the registry is NOT_IN_REGISTRY.`,
      ),
    )
    .input(
      z.object({
        readings: z
          .array(
            z
              .object({
                tokenAddress: chainAddressField(HEX_ADDRESS, 'expected 0x followed by 40 hex digits'),
                updatedAt: z
                  .string()
                  .max(40)
                  .refine((v) => parseIsoInstant(v) !== undefined, { message: 'an ISO 8601 timestamp with a zone' }),
                price: z
                  .string()
                  .regex(/^\d{1,18}(\.\d{1,18})?$/)
                  .optional()
                  .describe('USD, a decimal string'),
              })
              .strict(),
          )
          .max(64)
          .optional()
          .describe('price readings to classify against the policy'),
        nowIso: nowIsoField,
      }),
    )
    .output(
      toolFields('oracle-policy', { policy: oraclePolicyOut, readings: z.array(priceReadingOut).nullable(), receipt: artifactReceiptOut }),
    )
    .mutation(({ ctx, input }) => {
      const explained = explainOraclePolicy(
        input.readings?.map((r) => ({ tokenAddress: r.tokenAddress, updatedAt: parseIsoInstant(r.updatedAt)!, price: r.price })),
        ctx.serverTime,
      );
      return {
        tool: 'oracle-policy' as const,
        generatedAt: ctx.answerTime.toISOString(),
        ...explained,
        receipt: buildArtifactReceipt('oracle_policy', explained, ctx.answerTime),
      };
    }),

  verifyArtifactReceipt: publicProcedure
    .meta(
      meta(
        'POST',
        '/receipts/verify',
        'Verify an artifact receipt (arcpt_) against its artifact',
        'For the receipts of the autonomy path, the audits, the fee claim, the reward plan, the oracle policy and the prepared commands. Recomputes subjectHash = sha256(RFC 8785 JCS of the artifact without fields named like credentials) and receiptId = arcpt_ + 32 hex of sha256(JCS({ generatedAt, kind, subjectHash })), and checks anchoring, liveOrderSent and the signature of the service (the mismatch `signature` when it does not verify against GET /api/receipts/keys); ok is true only when nothing mismatches, and every mismatch is named. `subject` is the artifact the receipt came with (e.g. the `report` of a post-run audit, the `claim` of a fee claim); an autonomy_path receipt carries its own binding and needs none. Coil receipts (hrcpt_) are verified by POST /api/coil/verify.',
      ),
    )
    .input(
      z.object({
        receipt: receiptInput,
        subject: z.unknown().optional().describe('the artifact the receipt fingerprints'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('verify-artifact-receipt', { verification: artifactVerificationOut }))
    .mutation(async ({ ctx, input }) => ({
      tool: 'verify-artifact-receipt' as const,
      generatedAt: ctx.answerTime.toISOString(),
      verification: verifyArtifactReceipt(input.receipt, input.subject, (await publishedKeysOf(ctx)).keys),
    })),

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
      const lineage = await (await storedCoilsOf(ctx)).lineage(input.manifestHash);
      if (!lineage.has(input.manifestHash)) {
        throw new SvcError('MANIFEST_NOT_FOUND', 'No receipt of this manifest is stored', {
          issues: [{ code: 'MANIFEST_NOT_FOUND', message: 'issue a receipt first', path: 'manifestHash' }],
        });
      }
      return {
        tool: 'provenance' as const,
        generatedAt: ctx.answerTime.toISOString(),
        provenance: renderProvenance(input.manifestHash, (h) => lineage.get(h)),
      };
    }),

  storedCoil: publicProcedure
    .meta(
      meta(
        'GET',
        '/coil/manifests/{manifestHash}',
        'A stored Coil by its manifest hash, with its health, stored receipts and provenance',
        'The Coil as first stored under this manifest hash (any tool or the strategist stores the Coils it handles), the strategists that coiled it, its health (0 to 100, structure and readiness only), up to 20 of its stored receipts (oldest first) and its provenance chain. A manifest hash is the address of a Coil: the web app links each Coil page by it. 404 MANIFEST_NOT_FOUND when no Coil with this hash is stored. Reads only: nothing is stored.',
      ),
    )
    .input(z.object({ manifestHash: z.string().regex(SHA256_HEX, 'expected 64 lowercase hex digits'), nowIso: nowIsoField }))
    .output(
      toolFields('stored-coil', {
        manifestHash: z.string(),
        coiledBy: z
          .array(z.enum(['mock', 'partner']))
          .describe(
            "the strategists that produced this manifest (mock: the local strategist, partner: the partner's agent); empty for a Coil a caller supplied, such as a fork",
          ),
        coil: coilOut,
        health: healthOut,
        receipts: z.array(receiptOut),
        provenance: provenanceOut,
      }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await storedCoilsOf(ctx);
      const stored = coilSchema.safeParse(await rows.coil(input.manifestHash));
      if (!stored.success) {
        throw new SvcError('MANIFEST_NOT_FOUND', 'No Coil with this manifest hash is stored', {
          issues: [{ code: 'MANIFEST_NOT_FOUND', message: 'generate, validate or receipt a Coil first', path: 'manifestHash' }],
        });
      }
      const [lineage, strategists] = await Promise.all([rows.lineage(input.manifestHash), rows.coilingStrategists(input.manifestHash)]);
      const receiptIds = lineage.get(input.manifestHash)?.receiptIds.slice(0, STORED_COIL_RECEIPTS) ?? [];
      const receipts = (await Promise.all(receiptIds.map((id) => rows.receipt(id)))).filter((r): r is Receipt => r !== undefined);
      return {
        tool: 'stored-coil' as const,
        generatedAt: ctx.answerTime.toISOString(),
        manifestHash: input.manifestHash,
        coiledBy: strategists.filter((s): s is 'mock' | 'partner' => s === 'mock' || s === 'partner'),
        coil: stored.data,
        health: scoreCoil(stored.data),
        receipts,
        provenance: renderProvenance(input.manifestHash, (h) => lineage.get(h)),
      };
    }),

  passport: publicProcedure
    .meta(
      meta(
        'GET',
        '/agents/passport/{agentId}',
        'Agent passport: a 0 to 1000 reputation (policy passport-policy-1.0.0)',
        `The "agent" is whoever coiled the manifests: a strategist id (\`mock\` or \`partner\`, the providerMeta.provider of generate-coil and POST /api/agent/svc) or a wallet address (the Coils saved under that wallet's session). Points, each capped: ${Object.entries(
          PASSPORT_COMPONENTS,
        )
          .map(([k, v]) => `${k} x${v.multiplier} capped at ${v.cap}`)
          .join(
            '; ',
          )} (caps sum to 1000). Manifests are counted once (distinct manifest hashes); forks are distinct stored manifests whose parentManifestHash is one of the agent's; average score is the mean Coil health (0-100) x2 (no Coil: null, 0 points); receipts are distinct receipt ids. Computed from stored Coils and receipts; never about returns.`,
      ),
    )
    .input(
      z.object({
        agentId: z.string().regex(/^(?:mock|partner|0x[0-9a-fA-F]{40})$/, 'mock, partner or a wallet address'),
        nowIso: nowIsoField,
      }),
    )
    .output(toolFields('passport', { passport: passportOut }))
    .query(async ({ ctx, input }) => {
      const wallet = input.agentId.startsWith('0x');
      const id = wallet ? checksumAddress(input.agentId)! : input.agentId;
      const stats = await (await storedCoilsOf(ctx)).passportStats({ kind: wallet ? 'wallet' : 'strategist', id });
      return {
        tool: 'passport' as const,
        generatedAt: ctx.answerTime.toISOString(),
        passport: computePassport(id, wallet ? 'wallet' : 'strategist', stats, ctx.answerTime),
      };
    }),
});
