/**
 * The service's signature on what it issues (issue 26, docs/trust-model.md): an Ed25519
 * signature over the RFC 8785 canonical JSON of a document without its `signature` member.
 *
 * Ed25519 (RFC 8032) because it is deterministic: the same key and the same bytes give the
 * same signature, so a receipt answered twice for the same request and `nowIso` stays byte
 * identical, signature block included. node:crypto signs and verifies it, so neither the
 * service nor the offline CLI needs a signing library.
 *
 *   payload   = JCS(document without "signature")
 *   signature = { alg: "Ed25519", keyId, value: base64url(Ed25519(payload)) }
 *   keyId     = first 32 hex of sha256(raw 32-byte public key)
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

export function signDocument<T extends object>(document: T, signer: Signer): T & { signature: SignatureBlock } {
  const value = sign(null, Buffer.from(signedPayload(document), 'utf8'), signer.privateKey).toString('base64url');
  return { ...document, signature: { alg: SIGNATURE_ALGORITHM, keyId: signer.keyId, value } };
}

/**
 * What a signature check found: `valid`; `invalid` (a known key, but the bytes or the value
 * differ); `unknown_key` (a key the key set does not hold); `absent`; `malformed` (a signature
 * block of the wrong shape); `unchecked` (no key set was given: a caller that checks the hashes
 * only, such as the post-run audit's own reading of a receipt).
 */
export type SignatureStatus = 'valid' | 'invalid' | 'unknown_key' | 'absent' | 'malformed' | 'unchecked';

export interface SignatureCheck {
  status: SignatureStatus;
  keyId: string | null;
  /** The key's published period, when the key is known. */
  key: { validFrom: string; validUntil: string | null } | null;
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

/** Checks the signature block of an untrusted document against a key set. */
export function checkSignature(document: object, keys: readonly PublishedKey[] | undefined): SignatureCheck {
  const block = (document as Record<string, unknown>).signature;
  if (block === undefined) return { status: 'absent', keyId: null, key: null };
  if (keys === undefined) return { status: 'unchecked', keyId: null, key: null };
  if (!block || typeof block !== 'object' || Array.isArray(block)) return { status: 'malformed', keyId: null, key: null };
  const { alg, keyId, value } = block as Record<string, unknown>;
  if (alg !== SIGNATURE_ALGORITHM || typeof keyId !== 'string' || typeof value !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(value))
    return { status: 'malformed', keyId: typeof keyId === 'string' ? keyId : null, key: null };
  const entry = keys.find((k) => k.kid === keyId);
  const publicKey = entry ? publicKeyOf(entry) : null;
  if (!entry || !publicKey || keyIdOf(publicKey) !== keyId) return { status: 'unknown_key', keyId, key: null };
  let payload: string;
  try {
    payload = signedPayload(document);
  } catch {
    return { status: 'invalid', keyId, key: null };
  }
  const ok = verify(null, Buffer.from(payload, 'utf8'), publicKey, Buffer.from(value, 'base64url'));
  return { status: ok ? 'valid' : 'invalid', keyId, key: { validFrom: entry.validFrom, validUntil: entry.validUntil } };
}

/** The JWK of a public key with its period. */
export function publishedKey(publicKey: KeyObject, validFrom: string, validUntil: string | null): PublishedKey {
  return { kid: keyIdOf(publicKey), kty: 'OKP', crv: 'Ed25519', x: publicKeyX(publicKey), alg: 'EdDSA', use: 'sig', validFrom, validUntil };
}

/**
 * The versions of the receipts the service signs: Coil receipts (hrcpt_) and artifact
 * receipts (arcpt_), the content-addressed ones. Receipts whose record changes over time
 * (a stock plan's status, a vault deposit's job) are not signed documents.
 */
export const SIGNED_RECEIPT_VERSIONS: ReadonlySet<string> = new Set(['svc-coil-receipt-1.0.0', 'svc-artifact-receipt-1.0.0']);

function isIssuedReceipt(value: Record<string, unknown>): boolean {
  return (
    typeof value.receiptVersion === 'string' && SIGNED_RECEIPT_VERSIONS.has(value.receiptVersion) && typeof value.receiptId === 'string'
  );
}

/**
 * The answer with every receipt in it signed: the one place the service signs receipts, run on
 * every answer of every door (the service middleware, trpc/init.ts), so no receipt leaves
 * unsigned and no procedure signs by hand. A receipt that already carries a signature block
 * (one a caller sent back, echoed in an answer) is left as it is. Returns the same object
 * when nothing was signed.
 */
export function signReceiptsIn<T>(answer: T, signer: Signer): T {
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
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
    const current = out ?? record;
    if (isIssuedReceipt(current) && current.signature === undefined) return signDocument(current, signer);
    return current;
  };
  return walk(answer, 0) as T;
}
