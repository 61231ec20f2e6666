export { canonicalJson, hashCanonical, sha256Hex } from '../canonical';
export {
  buildReceipt,
  coilIdOf,
  manifestHashOf,
  receiptIdOf,
  verifyReceipt,
  weightsChecksumOf,
  RECEIPT_KINDS,
  RECEIPT_VERSION,
  COMPILER_VERSION,
  type Receipt,
  type ReceiptKind,
  type Verification,
} from './receipt';
export { renderProvenance, type LineageNode, type Provenance } from './provenance';
export { computePassport, PASSPORT_COMPONENTS, PASSPORT_POLICY_VERSION, type Passport, type PassportStats } from './passport';
export {
  resolveForkParent,
  LINEAGE_ERROR,
  COIL_FORK_PATHS,
  type ForkParentStore,
  type ForkReference,
  type ForkReferencePaths,
} from './lineage';
export {
  buildArtifactReceipt,
  verifyArtifactReceipt,
  artifactReceiptIdOf,
  ARTIFACT_RECEIPT_KINDS,
  ARTIFACT_RECEIPT_VERSION,
  type ArtifactReceipt,
  type ArtifactReceiptKind,
  type ArtifactVerification,
} from './artifact';
