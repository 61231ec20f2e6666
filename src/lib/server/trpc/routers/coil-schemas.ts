/**
 * Former home of the Coil output schemas; each now lives beside its domain type as
 * src/lib/server/<domain>/<thing>.schema.ts. Kept as re-exports only for the rail routers that
 * still import them from here (autonomy), until their own move; new code imports the domain file.
 */
export { coilSchema as coilOut } from '../../coil/manifest';
export { auditedFuseOut, fuseUnitOut } from '../../coil/audit.schema';
export { capsuleOut } from '../../coil/capsule.schema';
export { driftReportOut } from '../../coil/drift.schema';
export { healthOut } from '../../coil/health.schema';
export { shareCardOut } from '../../coil/share-card.schema';
export { issueOut, validationOut, validationStatusOut } from '../../coil/validation.schema';
export { passportOut } from '../../receipts/passport.schema';
export { provenanceOut } from '../../receipts/provenance.schema';
export { receiptOut, verificationOut } from '../../receipts/receipt.schema';
export { providerMetaOut, strategistScoreOut } from '../../strategist/strategist.schema';
