/**
 * Deterministic, content-addressed receipts (interface 2.5) and their verification. Nothing here
 * is anchored on chain: `anchoring` is always `paper`.
 *
 *   manifestHash    = sha256(JCS(identity content of the Coil))      timestamps excluded
 *   weightsChecksum = sha256(JCS([[address, weightBps], ...]))        lowercase addresses, sorted
 *   receiptId       = "hrcpt_" + first 32 hex of sha256(JCS({ generatedAt, kind, manifestHash }))
 *   coilId          = "coil_" + first 24 hex of manifestHash
 */
import { riskAudit } from '../coil/audit';
import { identityContent, type Coil } from '../coil/manifest';
import { validateCoil, type ValidationStatus } from '../coil/validate';
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../registry';
import { hashCanonical, sha256Hex, canonicalJson } from '../canonical';
import { compareSignature, fieldChecks, stampedVersionsCurrent } from './field-checks';
import { checkSignature, issued, type Issued, type PublishedKey, type SignatureCheck, type SignatureCheckOptions } from './signature';

export const RECEIPT_VERSION = 'svc-coil-receipt-1.0.0';
export const COMPILER_VERSION = 'svc-coil-compiler-1.0.0';
export const RECEIPT_KINDS = ['coil_manifest', 'validation', 'risk_fuse'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];
export const RECEIPT_ID_PREFIX = 'hrcpt_';

export interface Receipt {
  receiptVersion: string;
  receiptId: string;
  kind: ReceiptKind;
  coilId: string;
  coilSlug: string;
  manifestHash: string;
  parentManifestHash?: string;
  weightsChecksum: string;
  validationStatus: ValidationStatus;
  fuseChecksum?: string;
  anchoring: 'paper';
  registryVersion: string;
  oraclePolicyVersion: string;
  compilerVersion: string;
  generatedAt: string;
  liveOrderSent: false;
}

export function manifestHashOf(coil: Coil): string {
  return hashCanonical(identityContent(coil));
}

export function weightsChecksumOf(coil: Pick<Coil, 'assets'>): string {
  const pairs = coil.assets
    .map((a) => [a.tokenAddress.toLowerCase(), a.weightBps] as [string, number])
    .sort(([a, wa], [b, wb]) => (a < b ? -1 : a > b ? 1 : wa - wb));
  return hashCanonical(pairs);
}

export function receiptIdOf(kind: string, manifestHash: string, generatedAt: string): string {
  return RECEIPT_ID_PREFIX + sha256Hex(canonicalJson({ kind, manifestHash, generatedAt })).slice(0, 32);
}

export function coilIdOf(manifestHash: string): string {
  return `coil_${manifestHash.slice(0, 24)}`;
}

/**
 * Builds the receipt of a Coil at `now`; the same Coil, kind and time give the same receipt. It
 * is the service's own (`Issued`): the one kind of value the service signs.
 */
export function buildReceipt(coil: Coil, kind: ReceiptKind, now: Date): Issued<Receipt> {
  const manifestHash = manifestHashOf(coil);
  const generatedAt = now.toISOString();
  const receipt: Receipt = {
    receiptVersion: RECEIPT_VERSION,
    receiptId: receiptIdOf(kind, manifestHash, generatedAt),
    kind,
    coilId: coilIdOf(manifestHash),
    coilSlug: coil.slug,
    manifestHash,
    weightsChecksum: weightsChecksumOf(coil),
    validationStatus: validateCoil(coil).validationStatus,
    anchoring: 'paper',
    registryVersion: REGISTRY_VERSION,
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    compilerVersion: COMPILER_VERSION,
    generatedAt,
    liveOrderSent: false,
  };
  if (coil.parentManifestHash) receipt.parentManifestHash = coil.parentManifestHash;
  if (kind === 'risk_fuse') receipt.fuseChecksum = riskAudit(coil).fuseChecksum;
  return issued(receipt);
}

export interface Verification {
  ok: boolean;
  /** Names of the receipt fields that do not match what the Coil gives. */
  mismatches: string[];
  /** Names of the fields that were recomputed and compared. */
  checked: string[];
  recomputed: {
    manifestHash: string;
    weightsChecksum: string;
    coilId: string;
    validationStatus: ValidationStatus;
    receiptId: string | null;
    fuseChecksum: string | null;
  };
  /** Whether the registry and oracle-policy versions stamped in the receipt are the ones in force. */
  stampedVersionsCurrent: boolean;
  /** The service's signature checked against the key set (receipts/signature.ts). */
  signature: SignatureCheck;
}

/**
 * Recomputes every load-bearing value of a receipt from the Coil and names each mismatch, and
 * checks its signature against `keys`. The receipt is untrusted input: any field may be missing
 * or of the wrong type. A signature that does not verify (another key, a changed byte, a
 * malformed block) is the mismatch `signature`; a receipt without one is reported as such
 * (`signature.status: "absent"`) and judged on its hashes alone.
 */
export function verifyReceipt(
  coil: Coil,
  receipt: Record<string, unknown>,
  keys?: readonly PublishedKey[],
  signatureOptions?: SignatureCheckOptions,
): Verification {
  const manifestHash = manifestHashOf(coil);
  const weightsChecksum = weightsChecksumOf(coil);
  const coilId = coilIdOf(manifestHash);
  const validationStatus = validateCoil(coil).validationStatus;
  const kind = receipt.kind;
  const knownKind = typeof kind === 'string' && (RECEIPT_KINDS as readonly string[]).includes(kind);
  const generatedAt = typeof receipt.generatedAt === 'string' ? receipt.generatedAt : undefined;
  const receiptId = knownKind && generatedAt !== undefined ? receiptIdOf(kind as string, manifestHash, generatedAt) : null;
  const needsFuses = kind === 'risk_fuse' || receipt.fuseChecksum !== undefined;
  const fuseChecksum = needsFuses ? riskAudit(coil).fuseChecksum : null;

  const { compare, outcome } = fieldChecks();
  compare('kind', true, knownKind);
  compare('manifestHash', manifestHash, receipt.manifestHash);
  compare('weightsChecksum', weightsChecksum, receipt.weightsChecksum);
  compare('receiptId', receiptId ?? '(cannot be recomputed)', receipt.receiptId);
  compare('coilId', coilId, receipt.coilId);
  compare('parentManifestHash', coil.parentManifestHash ?? null, receipt.parentManifestHash ?? null);
  compare('validationStatus', validationStatus, receipt.validationStatus);
  if (needsFuses) compare('fuseChecksum', fuseChecksum, receipt.fuseChecksum);
  compare('anchoring', 'paper', receipt.anchoring);
  if (receipt.liveOrderSent !== undefined) compare('liveOrderSent', false, receipt.liveOrderSent);
  const signature = checkSignature(receipt, keys, signatureOptions);
  compareSignature(compare, signature);

  return {
    ...outcome(),
    recomputed: { manifestHash, weightsChecksum, coilId, validationStatus, receiptId, fuseChecksum },
    stampedVersionsCurrent: stampedVersionsCurrent(receipt),
    signature,
  };
}
