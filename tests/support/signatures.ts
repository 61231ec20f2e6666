/**
 * Receipts are signed once, at issuance, at the server's clock (issue 36 item 3): the same
 * request and `nowIso` give the same receipt body and id, and only the signature block (its
 * `signedAt` and value) differs between two issuances. Tests of determinism compare answers
 * with every signature block taken out, and check the blocks apart.
 */

/** A deep copy of `value` without the `signature` member of any object that has one. */
export function withoutSignatures<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutSignatures(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== 'signature')
      .map(([key, item]) => [key, withoutSignatures(item)]),
  ) as T;
}

/** An answer's text with its signature blocks taken out, for byte-for-byte comparisons. */
export function textWithoutSignatures(text: string): string {
  return JSON.stringify(withoutSignatures(JSON.parse(text) as unknown));
}
