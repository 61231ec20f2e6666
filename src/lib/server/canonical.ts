/**
 * Canonical JSON (RFC 8785, JSON Canonicalization Scheme) and SHA-256 digests: the one place
 * every content hash of the service is computed (Coil and artifact receipts, vault manifests,
 * rebalance policies, vault receipts, deposit-pack and stock plan hashes, x402 payment
 * receipts), so two processes, two databases or two releases that see the same content
 * produce the same digest.
 *
 * The `undefined` rule, as JSON.stringify has it: an object member whose value is `undefined`
 * is left out (an optional field that is absent and one that is explicitly undefined hash
 * alike), and an `undefined` array element is written as `null` (an array keeps its length).
 * A value with no JSON form at all (top-level `undefined`, NaN, Infinity, a lone surrogate)
 * throws rather than hashing to something. `tests/unit/canonical-hash.test.ts` pins the hashes
 * every caller produced before they shared this module; none of them may change.
 */
import { createHash } from 'node:crypto';

/**
 * The RFC 8785 text of a value, or undefined when it has none (JSON.stringify's rule).
 *
 * Written here rather than taken from the `canonicalize` package, whose text and errors it
 * reproduces exactly (tests/unit/canonical-hash.test.ts compares the two on generated values):
 * the package checks every string for a lone surrogate with a JavaScript loop per character and
 * builds each array and object through intermediate arrays, which made it the largest single
 * cost of a tool call (every call hashes its Coil and stores it, its receipt and their row ids
 * as canonical JSON: about a fifth of the CPU; docs/performance.md). `isWellFormed` does the
 * check natively. Numbers are written by JSON.stringify, which is RFC 8785's number form (the
 * ECMAScript one); keys are sorted by UTF-16 code units, as `sort()` does.
 */
function canonical(value: unknown, seen: object[]): string | undefined {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) throw new Error('Lone surrogate is not allowed');
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new Error('NaN is not allowed');
    if (!Number.isFinite(value)) throw new Error('Infinity is not allowed');
    return JSON.stringify(value);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (seen.includes(value)) throw new Error('Circular reference detected');
  seen.push(value);
  let text: string | undefined;
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') {
    text = canonical((withToJson.toJSON as () => unknown)(), seen);
  } else if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text += ',';
      // An element with no JSON form is written as null, as JSON.stringify does.
      text += item === undefined || typeof item === 'symbol' ? 'null' : (canonical(item, seen) ?? '');
    }
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    text = '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      // A member with no JSON form is left out, as JSON.stringify does.
      if (item === undefined || typeof item === 'symbol') continue;
      if (!first) text += ',';
      first = false;
      text += `${canonical(key, seen)}:${canonical(item, seen)}`;
    }
    text += '}';
  }
  seen.pop();
  return text;
}

/** The RFC 8785 text of a JSON value. */
export function canonicalJson(value: unknown): string {
  const text = canonical(value, []);
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
