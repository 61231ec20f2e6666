/** The service's readiness (system/readiness.ts, system/dependency-checks.ts) as GET /api/readiness shows it. */
import { z } from 'zod';

const dependencyReadingOut = z.object({
  state: z.enum(['ok', 'degraded', 'down', 'not_configured', 'unknown']),
  checkedAt: z.string().nullable().describe("the server's clock when the check last finished; null when it is not checked"),
  reason: z.string(),
});

export const readinessOut = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  answeredAt: z.string().describe('the time of this answer (nowIso pins it; it never pins a check)'),
  checks: z.object({
    cachedForSeconds: z.number().int().describe('how long a check outcome is reused before the dependency is asked again'),
    timeoutMs: z.number().int().describe('how long one check may take; a dependency that has not answered by then is down'),
  }),
  dependencies: z.object({
    database: dependencyReadingOut,
    chain: dependencyReadingOut,
    rateLimitStore: dependencyReadingOut,
    facilitator: dependencyReadingOut,
    partner: dependencyReadingOut,
  }),
  database: z.object({
    provider: z.enum(['sqlite', 'postgresql']),
    reachable: z.boolean(),
    migrations: z.enum(['current', 'pending', 'ahead', 'unknown']),
    appliedMigrations: z.number().int(),
    bundledMigrations: z.number().int(),
  }),
  chain: z.object({
    state: z.enum(['not_configured', 'reachable', 'wrong_chain', 'unreachable']),
    expectedChainId: z.literal(4663),
  }),
  rateLimitStore: z.enum(['memory', 'redis_ok', 'redis_unreachable']),
  x402Providers: z.object({
    partnerCloud: z.object({ configured: z.boolean(), note: z.string() }),
    facilitator: z.object({ enabled: z.boolean(), configured: z.boolean(), payToPinned: z.boolean() }),
    selfHosted: z.object({ configured: z.boolean(), note: z.string() }),
  }),
  deployment: z.object({ commit: z.string() }),
});
