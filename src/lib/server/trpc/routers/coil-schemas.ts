/**
 * Zod output schemas of the tools and strategist families. Output schemas strip unknown
 * keys, so every returned field is declared here; the domain types they mirror live in
 * src/lib/server/{coil,receipts,strategist}.
 */
import { z } from 'zod';
import { coilSchema, EXECUTION_MODES, COIL_MODES, memoSchema } from '../../coil/manifest';
import { FUSE_KINDS } from '../../coil/fuse-catalogue';
import { HEALTH_COMPONENTS } from '../../coil/health';
import { RECEIPT_KINDS } from '../../receipts/receipt';
import { signatureBlockOut, signatureCheckOut } from './receipt-shapes';

export const issueOut = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
});

export const validationStatusOut = z.enum(['valid', 'valid-with-warnings', 'invalid']);

export const validationOut = z.object({
  valid: z.boolean(),
  validationStatus: validationStatusOut.describe('derived from the issues'),
  issues: z.array(issueOut),
});

export const healthOut = z.object({
  total: z.number().int().min(0).max(100),
  healthVersion: z.string(),
  basis: z.literal('structure_and_readiness_only'),
  components: z.array(z.object({ name: z.enum(HEALTH_COMPONENTS), points: z.number(), maxPoints: z.number(), explanation: z.string() })),
  explanation: z.string(),
});

export const receiptOut = z
  .object({
    receiptVersion: z.string(),
    receiptId: z.string().describe('hrcpt_ + 32 hex of sha256(JCS({ generatedAt, kind, manifestHash }))'),
    kind: z.enum(RECEIPT_KINDS),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string().describe('sha256 of the RFC 8785 canonical JSON of the manifest identity content (timestamps excluded)'),
    parentManifestHash: z.string().optional().describe('present on forks'),
    weightsChecksum: z.string().describe('sha256 of the canonical JSON of the (lowercase address, weightBps) pairs sorted by address'),
    validationStatus: validationStatusOut,
    fuseChecksum: z.string().optional().describe('present on risk_fuse receipts'),
    anchoring: z.literal('paper'),
    registryVersion: z.string(),
    oraclePolicyVersion: z.string(),
    compilerVersion: z.string(),
    generatedAt: z.string(),
    liveOrderSent: z.literal(false),
    signature: signatureBlockOut.optional().describe('added by the service to every receipt it issues; covers every other field'),
  })
  .describe('A deterministic content-addressed fingerprint, signed by the service; not onchain anchoring');

export const providerMetaOut = z.object({
  provider: z.enum(['mock', 'partner']),
  requested: z.enum(['mock', 'partner', 'partner_or_mock']),
  usedFallback: z.boolean(),
  fallbackReason: z.string().optional(),
});

export const coilOut = coilSchema;

export const fuseUnitOut = z.enum(['seconds', 'bps', 'usd', 'percent', 'flag']);

export const auditedFuseOut = z.object({
  kind: z.enum(FUSE_KINDS),
  label: z.string(),
  unit: fuseUnitOut,
  limit: z.number().nullable(),
  source: z.string(),
  requiredForCapsule: z.boolean(),
});

export const capsuleOut = z.object({
  capsuleVersion: z.string(),
  coilId: z.string(),
  coilSlug: z.string(),
  manifestHash: z.string(),
  mode: z.enum(COIL_MODES),
  executionMode: z.enum(EXECUTION_MODES),
  chainId: z.literal(4663),
  maxTotalNotionalUsd: z.number(),
  allocations: z.array(
    z.object({ ticker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number(), notionalCeilingUsd: z.number() }),
  ),
  fuses: z.array(z.object({ kind: z.enum(FUSE_KINDS), unit: fuseUnitOut, limit: z.number().nullable(), source: z.string() })),
  fusesDefaulted: z.array(z.enum(FUSE_KINDS)),
  fuseChecksum: z.string(),
  humanConfirmation: z.object({ required: z.literal(true), mustConfirm: z.array(z.string()) }),
  agenticModeAcknowledged: z.boolean(),
  planSteps: z.array(z.string()),
  containsOrders: z.literal(false),
  svcExecutes: z.literal(false),
  capsuleHash: z.string(),
});

export const driftReportOut = z.object({
  coilId: z.string(),
  manifestHash: z.string(),
  generatedAt: z.string(),
  thresholdBps: z.number(),
  readingStatus: z.enum(['complete', 'partial', 'missing']),
  entries: z.array(
    z.object({
      symbol: z.string(),
      targetWeightBps: z.number(),
      currentWeightBps: z.number().nullable().describe('null when no current weight was given (unknown, never 0)'),
      driftBps: z.number().nullable().describe('current minus target, signed; null without a reading'),
      breachesThreshold: z.boolean(),
      reading: z.enum(['provided', 'missing']),
    }),
  ),
  breachCount: z.number().int(),
  proposal: z
    .object({
      status: z.literal('proposal'),
      requiresHumanConfirmation: z.literal(true),
      requiresUserApproval: z.literal(true),
      executable: z.literal(false),
      intents: z.array(
        z.object({
          status: z.literal('preview'),
          symbol: z.string(),
          side: z.enum(['buy', 'sell']),
          orderType: z.literal('limit'),
          timeInForce: z.literal('day'),
          maxPositionWeightBps: z.number(),
          maxDailyTurnoverBps: z.number(),
          reason: z.string(),
          fuseChecks: z.array(z.string()),
          abortConditions: z.array(z.string()),
        }),
      ),
    })
    .optional()
    .describe('present only when breachCount > 0'),
  note: z.string(),
  disclaimer: z.string(),
});

export const shareCardOut = z.object({
  cardVersion: z.string(),
  kind: z.literal('thesis'),
  title: z.string(),
  slug: z.string(),
  headline: z.string(),
  summary: z.string(),
  assets: z.array(z.object({ ticker: z.string(), weightBps: z.number(), weightPercent: z.string(), rationale: z.string() })),
  memo: memoSchema.nullable(),
  receiptId: z.string(),
  manifestHash: z.string(),
  shareUrl: z.string(),
  imageUrl: z.string(),
  altText: z.string(),
  disclaimer: z.string(),
});

export const verificationOut = z.object({
  ok: z.boolean(),
  mismatches: z.array(z.string()).describe('names of the receipt fields that do not match the Coil'),
  checked: z.array(z.string()),
  recomputed: z.object({
    manifestHash: z.string(),
    weightsChecksum: z.string(),
    coilId: z.string(),
    validationStatus: validationStatusOut,
    receiptId: z.string().nullable(),
    fuseChecksum: z.string().nullable(),
  }),
  stampedVersionsCurrent: z.boolean(),
  signature: signatureCheckOut,
});

export const provenanceOut = z.object({
  manifestHash: z.string(),
  rootManifestHash: z.string(),
  chain: z.array(
    z.object({
      manifestHash: z.string(),
      parentManifestHash: z.string().nullable(),
      slug: z.string().nullable(),
      stored: z.boolean(),
      receiptIds: z.array(z.string()),
      depth: z.number().int(),
    }),
  ),
  forkDepth: z.number().int(),
  rootUnresolved: z.boolean(),
  cycleDetected: z.boolean(),
});

export const passportOut = z.object({
  agentId: z.string(),
  agentKind: z.enum(['strategist', 'wallet']),
  policyVersion: z.literal('passport-policy-1.0.0'),
  reputation: z.number().int().min(0).max(1000),
  maxReputation: z.literal(1000),
  components: z.array(
    z.object({
      name: z.enum(['manifestsCoiled', 'forksReceived', 'averageScore', 'receipts']),
      value: z.number().nullable(),
      multiplier: z.number(),
      cap: z.number(),
      points: z.number(),
      capped: z.boolean(),
      description: z.string(),
    }),
  ),
  asOf: z.string(),
  basis: z.string(),
});

export const strategistScoreOut = z.object({
  total: z.number().int().min(0).max(100),
  explanation: z.string(),
  validity: z.number(),
  canonicalAssets: z.number(),
  diversification: z.number(),
  riskPosture: z.number(),
  documentation: z.number(),
});
