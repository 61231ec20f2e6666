/**
 * Canonical JSON (RFC 8785, JSON Canonicalization Scheme) and SHA-256 digests. Every hash a
 * receipt carries is computed here, so two processes, two databases or two releases that
 * see the same content produce the same digest.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The RFC 8785 text of a JSON value. `undefined` members are dropped first (JSON has no
 * undefined), so an optional field that is absent and one that is explicitly undefined hash
 * alike.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(dropUndefined(value));
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

function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : dropUndefined(v)));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== undefined) out[k] = dropUndefined(v);
    }
    return out;
  }
  return value;
}
