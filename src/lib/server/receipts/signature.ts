/**
 * The service's signature on what it issues (issue 26, docs/trust-model.md): an Ed25519
 * signature over the RFC 8785 canonical JSON of a document without its `signature` member.
 *
 * Ed25519 (RFC 8032), which node:crypto signs and verifies, so neither the service nor the
 * offline CLI needs a signing library.
 *
 * A receipt (issue 36 item 3) is signed once, when the service issues it, and its block says
 * when (the server's clock, never the caller's `nowIso`), with which key, and whether the
 * receipt was appended to the checkpointed log; those are signed with the receipt's bytes:
 *
 *   block     = { alg: "Ed25519", keyId, signedAt, logged }
 *   payload   = JCS({ ...receipt without "signature", signature: block })
 *   signature = { ...block, value: base64url(Ed25519(payload)) }
 *   keyId     = first 32 hex of sha256(raw 32-byte public key)
 *
 * The receipt's body and id stay deterministic (the same request and `nowIso` give the same
 * body and id); only the signature block differs between two issuances. The first log's heads,
 * and receipts signed before this block existed, carry { alg, keyId, value } over
 * JCS(document without "signature") (`signDocument`).
 *
 * Public keys are published as JWKs (RFC 8037, `kty: "OKP"`, `crv: "Ed25519"`) with the period
 * each was in use. Pure: no configuration, file or database is read here; the glue
 * (src/lib/server/signing-key.ts) loads the key and passes it in.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../canonical';

export const SIGNATURE_ALGORITHM = 'Ed25519';

/** The block a signed document carries beside its own fields. */
export interface SignatureBlock {
  alg: typeof SIGNATURE_ALGORITHM;
  keyId: string;
  /** base64url, no padding */
  value: string;
}

/** A receipt's block: when the service signed it (its own clock) and whether it logged it, signed with it. */
export interface ReceiptSignatureBlock extends SignatureBlock {
  signedAt: string;
  logged: boolean;
}

/** What a stored receipt row from before receipts were signed at issuance is served with (docs/trust-model.md#legacy-receipts). */
export const LEGACY_SIGNATURE = { status: 'legacy' } as const;
export type LegacySignature = typeof LEGACY_SIGNATURE;

export interface Signer {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** A published public key: a JWK with the period it was in use. */
export interface PublishedKey {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  alg: 'EdDSA';
  use: 'sig';
  /** When this service first used the key (its own clock). */
  validFrom: string;
  /** When a newer key replaced it; null while it is the newest. */
  validUntil: string | null;
  /** `active` (signing now), `retired` (replaced by a rotation) or `revoked`. */
  status?: KeyStatus;
  /** When the key was revoked (the operator's time, docs/trust-model.md#revocation); null when it is not. */
  revokedAt?: string | null;
  revocationReason?: string | null;
}

export type KeyStatus = 'active' | 'retired' | 'revoked';

/** A key's status from its period and revocation. */
export function keyStatusOf(key: Pick<PublishedKey, 'validUntil' | 'revokedAt'>): KeyStatus {
  return key.revokedAt ? 'revoked' : key.validUntil ? 'retired' : 'active';
}

/** The raw 32-byte public key, base64url (the JWK's `x`). */
export function publicKeyX(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new Error('not an Ed25519 public key');
  return jwk.x;
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(Buffer.from(publicKeyX(publicKey), 'base64url'))
    .digest('hex')
    .slice(0, 32);
}

/** The bytes a signature covers: the document's canonical JSON without its `signature` member. */
export function signedPayload(document: object): string {
  const { signature: _signature, ...content } = document as Record<string, unknown>;
  return canonicalJson(content);
}

/** Signs a document that is not a receipt (the first log's heads): the block names the key only. */
export function signDocument<T extends object>(document: T, signer: Signer): T & { signature: SignatureBlock } {
  const value = sign(null, Buffer.from(signedPayload(document), 'utf8'), signer.privateKey).toString('base64url');
  return { ...document, signature: { alg: SIGNATURE_ALGORITHM, keyId: signer.keyId, value } };
}

/** The bytes a receipt's signature covers: its content and its block without the value. */
export function receiptSignedPayload(document: object, block: Omit<ReceiptSignatureBlock, 'value'>): string {
  const { signature: _signature, ...content } = document as Record<string, unknown>;
  const { alg, keyId, signedAt, logged } = block;
  return canonicalJson({ ...content, signature: { alg, keyId, signedAt, logged } });
}

declare const ISSUED: unique symbol;

/**
 * A receipt the service itself built (issue 34 item 5): only `buildReceipt` and
 * `buildArtifactReceipt` make one (`issued`), and only one is ever signed (`signIssued`), so an
 * object of the same shape that came from a caller and is echoed in an answer can never be
 * signed. The brand is a type, so passing anything else is a compile error, and a value: the
 * objects are kept in a WeakSet, so a cast does not get past `signIssued` either.
 */
export type Issued<T extends object> = T & { readonly [ISSUED]: true };

const issuedReceipts = new WeakSet<object>();

/** Marks a receipt the service just built as its own. Called by the receipt builders only. */
export function issued<T extends object>(receipt: T): Issued<T> {
  issuedReceipts.add(receipt);
  return receipt as Issued<T>;
}

export function isIssued(value: unknown): value is Issued<object> {
  return typeof value === 'object' && value !== null && issuedReceipts.has(value);
}

/**
 * Signs a receipt the service issued, once, at `signedAt` (the server's clock), saying whether
 * it was appended to the checkpointed log. Throws on anything the receipt builders did not make.
 */
export function signIssued<T extends object>(
  receipt: Issued<T>,
  signer: Signer,
  signedAt: Date,
  logged: boolean,
): T & { signature: ReceiptSignatureBlock } {
  if (!issuedReceipts.has(receipt)) throw new Error('only a receipt the service issued is signed');
  const block = { alg: SIGNATURE_ALGORITHM, keyId: signer.keyId, signedAt: signedAt.toISOString(), logged } as const;
  const value = sign(null, Buffer.from(receiptSignedPayload(receipt, block), 'utf8'), signer.privateKey).toString('base64url');
  return { ...receipt, signature: { ...block, value } };
}

/**
 * What a signature check found: `valid`; `invalid` (a known key, but the bytes or the value
 * differ); `unknown_key` (a key the key set does not hold); `absent`; `malformed` (a signature
 * block of the wrong shape); `unchecked` (no key set was given: a caller that checks the hashes
 * only, such as the post-run audit's own reading of a receipt); `legacy` (a receipt stored
 * before receipts were signed at issuance, served with `{ status: "legacy" }`: judged on its
 * hashes, as an unsigned one); `outside_key_period` (the block's `signedAt` is before the key's
 * `validFrom` or at or after its `validUntil`); `revoked` (signed by a revoked key at or after
 * its revocation); `revoked_without_inclusion` (signed by a revoked key before its revocation,
 * with no inclusion proof under a checkpoint made before it: a thief with the key can write any
 * `signedAt`, so only the log tells a receipt the service signed from one the thief did).
 */
export type SignatureStatus =
  | 'valid'
  | 'invalid'
  | 'unknown_key'
  | 'absent'
  | 'malformed'
  | 'unchecked'
  | 'legacy'
  | 'outside_key_period'
  | 'revoked'
  | 'revoked_without_inclusion';

export interface SignatureCheck {
  status: SignatureStatus;
  keyId: string | null;
  /** The key's published period, status and revocation, when the key is known. */
  key: { validFrom: string; validUntil: string | null; status: KeyStatus; revokedAt: string | null } | null;
  /** The block's `signedAt` (null for a block without one: a log head, an older receipt). */
  signedAt: string | null;
  /** The block's `logged`: whether the service appended the receipt to the checkpointed log (null when the block does not say). */
  logged: boolean | null;
}

export interface SignatureCheckOptions {
  /** The signed time of a checkpoint under which an inclusion proof of the document checked out. */
  includedUnderCheckpointAt?: string | null;
}

function publicKeyOf(entry: PublishedKey): KeyObject | null {
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: entry.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** The key id an untrusted document's signature block names, or null when it names none. */
export function signatureKeyIdOf(document: object): string | null {
  const block = (document as Record<string, unknown>).signature;
  if (!block || typeof block !== 'object') return null;
  const { keyId } = block as Record<string, unknown>;
  return typeof keyId === 'string' ? keyId : null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Checks the signature block of an untrusted document against a key set: the signature, then
 * the block's `signedAt` against the key's period and its revocation (docs/trust-model.md#keys).
 */
export function checkSignature(
  document: object,
  keys: readonly PublishedKey[] | undefined,
  options: SignatureCheckOptions = {},
): SignatureCheck {
  const none = { keyId: null, key: null, signedAt: null, logged: null };
  const block = (document as Record<string, unknown>).signature;
  if (block === undefined) return { status: 'absent', ...none };
  if (keys === undefined) return { status: 'unchecked', ...none };
  if (!block || typeof block !== 'object' || Array.isArray(block)) return { status: 'malformed', ...none };
  const fields = block as Record<string, unknown>;
  if (fields.status === LEGACY_SIGNATURE.status && Object.keys(fields).length === 1) return { status: 'legacy', ...none };
  const { alg, keyId, value, signedAt, logged } = fields;
  const named = { ...none, keyId: typeof keyId === 'string' ? keyId : null };
  const receiptBlock = signedAt !== undefined || logged !== undefined;
  if (alg !== SIGNATURE_ALGORITHM || typeof keyId !== 'string' || typeof value !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(value))
    return { status: 'malformed', ...named };
  if (
    receiptBlock &&
    (typeof signedAt !== 'string' || !ISO_INSTANT.test(signedAt) || Number.isNaN(Date.parse(signedAt)) || typeof logged !== 'boolean')
  )
    return { status: 'malformed', ...named };
  const entry = keys.find((k) => k.kid === keyId);
  const publicKey = entry ? publicKeyOf(entry) : null;
  if (!entry || !publicKey || keyIdOf(publicKey) !== keyId) return { status: 'unknown_key', ...named };
  const stamped = { ...named, signedAt: receiptBlock ? (signedAt as string) : null, logged: receiptBlock ? (logged as boolean) : null };
  let payload: string;
  try {
    payload = receiptBlock
      ? receiptSignedPayload(document, { alg, keyId, signedAt: signedAt as string, logged: logged as boolean })
      : signedPayload(document);
  } catch {
    return { status: 'invalid', ...stamped };
  }
  const revokedAt = entry.revokedAt ?? null;
  const key = { validFrom: entry.validFrom, validUntil: entry.validUntil, status: keyStatusOf(entry), revokedAt };
  const ok = verify(null, Buffer.from(payload, 'utf8'), publicKey, Buffer.from(value, 'base64url'));
  if (!ok) return { status: 'invalid', ...stamped, key };
  const at = stamped.signedAt === null ? null : Date.parse(stamped.signedAt);
  // The revocation first: it closes the key's period too, and a receipt signed after it is `revoked`.
  if (revokedAt !== null && at !== null && at >= Date.parse(revokedAt)) return { status: 'revoked', ...stamped, key };
  if (at !== null && (at < Date.parse(entry.validFrom) || (entry.validUntil !== null && at >= Date.parse(entry.validUntil))))
    return { status: 'outside_key_period', ...stamped, key };
  if (revokedAt !== null) {
    // A block without signedAt cannot say it came before the revocation: only the log can.
    const proven = options.includedUnderCheckpointAt;
    if (!proven || Date.parse(proven) >= Date.parse(revokedAt)) return { status: 'revoked_without_inclusion', ...stamped, key };
  }
  return { status: 'valid', ...stamped, key };
}

/** The JWK of a public key with its period. */
export function publishedKey(publicKey: KeyObject, validFrom: string, validUntil: string | null): PublishedKey {
  return { kid: keyIdOf(publicKey), kty: 'OKP', crv: 'Ed25519', x: publicKeyX(publicKey), alg: 'EdDSA', use: 'sig', validFrom, validUntil };
}

/** The versions of the receipts the service signs: Coil receipts (hrcpt_) and artifact receipts (arcpt_). */
export const SIGNED_RECEIPT_VERSIONS: ReadonlySet<string> = new Set(['svc-coil-receipt-1.0.0', 'svc-artifact-receipt-1.0.0']);

/**
 * The answer with every receipt the service issued in it signed at `signedAt`, unlogged (a
 * receipt that is logged is signed where it is stored, coil-store.ts `issueReceipt`): run on
 * the fields of an answer before the output schema copies them (procedure-kit/tool-answer.ts).
 * Only branded values (`Issued`) are signed, never an object by its shape. Returns the same
 * object when nothing was signed.
 */
export function signIssuedIn<T>(answer: T, signer: Signer, signedAt: Date): T {
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (isIssued(value)) return signIssued(value, signer, signedAt, false);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = walk(item, depth + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(record)) {
      const next = walk(item, depth + 1);
      if (next !== item) (out ??= { ...record })[key] = next;
    }
    return out ?? record;
  };
  return walk(answer, 0) as T;
}

/** Whether a value is a receipt of a signed version (for the guard that no receipt leaves unsigned). */
export function isSignedReceiptVersion(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.receiptVersion === 'string' && SIGNED_RECEIPT_VERSIONS.has(record.receiptVersion) && typeof record.receiptId === 'string'
  );
}
