/** Coil tooling entry points (the tools API and the MCP server call these). */
export * from './manifest';
export {
  validateCoil,
  validationStatusOf,
  VALIDATION_CODES,
  type ValidationIssue,
  type ValidationResult,
  type ValidationStatus,
} from './validate';
export { scoreCoil, strategistScore, HEALTH_VERSION, type CoilHealth } from './health';
export { riskAudit, effectiveFuses, fuseChecksumOf, fuseBoundsProblem, AUDIT_CODES, type RiskAudit, type AuditedFuse } from './audit';
export {
  compileCapsule,
  requireValidCoil,
  brokeragePlanSteps,
  resolveTotalNotionalUsd,
  allocationNotionalUsd,
  CAPSULE_VERSION,
  type Capsule,
  type CapsuleOptions,
} from './capsule';
export { driftCheck, breaches, DRIFT_DISCLAIMER, ABORT_CONDITIONS, type DriftReport } from './drift';
export { buildShareCard, renderShareCardSvg, escapeXml, findPerformanceClaim, SHARE_CARD_PATH, type ShareCard } from './share-card';
export {
  FUSE_CATALOGUE,
  FUSE_KINDS,
  REQUIRED_CAPSULE_FUSES,
  REQUIRED_AUTONOMY_FUSES,
  CAPSULE_NOTIONAL_CEILING_USD,
  widensFuse,
} from './fuse-catalogue';
