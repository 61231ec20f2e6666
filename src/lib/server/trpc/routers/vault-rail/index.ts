/**
 * Vault and partner-rail functions of the vault family (interface 4.9): the audit of a reported
 * vault rebalance, a vault_operator_rebalance plan for the partner rail (never submittable),
 * and the provider reward plan. Each procedure parses, calls one domain function of
 * src/lib/server/vaults/ and shapes the answer with the vault chain blocks.
 */
import { router } from '../../init';
import { rebalanceAuditProcedure } from './rebalance-audit';
import { partnerRebalanceProcedure } from './partner-rebalance';
import { providerRewardsProcedure } from './provider-rewards';

export const vaultRailRouter = router({
  rebalanceAudit: rebalanceAuditProcedure,
  partnerRebalance: partnerRebalanceProcedure,
  providerRewards: providerRewardsProcedure,
});
