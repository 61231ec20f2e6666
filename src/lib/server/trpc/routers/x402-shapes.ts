/**
 * Output shapes shared by every vault and x402 router: the two chain blocks kept apart in
 * every vault and x402 response (interface 1), the source-verification entries, and the lane
 * label. Declared once, beside the functions that build them (x402/lanes.ts), whose types
 * are these schemas' inferred types; re-exported here for the routers.
 */
export {
  chainBlockFields,
  laneSelectionSchema,
  sourceVerificationEntrySchema,
  sourceVerificationSchema,
  vaultChainSchema,
  x402PaymentChainSchema,
} from '../../x402/lanes';
