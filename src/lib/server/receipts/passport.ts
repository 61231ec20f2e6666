/**
 * Agent passport (interface 2.6): a 0 to 1000 reputation heuristic from capped points. The caps
 * are this service's policy `passport-policy-1.0.0`:
 *
 *   manifests coiled   6 points each, capped at 300 (50 manifests)
 *   forks received     5 points each, capped at 250 (50 forks)
 *   average score      Coil health 0-100 scaled to 0-200 (x2), capped at 200
 *   receipts           2 points each, capped at 250 (125 receipts)
 *
 * The caps sum to 1000. It measures activity and Coil structure, never returns.
 */

export const PASSPORT_POLICY_VERSION = 'passport-policy-1.0.0' as const;

export const PASSPORT_COMPONENTS = {
  manifestsCoiled: { multiplier: 6, cap: 300, description: 'distinct manifests this agent coiled, 6 points each' },
  forksReceived: { multiplier: 5, cap: 250, description: 'distinct forks of those manifests, 5 points each' },
  averageScore: { multiplier: 2, cap: 200, description: 'average Coil health (0-100) of those manifests, scaled to 0-200' },
  receipts: { multiplier: 2, cap: 250, description: 'distinct receipts issued for those manifests, 2 points each' },
} as const;

export type PassportComponentName = keyof typeof PASSPORT_COMPONENTS;

export interface PassportStats {
  manifestsCoiled: number;
  forksReceived: number;
  /** null when the agent has no Coil: unknown, never 0. */
  averageScore: number | null;
  receipts: number;
}

export interface PassportComponent {
  name: PassportComponentName;
  value: number | null;
  multiplier: number;
  cap: number;
  points: number;
  capped: boolean;
  description: string;
}

export interface Passport {
  agentId: string;
  agentKind: 'strategist' | 'wallet';
  policyVersion: typeof PASSPORT_POLICY_VERSION;
  reputation: number;
  maxReputation: 1000;
  components: PassportComponent[];
  asOf: string;
  basis: string;
}

export function computePassport(agentId: string, agentKind: Passport['agentKind'], stats: PassportStats, now: Date): Passport {
  const components = (Object.keys(PASSPORT_COMPONENTS) as PassportComponentName[]).map((name) => {
    const def = PASSPORT_COMPONENTS[name];
    const value = stats[name];
    const raw = value === null ? 0 : Math.round(value * def.multiplier * 100) / 100;
    const points = Math.min(def.cap, raw);
    return { name, value, multiplier: def.multiplier, cap: def.cap, points, capped: raw > def.cap, description: def.description };
  });
  const reputation = Math.round(components.reduce((s, c) => s + c.points, 0));
  return {
    agentId,
    agentKind,
    policyVersion: PASSPORT_POLICY_VERSION,
    reputation: Math.min(1000, reputation),
    maxReputation: 1000,
    components,
    asOf: now.toISOString(),
    basis: 'Computed from stored Coils and receipts. A heuristic of activity and Coil structure; it says nothing about returns.',
  };
}
