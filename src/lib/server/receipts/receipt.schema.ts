/** A Coil receipt (receipts/receipt.ts) and its verification, as answers show them. */
import { z } from 'zod';
import { validationStatusOut } from '../coil/validation.schema';
import { RECEIPT_KINDS } from './receipt';
import { receiptSignatureOut, signatureCheckOut } from './signature.schema';

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
    signature: receiptSignatureOut
      .optional()
      .describe(
        'signed by the service once, when it issued the receipt (stored with the row and served as stored); covers every other field and the block itself',
      ),
  })
  .describe('A deterministic content-addressed fingerprint, signed by the service; not onchain anchoring');

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
