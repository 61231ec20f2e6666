/**
 * Former home of the receipt shapes; they now live in receipts/artifact.schema.ts and
 * receipts/signature.schema.ts. Kept as re-exports only for the rail routers that still import
 * them from here (autonomy, partnerbot, stocks, vault-rail), until their own move.
 */
export { artifactReceiptOut, artifactVerificationOut, pathBindingOut, pathReceiptOut, receiptInput } from '../../receipts/artifact.schema';
export { signatureBlockOut, signatureCheckOut } from '../../receipts/signature.schema';
