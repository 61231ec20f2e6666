/**
 * Former home of the oracle policy shapes; they now live in registry/oracle-policy.schema.ts.
 * Kept as re-exports only for the rail router that still imports them from here (autonomy),
 * until its own move.
 */
export { marketSessionOut, oraclePolicyOut, priceReadingOut } from '../../registry/oracle-policy.schema';
