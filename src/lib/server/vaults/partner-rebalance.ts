/**
 * A `vault_operator_rebalance` plan for the partner rail (interface 2.8, 4.5): the intent is
 * validated exactly like every stock intent (its explicit venue included) and planned with
 * the stock lane's own plan and command pack, for a registered vault. It can never be
 * submitted through this service: submit answers 403 VAULT_REBALANCE_NOT_ALLOWED_HERE, and
 * the plan says so. Nothing is recorded and nobody is contacted.
 */
import { SvcError } from '../errors';
import { buildPlan } from '../stocks/plan';
import { validateStockIntent, type StockIntentInput } from '../stocks/intent';
import { requireVault, V2_VAULT_SLUG } from './registry';
import { REBALANCING_POLICY_REASON } from './v2-status';

export interface PartnerRebalanceDeps {
  now: Date;
  /** PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD */
  notionalCapUsd: number;
}

export function prepareVaultPartnerRebalance(input: { intent: StockIntentInput; vaultId?: string }, deps: PartnerRebalanceDeps) {
  const vaultId = input.vaultId ?? V2_VAULT_SLUG;
  const vault = requireVault(vaultId, 'vaultId');
  const { intent, target } = validateStockIntent(input.intent, { maxNotionalUsd: deps.notionalCapUsd });
  if (intent.mode !== 'vault_operator_rebalance') {
    throw new SvcError(
      'VAULT_REBALANCE_MODE_REQUIRED',
      'A vault partner rebalance plan is a vault_operator_rebalance intent; a personal trade is prepared with POST /api/stocks/prepare-partner-command',
      {
        issues: [{ code: 'VAULT_REBALANCE_MODE_REQUIRED', message: 'set intent.mode to vault_operator_rebalance', path: 'intent.mode' }],
      },
    );
  }
  const prepared = buildPlan(intent, target, deps.now, { notionalCapUsd: deps.notionalCapUsd });
  return {
    ...prepared,
    vault: { slug: vault.slug, address: vault.address, generation: vault.generation },
    submittable: false as const,
    submitRefusal: {
      route: 'POST /api/stocks/submit-partner-intent',
      status: 403 as const,
      code: 'VAULT_REBALANCE_NOT_ALLOWED_HERE' as const,
      reason:
        'A vault_operator_rebalance intent is never submitted through this service; it stays a prepared plan the vault operator reviews.',
    },
    rebalanceLane: { name: 'chunked_rebalance' as const, state: 'inactive_by_owner_policy' as const, reason: REBALANCING_POLICY_REASON },
    executable: false as const,
    requiresOperatorApproval: true as const,
    svcExecutesTrade: false as const,
    partnerContacted: false as const,
  };
}
