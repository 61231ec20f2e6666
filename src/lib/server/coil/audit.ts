/**
 * Risk audit: the fuses a Coil carries (declared in `fuses[]` or implied by its risk and
 * rebalance fields), which a capsule requires, which are missing, the issues found, and a
 * checksum over the fuses in canonical form.
 */
import { hashCanonical } from '../canonical';
import { FUSE_CATALOGUE, FUSE_KINDS, REQUIRED_CAPSULE_FUSES, type FuseKind, type FuseUnit } from './fuse-catalogue';
import type { Coil } from './manifest';
import type { ValidationIssue } from './validate';

export interface AuditedFuse {
  kind: FuseKind;
  label: string;
  unit: FuseUnit;
  limit: number | null;
  /** Where the fuse comes from: `fuses[i]` or the Coil field that implies it. */
  source: string;
  requiredForCapsule: boolean;
}

export interface RiskAudit {
  fuses: AuditedFuse[];
  requiredForCapsule: FuseKind[];
  missingRequired: FuseKind[];
  issues: ValidationIssue[];
  fuseChecksum: string;
}

export const AUDIT_CODES: Readonly<Record<string, ValidationIssue['severity']>> = {
  DUPLICATE_FUSE: 'error',
  FUSE_BOUNDS: 'error',
  FUSE_CONFLICT: 'error',
  MISSING_REQUIRED_FUSE: 'warning',
  CONCENTRATION: 'warning',
};

function auditIssue(code: keyof typeof AUDIT_CODES, message: string, path?: string): ValidationIssue {
  const base = { severity: AUDIT_CODES[code]!, code, message };
  return path === undefined ? base : { ...base, path };
}

/** Why a limit is out of the catalogue bounds of its kind, or undefined when it is within them. */
export function fuseBoundsProblem(kind: FuseKind, limit: number | null | undefined): string | undefined {
  const def = FUSE_CATALOGUE[kind];
  if (def.unit === 'flag') return limit === null || limit === undefined ? undefined : `${kind} is an on/off fuse and takes no limit`;
  if (limit === null || limit === undefined) return `${kind} needs a limit in ${def.unit}`;
  if (!Number.isFinite(limit) || limit < def.min! || limit > def.max!)
    return `${kind} limit ${limit} is outside ${def.min} to ${def.max} ${def.unit}`;
  if (def.unit === 'bps' || def.unit === 'seconds') {
    if (!Number.isInteger(limit)) return `${kind} limit must be an integer number of ${def.unit}`;
  }
  return undefined;
}

/** The fuses in force on a Coil, one per kind, with the problems found while collecting them. */
export function effectiveFuses(coil: Coil): { fuses: AuditedFuse[]; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const byKind = new Map<FuseKind, AuditedFuse>();
  const make = (kind: FuseKind, limit: number | null, source: string): AuditedFuse => ({
    kind,
    label: FUSE_CATALOGUE[kind].label,
    unit: FUSE_CATALOGUE[kind].unit,
    limit,
    source,
    requiredForCapsule: FUSE_CATALOGUE[kind].requiredForCapsule,
  });

  const implied: AuditedFuse[] = [make('oracleStaleness', coil.risk.oracleStalenessSeconds, 'risk.oracleStalenessSeconds')];
  if (coil.risk.maxSingleAssetWeightBps !== undefined)
    implied.push(make('singleAssetCap', coil.risk.maxSingleAssetWeightBps, 'risk.maxSingleAssetWeightBps'));
  if (coil.risk.allowNonCanonicalAssets === false) implied.push(make('canonicalAssetsOnly', null, 'risk.allowNonCanonicalAssets'));
  if (coil.rebalancePolicy.maxSlippageBps !== undefined)
    implied.push(make('maxSlippage', coil.rebalancePolicy.maxSlippageBps, 'rebalancePolicy.maxSlippageBps'));
  if (coil.rebalancePolicy.maxDailyTurnoverBps !== undefined)
    implied.push(make('maxDailyTurnover', coil.rebalancePolicy.maxDailyTurnoverBps, 'rebalancePolicy.maxDailyTurnoverBps'));
  for (const f of implied) byKind.set(f.kind, f);

  const declaredAt = new Map<FuseKind, number>();
  (coil.fuses ?? []).forEach((fuse, i) => {
    const path = `fuses[${i}]`;
    const problem = fuseBoundsProblem(fuse.kind, fuse.limit);
    if (problem) issues.push(auditIssue('FUSE_BOUNDS', problem, `${path}.limit`));
    const earlier = declaredAt.get(fuse.kind);
    if (earlier !== undefined) {
      issues.push(auditIssue('DUPLICATE_FUSE', `${fuse.kind} is already declared at fuses[${earlier}]`, path));
      return;
    }
    declaredAt.set(fuse.kind, i);
    const limit = fuse.limit ?? null;
    const existing = byKind.get(fuse.kind);
    if (existing) {
      if (existing.limit !== limit) {
        issues.push(
          auditIssue('FUSE_CONFLICT', `${fuse.kind} is ${limit} here but ${existing.limit} in ${existing.source}; the field wins`, path),
        );
      }
      return;
    }
    if (!problem) byKind.set(fuse.kind, make(fuse.kind, limit, path));
  });

  const fuses = FUSE_KINDS.filter((k) => byKind.has(k)).map((k) => byKind.get(k)!);
  return { fuses, issues };
}

/** The checksum of a fuse set: SHA-256 of the canonical JSON of `[{kind, limit}]` sorted by kind. */
export function fuseChecksumOf(fuses: readonly Pick<AuditedFuse, 'kind' | 'limit'>[]): string {
  const canonical = [...fuses]
    .map((f) => ({ kind: f.kind, limit: f.limit }))
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return hashCanonical(canonical);
}

export function riskAudit(coil: Coil): RiskAudit {
  const { fuses, issues } = effectiveFuses(coil);
  const present = new Set(fuses.map((f) => f.kind));
  const missingRequired = REQUIRED_CAPSULE_FUSES.filter((k) => !present.has(k));
  for (const kind of missingRequired) {
    issues.push(
      auditIssue(
        'MISSING_REQUIRED_FUSE',
        `${kind} is required for a capsule and is not set; a capsule fills it with a conservative default that a human must confirm`,
        'fuses',
      ),
    );
  }
  const defaultCap = FUSE_CATALOGUE.singleAssetCap.capsuleDefault!;
  if (!present.has('singleAssetCap')) {
    coil.assets.forEach((a, i) => {
      if (a.weightBps > defaultCap) {
        issues.push(
          auditIssue(
            'CONCENTRATION',
            `This asset weighs ${a.weightBps} bps, above ${defaultCap} bps, and no single-asset cap is set`,
            `assets[${i}].weightBps`,
          ),
        );
      }
    });
  }
  return {
    fuses,
    requiredForCapsule: [...REQUIRED_CAPSULE_FUSES],
    missingRequired,
    issues,
    fuseChecksum: fuseChecksumOf(fuses),
  };
}
