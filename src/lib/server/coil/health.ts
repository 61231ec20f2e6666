/**
 * Coil health: a 0 to 100 heuristic of structure and readiness. It reads only the manifest
 * (validity, canonical assets, concentration, fuses and posture, documentation) and never
 * looks at returns, prices or performance.
 */
import { checkCanonical, ORACLE_POLICY } from '../registry';
import { effectiveFuses } from './audit';
import { REQUIRED_CAPSULE_FUSES } from './fuse-catalogue';
import type { Coil } from './manifest';
import { validateCoil, type ValidationResult } from './validate';

export const HEALTH_VERSION = 'svc-coil-health-1.0.0';

export const HEALTH_COMPONENTS = ['validity', 'canonicalAssets', 'diversification', 'riskPosture', 'documentation'] as const;
export type HealthComponentName = (typeof HEALTH_COMPONENTS)[number];

export interface HealthComponent {
  name: HealthComponentName;
  points: number;
  maxPoints: number;
  explanation: string;
}

export interface CoilHealth {
  total: number;
  healthVersion: string;
  basis: 'structure_and_readiness_only';
  components: HealthComponent[];
  explanation: string;
}

export const HEALTH_MAX_POINTS: Readonly<Record<HealthComponentName, number>> = {
  validity: 30,
  canonicalAssets: 20,
  diversification: 20,
  riskPosture: 15,
  documentation: 15,
};

const HEALTH_BASIS_TEXT = 'Health measures structure and readiness only; it does not estimate returns, prices or performance.';

function validity(result: ValidationResult): HealthComponent {
  const max = HEALTH_MAX_POINTS.validity;
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  const warnings = result.issues.length - errors;
  const points = errors > 0 ? 0 : Math.max(0, max - 5 * warnings);
  const explanation =
    errors > 0
      ? `${errors} validation error(s): an invalid Coil earns no validity points`
      : warnings > 0
        ? `valid with ${warnings} warning(s), 5 points off each`
        : 'valid with no issues';
  return { name: 'validity', points, maxPoints: max, explanation };
}

function positiveWeights(coil: Coil): number[] {
  return coil.assets.map((a) => (Number.isFinite(a.weightBps) && a.weightBps > 0 ? a.weightBps : 0));
}

function canonicalAssets(coil: Coil): HealthComponent {
  const max = HEALTH_MAX_POINTS.canonicalAssets;
  const weights = positiveWeights(coil);
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return { name: 'canonicalAssets', points: 0, maxPoints: max, explanation: 'no weighted assets to check' };
  const canonical = coil.assets.reduce(
    (s, a, i) => (checkCanonical(a.ticker, a.tokenAddress).status === 'canonical' ? s + weights[i]! : s),
    0,
  );
  const points = Math.floor((max * canonical) / total);
  return {
    name: 'canonicalAssets',
    points,
    maxPoints: max,
    explanation: `${((100 * canonical) / total).toFixed(2)}% of the weight sits in canonical registry assets`,
  };
}

function diversification(coil: Coil): HealthComponent {
  const max = HEALTH_MAX_POINTS.diversification;
  const weights = positiveWeights(coil).filter((w) => w > 0);
  if (weights.length === 0) return { name: 'diversification', points: 0, maxPoints: max, explanation: 'no weighted assets' };
  const total = weights.reduce((s, w) => s + w, 0);
  if (!Number.isFinite(total))
    return { name: 'diversification', points: 0, maxPoints: max, explanation: 'the weights are not finite numbers' };
  // Shares, not squares of raw weights: an absurd weight (1e200 bps) must not overflow to NaN.
  const effective = 1 / weights.reduce((s, w) => s + (w / total) ** 2, 0);
  const points = Math.round(max * Math.min(1, (effective - 1) / 4));
  return {
    name: 'diversification',
    points,
    maxPoints: max,
    explanation: `effective number of positions ${effective.toFixed(2)} (full points from 5); concentration is a structural risk`,
  };
}

function riskPosture(coil: Coil): HealthComponent {
  const max = HEALTH_MAX_POINTS.riskPosture;
  const notes: string[] = [];
  let points = 0;
  if (coil.risk.oracleStalenessSeconds <= ORACLE_POLICY.maxStalenessSeconds) {
    points += 4;
    notes.push('oracle staleness within policy (4)');
  } else notes.push('oracle staleness above policy (0 of 4)');
  const present = new Set(effectiveFuses(coil).fuses.map((f) => f.kind));
  const covered = REQUIRED_CAPSULE_FUSES.filter((k) => present.has(k)).length;
  const fusePoints = Math.floor((7 * covered) / REQUIRED_CAPSULE_FUSES.length);
  points += fusePoints;
  notes.push(`${covered} of ${REQUIRED_CAPSULE_FUSES.length} capsule fuses set (${fusePoints} of 7)`);
  if (coil.executionMode !== 'agentic_mcp_enabled') {
    points += 2;
    notes.push(`execution mode ${coil.executionMode} keeps a human in the loop (2)`);
  } else notes.push('agentic execution mode (0 of 2)');
  const threshold = coil.rebalancePolicy.driftThresholdBps;
  if (threshold >= 100 && threshold <= 2500) {
    points += 2;
    notes.push(`drift threshold ${threshold} bps within 100 to 2500 (2)`);
  } else notes.push(`drift threshold ${threshold} bps outside 100 to 2500 (0 of 2)`);
  return { name: 'riskPosture', points, maxPoints: max, explanation: notes.join('; ') };
}

function documentation(coil: Coil): HealthComponent {
  const max = HEALTH_MAX_POINTS.documentation;
  const explained = coil.assets.filter((a) => a.rationale.trim().length >= 10).length;
  const rationalePoints = coil.assets.length ? Math.floor((9 * explained) / coil.assets.length) : 0;
  const memoPoints = coil.memo && coil.memo.title.trim() && coil.memo.body.trim() ? 4 : 0;
  const notePoints = coil.risk.notes.some((n) => n.trim()) ? 2 : 0;
  return {
    name: 'documentation',
    points: rationalePoints + memoPoints + notePoints,
    maxPoints: max,
    explanation: `${explained} of ${coil.assets.length} assets explained (${rationalePoints} of 9), memo ${memoPoints ? 'present (4)' : 'missing (0 of 4)'}, risk notes ${notePoints ? 'present (2)' : 'missing (0 of 2)'}`,
  };
}

/** Coil health 0 to 100 with each component explained. */
export function scoreCoil(coil: Coil, validation: ValidationResult = validateCoil(coil)): CoilHealth {
  const components = [validity(validation), canonicalAssets(coil), diversification(coil), riskPosture(coil), documentation(coil)];
  const total = components.reduce((s, c) => s + c.points, 0);
  return {
    total,
    healthVersion: HEALTH_VERSION,
    basis: 'structure_and_readiness_only',
    components,
    explanation: `Health ${total}/100: ${components.map((c) => `${c.name} ${c.points}/${c.maxPoints}`).join(', ')}. ${HEALTH_BASIS_TEXT}`,
  };
}

/** The strategist's `score` object (interface 2.2): total, explanation and one field per component. */
export function strategistScore(health: CoilHealth) {
  const byName = Object.fromEntries(health.components.map((c) => [c.name, c.points])) as Record<HealthComponentName, number>;
  return { total: health.total, explanation: health.explanation, ...byName };
}
