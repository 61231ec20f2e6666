/**
 * x402 payment lanes (interface 4.4, 4.8, 5.6): the lane schema and provider directory, the
 * facilitator status and settlement routes, and the paid vault services with their
 * requirements, 402 challenges and payment receipts. Thin: the domain lives in
 * src/lib/server/x402/, persistence in db/x402-payment-repository.ts.
 */
import { router } from '../../init';
import { schemaProcedure } from './schema';
import { providersProcedure } from './providers';
import { facilitatorStatusProcedure } from './facilitator-status';
import { facilitatorSettleProcedure } from './facilitator-settle';
import { serviceRequirementsProcedure } from './service-requirements';
import { paidCallProcedure } from './paid-call';
import { receiptProcedure } from './receipt';
import { authorizationProcedure } from './authorization';

export const x402Router = router({
  schema: schemaProcedure,
  providers: providersProcedure,
  facilitatorStatus: facilitatorStatusProcedure,
  facilitatorSettle: facilitatorSettleProcedure,
  serviceRequirements: serviceRequirementsProcedure,
  paidCall: paidCallProcedure,
  receipt: receiptProcedure,
  authorization: authorizationProcedure,
});
