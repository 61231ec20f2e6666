/**
 * Artifact receipts: the deterministic, content-addressed fingerprint of an artifact that
 * is not a Coil (an autonomy gate, a broker path, an audit, a fee claim, a reward plan, a
 * prepared command, ...). Like Coil receipts they are paper (`anchoring: "paper"`), stamp
 * the registry and oracle-policy versions in force, and say `liveOrderSent: false`.
 *
 *   subjectHash = sha256(JCS(subject))     the artifact as answered, without the fields named
 *                                          like credentials (a command pack's `apiKeyEnvVar`
 *                                          names a setting, but no request may carry it)
 *   receiptId   = "arcpt_" + first 32 hex of sha256(JCS({ generatedAt, kind, subjectHash }))
 *
 * `POST /api/receipts/verify` recomputes both from the artifact. An `autonomy_path` receipt
 * carries its subject (the binding the post-run audit checks activity against) inside
 * itself, so that receipt alone is enough to audit a run.
 */
import { isCredentialFieldName } from '../guards/credential-guard';
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../registry';
import { canonicalJson, hashCanonical, sha256Hex } from '../canonical';
import { compareSignature, fieldChecks, stampedVersionsCurrent } from './field-checks';
import { checkSignature, issued, type Issued, type PublishedKey, type SignatureCheck, type SignatureCheckOptions } from './signature';

export const ARTIFACT_RECEIPT_VERSION = 'svc-artifact-receipt-1.0.0';
export const ARTIFACT_RECEIPT_ID_PREFIX = 'arcpt_';

export const ARTIFACT_RECEIPT_KINDS = [
  'autonomy_validation',
  'autonomy_path',
  'partnerbot_command_pack',
  'post_run_audit',
  'vault_rebalance_audit',
  'vault_partner_rebalance',
  'partner_fee_claim',
  'provider_reward_plan',
  'oracle_policy',
  'stock_command',
  'stock_submit_preview',
  'vault_deposit_command',
] as const;
export type ArtifactReceiptKind = (typeof ARTIFACT_RECEIPT_KINDS)[number];

/** The kinds whose receipt embeds its subject as `binding`. */
export const SELF_CONTAINED_KINDS: ReadonlySet<ArtifactReceiptKind> = new Set(['autonomy_path']);

export interface ArtifactReceipt<B = unknown, K extends ArtifactReceiptKind = ArtifactReceiptKind> {
  receiptVersion: string;
  receiptId: string;
  kind: K;
  subjectHash: string;
  /** The Coil the artifact is about, when there is one (recompute it with POST /api/tools/receipt). */
  manifestHash: string | null;
  generatedAt: string;
  registryVersion: string;
  oraclePolicyVersion: string;
  anchoring: 'paper';
  liveOrderSent: false;
  /** Self-contained kinds only: the subject itself. */
  binding?: B;
}

/** The subject as hashed: fields named like credentials left out, at any depth. */
export function hashableSubject(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hashableSubject);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (!isCredentialFieldName(k)) out[k] = hashableSubject(v);
    return out;
  }
  return value;
}

export function subjectHashOf(subject: unknown): string {
  return hashCanonical(hashableSubject(subject));
}

export function artifactReceiptIdOf(kind: string, subjectHash: string, generatedAt: string): string {
  return ARTIFACT_RECEIPT_ID_PREFIX + sha256Hex(canonicalJson({ generatedAt, kind, subjectHash })).slice(0, 32);
}

/** Builds the receipt of an artifact at `now`; the same subject, kind and time give the same receipt. */
export function buildArtifactReceipt<B, K extends ArtifactReceiptKind>(
  kind: K,
  subject: B,
  now: Date,
  manifestHash: string | null = null,
): Issued<ArtifactReceipt<B, K>> {
  return issued(sealArtifact(kind, subject, now, manifestHash));
}

/** A self-contained receipt (its subject embedded as `binding`): see SELF_CONTAINED_KINDS. */
export function buildBoundReceipt<B, K extends ArtifactReceiptKind>(
  kind: K,
  binding: B,
  now: Date,
  manifestHash: string | null = null,
): Issued<ArtifactReceipt<B, K> & { binding: B }> {
  if (!SELF_CONTAINED_KINDS.has(kind)) throw new Error(`${kind} receipts do not embed their subject`);
  return issued(sealArtifact(kind, binding, now, manifestHash) as ArtifactReceipt<B, K> & { binding: B });
}

function sealArtifact<B, K extends ArtifactReceiptKind>(
  kind: K,
  subject: B,
  now: Date,
  manifestHash: string | null,
): ArtifactReceipt<B, K> {
  const subjectHash = subjectHashOf(subject);
  const generatedAt = now.toISOString();
  const receipt: ArtifactReceipt<B, K> = {
    receiptVersion: ARTIFACT_RECEIPT_VERSION,
    receiptId: artifactReceiptIdOf(kind, subjectHash, generatedAt),
    kind,
    subjectHash,
    manifestHash,
    generatedAt,
    registryVersion: REGISTRY_VERSION,
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    anchoring: 'paper',
    liveOrderSent: false,
  };
  if (SELF_CONTAINED_KINDS.has(kind)) receipt.binding = subject;
  return receipt;
}

export interface ArtifactVerification {
  ok: boolean;
  mismatches: string[];
  checked: string[];
  recomputed: { subjectHash: string | null; receiptId: string | null };
  stampedVersionsCurrent: boolean;
  signature: SignatureCheck;
}

/**
 * Recomputes an artifact receipt from its subject and names every mismatch. The receipt is
 * untrusted input: any field may be missing or wrong. Without a `subject`, a self-contained
 * receipt is checked against its own `binding`; any other receipt cannot be recomputed.
 */
export function verifyArtifactReceipt(
  receipt: Record<string, unknown>,
  subject?: unknown,
  keys?: readonly PublishedKey[],
  signatureOptions?: SignatureCheckOptions,
): ArtifactVerification {
  const kind = receipt.kind;
  const knownKind = typeof kind === 'string' && (ARTIFACT_RECEIPT_KINDS as readonly string[]).includes(kind);
  const embedded = knownKind && SELF_CONTAINED_KINDS.has(kind as ArtifactReceiptKind);
  const material = subject !== undefined ? subject : embedded ? receipt.binding : undefined;
  const subjectHash = material === undefined ? null : subjectHashOf(material);
  const generatedAt = typeof receipt.generatedAt === 'string' ? receipt.generatedAt : undefined;
  const receiptId =
    knownKind && subjectHash && generatedAt !== undefined ? artifactReceiptIdOf(kind as string, subjectHash, generatedAt) : null;

  const { compare, outcome } = fieldChecks();
  compare('kind', true, knownKind);
  compare('subjectHash', subjectHash ?? '(no subject to recompute from)', receipt.subjectHash);
  compare('receiptId', receiptId ?? '(cannot be recomputed)', receipt.receiptId);
  if (embedded && subject !== undefined)
    compare('binding', subjectHashOf(subject), receipt.binding === undefined ? null : subjectHashOf(receipt.binding));
  compare('anchoring', 'paper', receipt.anchoring);
  compare('liveOrderSent', false, receipt.liveOrderSent);
  const signature = checkSignature(receipt, keys, signatureOptions);
  compareSignature(compare, signature);
  return {
    ...outcome(),
    recomputed: { subjectHash, receiptId },
    stampedVersionsCurrent: stampedVersionsCurrent(receipt),
    signature,
  };
}
