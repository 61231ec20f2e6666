/** GET /api/readiness: whether each dependency answers now (states only). */
import { overallReadiness } from '../../../system/dependency-checks';
import { deploymentCommit, x402ProviderStates } from '../../../system/readiness';
import { readinessOut } from '../../../system/readiness.schema';
import { publicProcedure, rest } from '../../init';
import { readDependencies } from '../../readiness-checks';
import { clockOnlyInput } from './meta';

export const readinessProcedure = publicProcedure
  .meta({
    family: 'system',
    openapi: rest('GET', '/readiness', 'Production readiness: database, chain, x402 providers, deployment commit (states only)'),
  })
  .input(clockOnlyInput)
  .output(readinessOut)
  .query(async ({ ctx }) => {
    const { readings, database, chain, rateLimitStore } = await readDependencies(ctx.config);
    return {
      status: overallReadiness(readings),
      answeredAt: ctx.answerTime.toISOString(),
      checks: { cachedForSeconds: ctx.config.readinessChecks.ttlSeconds, timeoutMs: ctx.config.readinessChecks.timeoutMs },
      dependencies: readings,
      database,
      chain: { state: chain, expectedChainId: 4663 as const },
      rateLimitStore,
      x402Providers: x402ProviderStates(ctx.config),
      deployment: { commit: deploymentCommit(ctx.config.deployCommit) },
    };
  });
