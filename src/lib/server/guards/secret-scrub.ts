/**
 * Last line of defence for server-only configuration values (PARTNER_API_KEY,
 * FACILITATOR_API_KEY, BROKER_CHAIN_RPC_URL, DATABASE_URL): no code path should ever
 * put them in a response or a log line, and this scrub makes sure none does.
 */
export const REDACTED = '[redacted]';

function forms(secret: string): string[] {
  const jsonEscaped = JSON.stringify(secret).slice(1, -1);
  return jsonEscaped === secret ? [secret] : [secret, jsonEscaped];
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
