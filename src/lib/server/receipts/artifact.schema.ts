/** Artifact receipts (receipts/artifact.ts) and their verification, as answers show them and callers send them back. */
import { z } from 'zod';
import { ARTIFACT_RECEIPT_KINDS } from './artifact';
import { receiptSignatureOut, signatureCheckOut } from './signature.schema';

const receiptFields = {
  receiptVersion: z.string(),
  receiptId: z.string().describe('arcpt_ + 32 hex of sha256(JCS({ generatedAt, kind, subjectHash }))'),
  kind: z.enum(ARTIFACT_RECEIPT_KINDS),
  subjectHash: z.string().describe('sha256 of the RFC 8785 canonical JSON of the artifact, without fields named like credentials'),
  manifestHash: z.string().nullable().describe('the Coil the artifact is about, when there is one'),
  generatedAt: z.string(),
  registryVersion: z.string(),
  oraclePolicyVersion: z.string(),
  anchoring: z.literal('paper'),
  liveOrderSent: z.literal(false),
  signature: receiptSignatureOut
    .optional()
    .describe(
      'signed by the service once, when it issued the receipt (stored with the row and served as stored); covers every other field and the block itself',
    ),
};

export const artifactReceiptOut = z
  .object(receiptFields)
  .meta({ id: 'ArtifactReceipt', description: 'A paper receipt of an artifact; POST /api/receipts/verify recomputes it' });

export const pathBindingOut = z
  .object({
    pathVersion: z.string(),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string(),
    weightsChecksum: z.string(),
    autonomyMode: z.enum(['paper', 'preview', 'live_candidate']),
    symbols: z.array(z.object({ brokerTicker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number() })),
    cashWeightBps: z.number(),
    totalNotionalUsd: z.number(),
    fuses: z.array(z.object({ kind: z.string(), unit: z.string(), limit: z.number().nullable() })),
    fuseChecksum: z.string(),
    instructionsHash: z.string().describe('sha256 of the canonical JSON of the broker MCP instruction pack'),
  })
  .meta({ id: 'BrokerPathBinding', description: 'What a post-run audit checks reported activity against' });

export const pathReceiptOut = z.object({ ...receiptFields, kind: z.literal('autonomy_path'), binding: pathBindingOut }).meta({
  id: 'BrokerPathReceipt',
  description: 'The autonomy_path receipt: self-contained (its binding is its subject); the post-run audit takes it as is',
});

export const artifactVerificationOut = z.object({
  ok: z.boolean(),
  mismatches: z.array(z.string()),
  checked: z.array(z.string()),
  recomputed: z.object({ subjectHash: z.string().nullable(), receiptId: z.string().nullable() }),
  stampedVersionsCurrent: z.boolean(),
  signature: signatureCheckOut,
});

/** A receipt as a caller sends it back: any field may be missing or wrong. */
export const receiptInput = z.record(z.string(), z.unknown()).describe('a receipt as issued; any field may be wrong');
