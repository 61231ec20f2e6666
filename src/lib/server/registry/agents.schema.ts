/** The agent workflow index (registry/agents.ts `agentsSchema`) as answers show it. */
import { z } from 'zod';

export const agentWorkflowOut = z.object({
  id: z.string(),
  title: z.string(),
  railId: z.enum(['rail_a_vault_deposit', 'rail_b_partner_stock_token', 'rail_c_broker_wallet_external']).nullable(),
  endpoints: z.array(z.string()),
  envGates: z.array(z.string()),
  mcpTools: z.array(z.string()),
  skillPack: z.string(),
  truthRules: z.array(z.string()),
});

/** The fields of the index (the answer adds the invariants). */
export const agentsIndexFields = {
  schemaVersion: z.string(),
  rails: z.array(z.string()),
  mcpToolCount: z.number().int(),
  workflows: z.array(agentWorkflowOut),
};
