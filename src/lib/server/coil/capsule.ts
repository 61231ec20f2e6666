/**
 * Capsule compilation: a non-paper Coil becomes a bounded, compile-only description of what
 * the user's own tooling may do, with every fuse in force and the list of things a human
 * must still confirm. A capsule never contains an order, a quantity or a credential.
 */
import { SvcError, type ErrorIssue } from '../errors';
import { BROKER_CHAIN_ID } from '../registry';
import { hashCanonical } from '../canonical';
import { manifestHashOf, coilIdOf } from '../receipts/receipt';
import { fuseChecksumOf, riskAudit, type AuditedFuse } from './audit';
import { CAPSULE_NOTIONAL_CEILING_USD, FUSE_CATALOGUE, type FuseKind } from './fuse-catalogue';
import type { Coil, ExecutionMode } from './manifest';
import { validateCoil } from './validate';

export const CAPSULE_VERSION = 'svc-coil-capsule-1.0.0';

export interface CapsuleOptions {
  maxTotalNotionalUsd?: number;
  userAcknowledgedAgenticMode?: boolean;
}

export interface CapsuleFuse {
  kind: FuseKind;
  unit: AuditedFuse['unit'];
  limit: number | null;
  source: string;
}

export interface Capsule {
  capsuleVersion: string;
  coilId: string;
  coilSlug: string;
  manifestHash: string;
  mode: Coil['mode'];
  executionMode: ExecutionMode;
  chainId: typeof BROKER_CHAIN_ID;
  maxTotalNotionalUsd: number;
  allocations: Array<{ ticker: string; tokenAddress: string; targetWeightBps: number; notionalCeilingUsd: number }>;
  fuses: CapsuleFuse[];
  fusesDefaulted: FuseKind[];
  fuseChecksum: string;
  humanConfirmation: { required: true; mustConfirm: string[] };
  agenticModeAcknowledged: boolean;
  planSteps: string[];
  containsOrders: false;
  svcExecutes: false;
  capsuleHash: string;
}

function compileError(message: string, issues: ErrorIssue[]): SvcError {
  return new SvcError('CAPSULE_COMPILE', message, { issues });
}

/** Throws 422 `COIL_INVALID` with the validation errors when a tool needs a valid Coil. */
export function requireValidCoil(coil: Coil): void {
  const validation = validateCoil(coil);
  if (validation.valid) return;
  throw new SvcError('COIL_INVALID', 'The Coil is well-formed but invalid; validate-coil lists every issue', {
    issues: validation.issues
      .filter((i) => i.severity === 'error')
      .map((i) => (i.path ? { code: i.code, message: i.message, path: `coil.${i.path}` } : { code: i.code, message: i.message })),
  });
}

function defaultLimit(kind: FuseKind, coil: Coil, totalUsd: number): number | null {
  // The tightest cap the Coil already satisfies: no position may grow past its planned size.
  if (kind === 'singleAssetCap') return Math.max(...coil.assets.map((a) => a.weightBps));
  if (kind === 'maxSingleOrderNotional') return Math.min(FUSE_CATALOGUE.maxSingleOrderNotional.capsuleDefault!, totalUsd);
  return FUSE_CATALOGUE[kind].capsuleDefault;
}

function confirmations(executionMode: ExecutionMode, defaulted: FuseKind[]): string[] {
  const list = [
    'That every token address matches the canonical registry, in your own brokerage view.',
    'That fresh oracle prices are available for every asset; a stale price means stop.',
  ];
  if (defaulted.length) list.push(`The default values of these fuses, which the Coil did not set: ${defaulted.join(', ')}.`);
  switch (executionMode) {
    case 'paper_only':
      list.push('Nothing more: a paper_only capsule is a record, and no order follows from it.');
      break;
    case 'preview_only':
      list.push('Each previewed order in your own account; previews are never sent anywhere by this service.');
      break;
    case 'human_confirm':
      list.push('Each order, one at a time, in your own brokerage; nothing proceeds without your confirmation.');
      break;
    case 'agentic_mcp_enabled':
      list.push('The fuse set your own MCP agent must obey, and any order above the humanConfirmation threshold.');
      list.push('That you may revoke the agent at any time; this service holds no credential and places no order.');
      break;
  }
  return list;
}

/** Steps a user's own brokerage MCP could follow for a `brokerage-mcp-plan` Coil (compile-only). */
export function brokeragePlanSteps(coil: Coil): string[] {
  if (coil.mode !== 'brokerage-mcp-plan') return [];
  return [
    'Connect your own brokerage MCP in your own client; this service never sees its credentials.',
    `Check each of the ${coil.assets.length} token addresses against the canonical registry (GET /api/stocks/registry).`,
    `Check that every price feed is fresher than ${coil.risk.oracleStalenessSeconds} seconds; stop otherwise.`,
    'Compile a capsule (POST /api/tools/compile-capsule) and read what a human must still confirm.',
    'Preview each position at its target weight within the fuses; confirm each order yourself in your brokerage.',
  ];
}

/**
 * The total notional a plan may use: the option, else the Coil's maxTotalNotional fuse, else
 * the default. Refused (422 CAPSULE_COMPILE), never lowered, above the ceiling or the fuse.
 */
export function resolveTotalNotionalUsd(declaredTotal: number | undefined, optionTotal: number | undefined): number {
  const total = optionTotal ?? declaredTotal ?? FUSE_CATALOGUE.maxTotalNotional.capsuleDefault!;
  if (total > CAPSULE_NOTIONAL_CEILING_USD) {
    throw compileError(`maxTotalNotionalUsd ${total} is above the ceiling of ${CAPSULE_NOTIONAL_CEILING_USD} USD`, [
      {
        code: 'NOTIONAL_CAP_EXCEEDED',
        message: `at most ${CAPSULE_NOTIONAL_CEILING_USD} USD per capsule`,
        path: 'options.maxTotalNotionalUsd',
      },
    ]);
  }
  if (declaredTotal !== undefined && total > declaredTotal) {
    throw compileError(`maxTotalNotionalUsd ${total} is above the Coil's own maxTotalNotional fuse of ${declaredTotal} USD`, [
      {
        code: 'NOTIONAL_ABOVE_FUSE',
        message: 'lower the option or the fuse; a capsule never raises a fuse',
        path: 'options.maxTotalNotionalUsd',
      },
    ]);
  }
  return total;
}

/** An allocation's share of a total notional, rounded down to the cent (a ceiling, never more). */
export function allocationNotionalUsd(totalUsd: number, weightBps: number): number {
  return Math.floor((totalUsd * weightBps) / 100) / 100;
}

/** Compiles a capsule from a valid, non-paper Coil (interface 4.3), or throws 422. */
export function compileCapsule(coil: Coil, options: CapsuleOptions = {}): Capsule {
  requireValidCoil(coil);
  if (coil.mode === 'paper') {
    throw compileError('A paper Coil compiles to nothing: capsules are for readiness-check, brokerage-mcp-plan and live Coils', [
      { code: 'PAPER_COIL', message: 'set mode to readiness-check (or another non-paper mode) to compile a capsule', path: 'coil.mode' },
    ]);
  }
  const acknowledged = options.userAcknowledgedAgenticMode === true;
  if (coil.executionMode === 'agentic_mcp_enabled' && !acknowledged) {
    throw compileError('The agentic_mcp_enabled execution mode needs options.userAcknowledgedAgenticMode: true', [
      {
        code: 'AGENTIC_ACK_REQUIRED',
        message: 'acknowledge that your own MCP agent may act within the fuses without per-order input',
        path: 'options.userAcknowledgedAgenticMode',
      },
    ]);
  }

  const audit = riskAudit(coil);
  const fuseErrors = audit.issues.filter((i) => i.severity === 'error');
  if (fuseErrors.length) {
    throw compileError(
      'The Coil carries fuses a capsule cannot use',
      fuseErrors.map((i) => ({ code: i.code, message: i.message, ...(i.path ? { path: `coil.${i.path}` } : {}) })),
    );
  }

  const declaredTotal = audit.fuses.find((f) => f.kind === 'maxTotalNotional')?.limit ?? undefined;
  const total = resolveTotalNotionalUsd(declaredTotal, options.maxTotalNotionalUsd);

  const fuses: CapsuleFuse[] = audit.fuses
    .filter((f) => f.kind !== 'maxTotalNotional')
    .map((f) => ({ kind: f.kind, unit: f.unit, limit: f.limit, source: f.source }));
  fuses.push({
    kind: 'maxTotalNotional',
    unit: 'usd',
    limit: total,
    source:
      options.maxTotalNotionalUsd !== undefined
        ? 'options.maxTotalNotionalUsd'
        : declaredTotal !== undefined
          ? 'coil.fuses'
          : 'capsule-default',
  });
  for (const kind of audit.missingRequired) {
    fuses.push({ kind, unit: FUSE_CATALOGUE[kind].unit, limit: defaultLimit(kind, coil, total), source: 'capsule-default' });
  }
  fuses.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const fusesDefaulted = fuses.filter((f) => f.source === 'capsule-default').map((f) => f.kind);

  const manifestHash = manifestHashOf(coil);
  const body = {
    capsuleVersion: CAPSULE_VERSION,
    coilId: coilIdOf(manifestHash),
    coilSlug: coil.slug,
    manifestHash,
    mode: coil.mode,
    executionMode: coil.executionMode,
    chainId: BROKER_CHAIN_ID,
    maxTotalNotionalUsd: total,
    allocations: coil.assets.map((a) => ({
      ticker: a.ticker,
      tokenAddress: a.tokenAddress,
      targetWeightBps: a.weightBps,
      notionalCeilingUsd: allocationNotionalUsd(total, a.weightBps),
    })),
    fuses,
    fusesDefaulted,
    fuseChecksum: fuseChecksumOf(fuses),
    humanConfirmation: { required: true as const, mustConfirm: confirmations(coil.executionMode, fusesDefaulted) },
    agenticModeAcknowledged: coil.executionMode === 'agentic_mcp_enabled' && acknowledged,
    planSteps: brokeragePlanSteps(coil),
    containsOrders: false as const,
    svcExecutes: false as const,
  };
  return { ...body, capsuleHash: hashCanonical(body) };
}
