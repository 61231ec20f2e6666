/**
 * Autonomy validation (`POST /api/partnerbot/validate-autonomy`): a Coil, the autonomy mode,
 * the fuse set an agent will run under and the live-autonomy acknowledgment, checked
 * together. The answer is issues plus a gate for the requested mode; it never rewrites a
 * value: a missing fuse is missing, a widened fuse is reported and the Coil's tighter value
 * stays in force, and nothing is clamped into range.
 *
 * The fuse set in force is the Coil's own fuses, tightened (never loosened) by the fuses the
 * caller adds: strictest wins.
 */
import { effectiveFuses, fuseBoundsProblem, fuseChecksumOf } from '../coil/audit';
import { FUSE_CATALOGUE, FUSE_KINDS, REQUIRED_AUTONOMY_FUSES, widensFuse, type FuseKind, type FuseUnit } from '../coil/fuse-catalogue';
import type { Coil, Fuse } from '../coil/manifest';
import { validateCoil, type ValidationIssue } from '../coil/validate';
import { checkCanonical } from '../registry';
import {
  AUTONOMY_MODE_MEANING,
  DEFAULT_AUTONOMY_MODE,
  HIGHEST_MODE_FOR_EXECUTION_MODE,
  checkLiveAutonomyAck,
  modeRank,
  type AutonomyMode,
} from './modes';
import type { ServerTime } from '../clock';

export interface AutonomyRequest {
  autonomyMode?: AutonomyMode;
  /** Fuses the agent will run under, on top of the Coil's own (they may only tighten them). */
  fuses?: readonly Fuse[];
  liveAutonomyAck?: Record<string, unknown>;
}

export interface AutonomyFuse {
  kind: FuseKind;
  unit: FuseUnit;
  limit: number | null;
  /** `coil.<field>` for the Coil's own fuse, `fuses[i]` for one the caller added or tightened. */
  source: string;
}

export interface AutonomyGate {
  verdict: 'ready' | 'blocked';
  mode: AutonomyMode;
  /** What the requested mode still needs, one name per unmet requirement. */
  missing: string[];
  meaning: string;
}

export interface AutonomyEvaluation {
  mode: AutonomyMode;
  issues: ValidationIssue[];
  gate: AutonomyGate;
  fuses: AutonomyFuse[];
  fuseChecksum: string;
}

/** Issue codes of the autonomy validation beyond the Coil's own (documented in the README). */
export const AUTONOMY_ISSUE_CODES = [
  'AUTONOMY_FUSE_MISSING',
  'AUTONOMY_FUSE_WIDENED',
  'AUTONOMY_FUSE_CONFLICT',
  'AUTONOMY_MODE_ABOVE_EXECUTION_MODE',
  'AUTONOMY_ASSET_NOT_TRADABLE',
  'FUSE_BOUNDS',
  'DUPLICATE_FUSE',
  'LIVE_ACK_REQUIRED',
  'LIVE_ACK_STATEMENT_NOT_TRUE',
  'LIVE_ACK_UNKNOWN_FIELD',
  'LIVE_ACK_TIMESTAMP_INVALID',
  'LIVE_ACK_IN_FUTURE',
  'LIVE_ACK_EXPIRED',
  'LIVE_ACK_NOT_USED',
] as const;

interface Finding extends ValidationIssue {
  /** The requirement an error leaves unmet (the gate's `missing` entry). */
  requirement?: string;
}

const error = (code: string, message: string, path: string | undefined, requirement: string): Finding => ({
  severity: 'error',
  code,
  message,
  ...(path ? { path } : {}),
  requirement,
});

/** The Coil's fuses tightened by the caller's, with every problem found on the way. */
function mergeFuses(coil: Coil, added: readonly Fuse[]): { fuses: Map<FuseKind, AutonomyFuse>; findings: Finding[] } {
  const findings: Finding[] = [];
  const own = effectiveFuses(coil);
  for (const i of own.issues.filter((x) => x.severity === 'error')) {
    findings.push({ ...i, ...(i.path ? { path: `coil.${i.path}` } : {}), requirement: 'coil_fuses_well_formed' });
  }
  const fuses = new Map<FuseKind, AutonomyFuse>(
    own.fuses.map((f) => [f.kind, { kind: f.kind, unit: f.unit, limit: f.limit, source: `coil.${f.source}` }]),
  );
  const seen = new Map<FuseKind, number>();
  added.forEach((fuse, i) => {
    const path = `fuses[${i}]`;
    const limit = fuse.limit ?? null;
    const problem = fuseBoundsProblem(fuse.kind, limit);
    if (problem) return findings.push(error('FUSE_BOUNDS', problem, `${path}.limit`, 'fuses_well_formed'));
    const first = seen.get(fuse.kind);
    if (first !== undefined)
      return findings.push(error('DUPLICATE_FUSE', `${fuse.kind} is already given at fuses[${first}]`, path, 'fuses_well_formed'));
    seen.set(fuse.kind, i);
    const existing = fuses.get(fuse.kind);
    if (existing && widensFuse(fuse.kind, limit, existing.limit)) {
      return findings.push(
        error(
          'AUTONOMY_FUSE_WIDENED',
          `${fuse.kind} ${limit} ${FUSE_CATALOGUE[fuse.kind].unit} is looser than the Coil's ${existing.limit} (${existing.source}); a fuse may only be tightened, and the Coil's value stays in force`,
          `${path}.limit`,
          `fuse_not_widened:${fuse.kind}`,
        ),
      );
    }
    if (!existing || (existing.limit !== null && limit !== null && limit < existing.limit)) {
      fuses.set(fuse.kind, { kind: fuse.kind, unit: FUSE_CATALOGUE[fuse.kind].unit, limit, source: path });
    }
  });
  return { fuses, findings };
}

/** Validates a Coil for the autonomy path; `serverTime` is the server's clock (the acknowledgment's age). */
export function validateAutonomy(coil: Coil, request: AutonomyRequest, serverTime: ServerTime): AutonomyEvaluation {
  const mode = request.autonomyMode ?? DEFAULT_AUTONOMY_MODE;
  const findings: Finding[] = [];

  for (const i of validateCoil(coil).issues) {
    findings.push({
      ...i,
      ...(i.path ? { path: `coil.${i.path}` } : {}),
      ...(i.severity === 'error' ? { requirement: 'coil_valid' } : {}),
    });
  }

  coil.assets.forEach((asset, i) => {
    const check = checkCanonical(asset.ticker, asset.tokenAddress);
    const tradable = check.status === 'canonical' && check.asset.kind !== 'wrapped_native';
    if (!tradable && (check.status === 'canonical' || check.status === 'unknown_address')) {
      findings.push(
        error(
          'AUTONOMY_ASSET_NOT_TRADABLE',
          'the autonomy path holds canonical stock and ETF tokens (and USDG as cash) only',
          `coil.assets[${i}].tokenAddress`,
          'canonical_assets_only',
        ),
      );
    }
  });

  const merged = mergeFuses(coil, request.fuses ?? []);
  findings.push(...merged.findings);
  for (const kind of REQUIRED_AUTONOMY_FUSES) {
    if (!merged.fuses.has(kind)) {
      findings.push(
        error(
          'AUTONOMY_FUSE_MISSING',
          `${kind} is a mandatory autonomy fuse (${FUSE_CATALOGUE[kind].label}); it has no default on this path`,
          'fuses',
          `fuse:${kind}`,
        ),
      );
    }
  }
  const single = merged.fuses.get('maxSingleOrderNotional')?.limit;
  const total = merged.fuses.get('maxTotalNotional')?.limit;
  if (single != null && total != null && single > total) {
    findings.push(
      error(
        'AUTONOMY_FUSE_CONFLICT',
        `maxSingleOrderNotional ${single} USD is above maxTotalNotional ${total} USD: one order cannot exceed the run`,
        'fuses',
        'fuses_consistent',
      ),
    );
  }

  const highest = HIGHEST_MODE_FOR_EXECUTION_MODE[coil.executionMode];
  if (modeRank(mode) > modeRank(highest)) {
    findings.push(
      error(
        'AUTONOMY_MODE_ABOVE_EXECUTION_MODE',
        `The Coil's executionMode ${coil.executionMode} allows at most ${highest}; ${mode} would go further than the Coil says`,
        'autonomyMode',
        'coil_execution_mode_allows_mode',
      ),
    );
  }

  if (mode === 'live_candidate') {
    for (const i of checkLiveAutonomyAck(request.liveAutonomyAck, serverTime))
      findings.push(error(i.code, i.message, i.path, 'live_autonomy_ack'));
  } else if (request.liveAutonomyAck !== undefined) {
    findings.push({
      severity: 'warning',
      code: 'LIVE_ACK_NOT_USED',
      message: `the acknowledgment is read only for live_candidate; in ${mode} mode it is not checked and grants nothing`,
      path: 'liveAutonomyAck',
    });
  }

  const missing = [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.requirement!))];
  const fuses = FUSE_KINDS.filter((k) => merged.fuses.has(k)).map((k) => merged.fuses.get(k)!);
  return {
    mode,
    issues: findings.map(({ requirement: _r, ...issue }) => issue),
    gate: { verdict: missing.length ? 'blocked' : 'ready', mode, missing, meaning: AUTONOMY_MODE_MEANING[mode] },
    fuses,
    fuseChecksum: fuseChecksumOf(fuses),
  };
}

/** The limit of a fuse in force, or undefined when the set has none of that kind. */
export function fuseLimit(fuses: readonly Pick<AutonomyFuse, 'kind' | 'limit'>[], kind: FuseKind): number | null | undefined {
  const f = fuses.find((x) => x.kind === kind);
  return f ? f.limit : undefined;
}
