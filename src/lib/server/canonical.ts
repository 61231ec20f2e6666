/**
 * Canonical JSON (RFC 8785, JSON Canonicalization Scheme, by the `canonicalize` package) and
 * SHA-256 digests: the one place every content hash of the service is computed (Coil and
 * artifact receipts, vault manifests, rebalance policies, vault receipts, deposit-pack and
 * stock plan hashes, x402 payment receipts), so two processes, two databases or two releases
 * that see the same content produce the same digest.
 *
 * The `undefined` rule, as JSON.stringify has it: an object member whose value is `undefined`
 * is left out (an optional field that is absent and one that is explicitly undefined hash
 * alike), and an `undefined` array element is written as `null` (an array keeps its length).
 * A value with no JSON form at all (top-level `undefined`, NaN, Infinity, a lone surrogate)
 * throws rather than hashing to something. `tests/unit/canonical-hash.test.ts` pins the hashes
 * every caller produced before they shared this module; none of them may change.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The RFC 8785 text of a JSON value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no JSON representation');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 (lowercase hex) of the canonical JSON of a value. */
export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
