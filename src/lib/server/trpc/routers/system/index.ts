/** Health, readiness and the canonical registry (interface 4.1, 2.8). */
import { router } from '../../init';
import { agentsSchemaProcedure } from './agents-schema';
import { healthProcedure } from './health';
import { mcpToolsetProcedure } from './mcp-toolset';
import { readinessProcedure } from './readiness';
import { registryProcedure } from './registry';
import { resolveAssetProcedure } from './resolve-asset';

export const systemRouter = router({
  health: healthProcedure,
  readiness: readinessProcedure,
  registry: registryProcedure,
  resolveAsset: resolveAssetProcedure,
  mcpToolset: mcpToolsetProcedure,
  agentsSchema: agentsSchemaProcedure,
});
