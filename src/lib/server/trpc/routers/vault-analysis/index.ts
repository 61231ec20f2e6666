/**
 * Free vault analysis (family `vaults`): the fee calculation, the vault risk score and the
 * side-by-side comparison that never recommends a vault. Each procedure is built from its
 * entry in the paid-service catalogue (`x402/catalogue.ts`: route, tool, texts, input, error
 * code, domain function), which sells the same answer through x402 (routers/x402/paid-call.ts); only the
 * answer's envelope is written here.
 */
import { router } from '../../init';
import { calculateFeesProcedure } from './calculate-fees';
import { riskScoreProcedure } from './risk-score';
import { compareProcedure } from './compare';

export const vaultAnalysisRouter = router({
  calculateFees: calculateFeesProcedure,
  riskScore: riskScoreProcedure,
  compare: compareProcedure,
});
