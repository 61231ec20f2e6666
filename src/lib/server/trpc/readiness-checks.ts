/**
 * The live checks readiness reports (system/dependency-checks.ts says what each state means),
 * built from the configuration: one set per configuration, kept for the life of the process,
 * so every request of a process shares the same cached outcomes. Each check asks only its
 * dependency's cheapest question: SELECT 1 and the migration ledger; eth_chainId; PING; the
 * facilitator's supported route (with its key); a GET of the partner's base URL (no key, no
 * caller data).
 */
import { readServerClock } from '../clock';
import { brokerChainClient } from '../chain-client';
import type { ServiceConfig } from '../config';
import { getDb, providerOf } from '../db/client';
import { migrationState } from '../db/migrate';
import { rateLimitStoreState } from '../rate-limit/counters';
import { checkPartnerReachable, type PartnerReachability } from '../partner/agent-api';
import {
  CachedCheck,
  judgeChain,
  judgeDatabase,
  judgeFacilitator,
  judgePartner,
  judgeRateLimitStore,
  notConfigured,
  readingOf,
  type CheckOutcome,
  type CheckPolicy,
  type DependencyName,
  type DependencyReading,
} from '../system/dependency-checks';
import { probeChain, type ChainState, type DatabaseProbe } from '../system/readiness';
import { facilitatorReachability, type Reachability } from '../x402/directory';
import { facilitatorClient } from '../x402/facilitator-client';
import { facilitatorSettingsFrom } from '../x402/lanes';

type RedisState = 'redis_ok' | 'redis_unreachable';

interface ReadinessChecks {
  database: CachedCheck<DatabaseProbe>;
  chain: CachedCheck<Exclude<ChainState, 'not_configured'>> | null;
  rateLimitStore: CachedCheck<RedisState> | null;
  facilitator: CachedCheck<Reachability> | null;
  partner: CachedCheck<PartnerReachability> | null;
}

async function probeDatabase(databaseUrl: string): Promise<DatabaseProbe> {
  const provider = providerOf(databaseUrl);
  const db = getDb();
  try {
    await db.$queryRawUnsafe('SELECT 1');
  } catch {
    return { provider, reachable: false, migrations: 'unknown', appliedMigrations: 0, bundledMigrations: 0 };
  }
  const m = await migrationState((sql) => db.$queryRawUnsafe(sql), provider);
  return { provider, reachable: true, migrations: m.state, appliedMigrations: m.applied, bundledMigrations: m.bundled };
}

function checksFor(cfg: ServiceConfig): ReadinessChecks {
  const policy: CheckPolicy = {
    ttlMs: cfg.readinessChecks.ttlSeconds * 1000,
    timeoutMs: cfg.readinessChecks.timeoutMs,
    now: readServerClock,
  };
  const chain = brokerChainClient(cfg);
  const { facilitator, partner } = cfg;
  return {
    database: new CachedCheck(() => probeDatabase(cfg.databaseUrl), policy),
    chain: chain
      ? new CachedCheck(async () => {
          const { state } = await probeChain(chain);
          return state === 'not_configured' ? 'unreachable' : state;
        }, policy)
      : null,
    rateLimitStore: cfg.redisUrl
      ? new CachedCheck(async () => {
          const state = await rateLimitStoreState();
          return state === 'memory' ? 'redis_unreachable' : state;
        }, policy)
      : null,
    facilitator:
      facilitator.apiKey && facilitator.url
        ? new CachedCheck(
            (timeoutMs) =>
              facilitatorReachability(
                facilitatorSettingsFrom(facilitator),
                facilitatorClient({
                  url: facilitator.url!,
                  apiKey: facilitator.apiKey!,
                  timeoutMs: Math.min(facilitator.timeoutMs, timeoutMs),
                }),
              ),
            policy,
          )
        : null,
    partner: partner.apiUrl
      ? new CachedCheck((timeoutMs) => checkPartnerReachable(partner.apiUrl!, Math.min(partner.timeoutMs, timeoutMs)), policy)
      : null,
  };
}

const checksOf = new WeakMap<ServiceConfig, ReadinessChecks>();

const answered = <T>(outcome: CheckOutcome<T> | null): T | undefined => (outcome?.kind === 'answered' ? outcome.value : undefined);

/** Every dependency's reading, and the detailed states readiness has always reported, from the same checks. */
export async function readDependencies(cfg: ServiceConfig) {
  let checks = checksOf.get(cfg);
  if (!checks) {
    checks = checksFor(cfg);
    checksOf.set(cfg, checks);
  }
  const [database, chain, rateLimitStore, facilitator, partner] = await Promise.all([
    checks.database.read(),
    checks.chain?.read() ?? null,
    checks.rateLimitStore?.read() ?? null,
    checks.facilitator?.read() ?? null,
    checks.partner?.read() ?? null,
  ]);
  const readings: Record<DependencyName, DependencyReading> = {
    database: readingOf(database, judgeDatabase),
    chain: chain ? readingOf(chain, judgeChain) : notConfigured('chain'),
    rateLimitStore: rateLimitStore ? readingOf(rateLimitStore, judgeRateLimitStore) : notConfigured('rateLimitStore'),
    facilitator: facilitator ? readingOf(facilitator, judgeFacilitator) : notConfigured('facilitator'),
    partner: partner ? readingOf(partner, judgePartner) : notConfigured('partner'),
  };
  return {
    readings,
    database: answered(database) ?? {
      provider: providerOf(cfg.databaseUrl),
      reachable: false,
      migrations: 'unknown' as const,
      appliedMigrations: 0,
      bundledMigrations: 0,
    },
    chain: chain ? (answered(chain) ?? 'unreachable') : ('not_configured' as const),
    rateLimitStore: rateLimitStore ? (answered(rateLimitStore) ?? 'redis_unreachable') : ('memory' as const),
  };
}
