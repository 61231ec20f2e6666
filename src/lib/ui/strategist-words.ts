/**
 * Who made a Coil, in words for people. The API's `fallbackReason` names configuration
 * (it is for operators and agents); a page shows what it means instead, never a setting's name.
 */

export interface ProviderMetaLike {
  provider: 'mock' | 'partner';
  usedFallback: boolean;
  fallbackReason?: string;
}

const FALLBACK_WORDS: Record<string, string> = {
  PARTNER_NOT_CONFIGURED: "the partner's agent is not connected",
  PARTNER_TIMEOUT: "the partner's agent did not answer in time",
  PARTNER_HTTP_ERROR: "the partner's agent could not be reached",
  PARTNER_INVALID_OUTPUT: "the partner's agent gave an unusable answer",
  GUARDRAIL_REJECTED: "the partner's answer was refused by the guardrails",
};

export function strategistLabel(meta: ProviderMetaLike): string {
  if (meta.provider === 'partner') return "Partner's agent";
  if (!meta.usedFallback) return 'Local strategist';
  const code = /^([A-Z_]+):/.exec(meta.fallbackReason ?? '')?.[1] ?? '';
  return `Local strategist (${FALLBACK_WORDS[code] ?? "the partner's agent did not answer"})`;
}

/** For a stored Coil, from the strategists that coiled it. */
export function coiledByLabel(coiledBy: readonly string[]): string {
  if (coiledBy.includes('partner')) return "Partner's agent";
  if (coiledBy.includes('mock')) return 'Local strategist';
  return 'Written or forked by a person (no strategist)';
}
