/** A plan hash as the stock lane's read and reconcile routes take it: 64 hex digits. */
export const PLAN_HASH = /^[0-9a-fA-F]{64}$/;
