/** GET /api/agents/schema: the index of agent workflows (endpoints, env-gate names, truth rules, MCP tools, rail ids). */
import { z } from 'zod';
import { agentsSchema } from '../../../registry/agents';
import { agentsIndexFields } from '../../../registry/agents.schema';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { toolOfEndpoint } from '../../mcp-tools';

export const agentsSchemaProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    openapi: rest(
      'GET',
      '/agents/schema',
      'Index of agent workflows: endpoints, env-gate names (never values), truth rules, MCP tools, rail ids',
    ),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(stampedOutput(agentsIndexFields))
  .query(() => agentsSchema(toolOfEndpoint()));
