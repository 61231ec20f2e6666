/**
 * Last line of defence for server-only configuration values (PARTNER_API_KEY,
 * FACILITATOR_API_KEY, BROKER_CHAIN_RPC_URL, DATABASE_URL): no code path should ever
 * put them in a response or a log line, and this scrub makes sure none does.
 */
export const REDACTED = '[redacted]';

/** The forms of each secret, computed once: the check runs on every string of every answer. */
const formsOf = new Map<string, readonly string[]>();

function forms(secret: string): readonly string[] {
  let known = formsOf.get(secret);
  if (!known) {
    const jsonEscaped = JSON.stringify(secret).slice(1, -1);
    known = jsonEscaped === secret ? [secret] : [secret, jsonEscaped];
    // The secrets are the service's own few configuration values; the bound only guards
    // against a caller of this module passing arbitrary strings.
    if (formsOf.size < 64) formsOf.set(secret, known);
  }
  return known;
}

/** Whether any secret (raw or JSON-escaped) occurs in the text. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => forms(secret).some((form) => text.includes(form)));
}

/** Replaces every occurrence of every secret (raw or JSON-escaped) with a marker. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}
