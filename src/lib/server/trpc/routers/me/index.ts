/**
 * The caller's saved Coils and receipts (interface 5, rule 2): GET /api/me/coils,
 * GET /api/me/coils/{slug}, GET /api/me/receipts, and the claim of Coils built before signing
 * in. Each needs a wallet session (401 SESSION_REQUIRED without one) and returns only rows
 * owned by that wallet, newest first, paginated with an opaque cursor.
 */
import { router } from '../../init';
import { claimCoilsProcedure } from './claim-coils';
import { claimableCoilsProcedure } from './claimable-coils';
import { coilProcedure } from './coil';
import { coilsProcedure } from './coils';
import { receiptsProcedure } from './receipts';

export const meRouter = router({
  claimableCoils: claimableCoilsProcedure,
  claimCoils: claimCoilsProcedure,
  coils: coilsProcedure,
  coil: coilProcedure,
  receipts: receiptsProcedure,
});
