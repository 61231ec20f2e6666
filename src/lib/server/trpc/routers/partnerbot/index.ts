/**
 * The vault-deposit routes under /api/partnerbot (interface 4.6): prepare a Mode A pack, submit a
 * Mode B intent for the operator's own partner wallet, and read a deposit's status from the
 * chain. Family `autonomy` (the /api/partnerbot/* family of 4.1), stamped like every vault
 * response.
 */
import { router } from '../../init';
import { schemaProcedure } from './schema';
import { prepareCommandProcedure } from './prepare-command';
import { depositCommandProcedure } from './deposit-command';
import { importFeeClaimProcedure } from './import-fee-claim';
import { submitIntentProcedure } from './submit-intent';
import { depositStatusProcedure } from './deposit-status';

export const partnerbotRouter = router({
  schema: schemaProcedure,
  prepareCommand: prepareCommandProcedure,
  depositCommand: depositCommandProcedure,
  importFeeClaim: importFeeClaimProcedure,
  submitIntent: submitIntentProcedure,
  depositStatus: depositStatusProcedure,
});
