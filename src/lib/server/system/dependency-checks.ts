/**
 * Live readiness of each dependency (interface 4.1 `GET /api/readiness`, the status page): what
 * a check found when it last ran, on the server's clock, kept apart from what is configured.
 * A configured dependency is `ok`, `degraded` (it answered, but not as this service needs) or
 * `down` (it did not answer, or chain 4663 is not what answered); an unconfigured one is
 * `not_configured` and never checked; a check that could not decide is `unknown`. None of them
 * is ever inferred from configuration.
 *
 * Checks are kept for a short while (`ttlMs`) so that the page and readiness do not hammer
 * the dependencies; concurrent readers share one check in flight, and every check is bounded
 * by `timeoutMs` (a check that takes longer is `down`: the dependency did not answer in time).
 */
import type { ServerTime } from '../clock';
import type { PartnerReachability } from '../partner/agent-api';
import type { Reachability } from '../x402/directory';
import type { ChainState, DatabaseProbe } from './readiness';

export type DependencyState = 'ok' | 'degraded' | 'down' | 'not_configured' | 'unknown';

export const DEPENDENCIES = ['database', 'chain', 'rateLimitStore', 'facilitator', 'partner'] as const;
export type DependencyName = (typeof DEPENDENCIES)[number];

export interface DependencyReading {
  state: DependencyState;
  /** The server's clock when the check last finished; null for a dependency that is not checked. */
  checkedAt: string | null;
  /** In the service's words: never a URL, a key, or the dependency's own text. */
  reason: string;
}

/** What one run of a check came to, on the server's clock. */
export type CheckOutcome<T> =
  | { kind: 'answered'; value: T; checkedAt: Date }
  | { kind: 'timed_out'; timeoutMs: number; checkedAt: Date }
  | { kind: 'failed'; checkedAt: Date };

export interface CheckPolicy {
  /** How long an outcome is reused. */
  ttlMs: number;
  /** How long one check may take. */
  timeoutMs: number;
  /** The server's clock (never a caller's). */
  now: () => ServerTime;
}

/** One dependency's check, run at most once per `ttlMs` and never longer than `timeoutMs`. */
export class CachedCheck<T> {
  private last?: CheckOutcome<T>;
  private running?: Promise<CheckOutcome<T>>;

  constructor(
    private readonly probe: (timeoutMs: number) => Promise<T>,
    private readonly policy: CheckPolicy,
  ) {}

  read(): Promise<CheckOutcome<T>> {
    const last = this.last;
    if (last && this.policy.now().getTime() - last.checkedAt.getTime() < this.policy.ttlMs) return Promise.resolve(last);
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<CheckOutcome<T>> {
    const { timeoutMs, now } = this.policy;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed_out'>((resolve) => {
      timer = setTimeout(() => resolve('timed_out'), timeoutMs);
    });
    let outcome: CheckOutcome<T>;
    try {
      const probing = this.probe(timeoutMs);
      // A probe that fails after its time is up has nobody left to tell.
      probing.catch(() => undefined);
      const value = await Promise.race([probing, timedOut]);
      outcome = value === 'timed_out' ? { kind: 'timed_out', timeoutMs, checkedAt: now() } : { kind: 'answered', value, checkedAt: now() };
    } catch {
      outcome = { kind: 'failed', checkedAt: now() };
    } finally {
      clearTimeout(timer);
    }
    this.last = outcome;
    return outcome;
  }
}

export const NOT_CONFIGURED: Record<DependencyName, string> = {
  database: 'the database is always configured',
  chain: 'no chain 4663 RPC is configured, so it is not checked',
  rateLimitStore: 'no shared store is configured: each instance counts its own requests in memory',
  facilitator: 'the facilitator is not configured with both a URL and a key, so it is not checked',
  partner: 'no partner API URL is configured, so it is not checked',
};

/**
 * A reading from an outcome: `answered` is judged by `judge`; a check that took too long means
 * the dependency did not answer in time; a check that failed in a way it does not classify
 * decides nothing.
 */
export function readingOf<T>(
  outcome: CheckOutcome<T>,
  judge: (value: T) => { state: 'ok' | 'degraded' | 'down'; reason: string },
): DependencyReading {
  const checkedAt = outcome.checkedAt.toISOString();
  if (outcome.kind === 'timed_out') return { state: 'down', checkedAt, reason: `no answer within ${outcome.timeoutMs} ms` };
  if (outcome.kind === 'failed') return { state: 'unknown', checkedAt, reason: 'the check itself failed, so it says nothing either way' };
  return { ...judge(outcome.value), checkedAt };
}

export const notConfigured = (name: DependencyName): DependencyReading => ({
  state: 'not_configured',
  checkedAt: null,
  reason: NOT_CONFIGURED[name],
});

export function judgeDatabase(db: DatabaseProbe): { state: 'ok' | 'degraded' | 'down'; reason: string } {
  if (!db.reachable) return { state: 'down', reason: 'the database did not answer SELECT 1' };
  if (db.migrations === 'pending')
    return { state: 'degraded', reason: `it answers, but ${db.appliedMigrations} of ${db.bundledMigrations} migrations are applied` };
  if (db.migrations === 'unknown') return { state: 'degraded', reason: 'it answers, but its migration ledger could not be read' };
  return {
    state: 'ok',
    reason:
      db.migrations === 'ahead'
        ? 'it answers; it holds migrations newer than this build (a newer release migrated it)'
        : 'it answers, with every migration applied',
  };
}

export function judgeChain(state: Exclude<ChainState, 'not_configured'>): { state: 'ok' | 'down'; reason: string } {
  if (state === 'reachable') return { state: 'ok', reason: 'eth_chainId answered 4663' };
  if (state === 'wrong_chain')
    return { state: 'down', reason: 'the RPC answers another chain id, so chain 4663 cannot be read through it' };
  return { state: 'down', reason: 'the RPC did not answer eth_chainId' };
}

export function judgeRateLimitStore(state: 'redis_ok' | 'redis_unreachable'): { state: 'ok' | 'down'; reason: string } {
  return state === 'redis_ok'
    ? { state: 'ok', reason: 'Redis answered PING: the instances share one count' }
    : { state: 'down', reason: 'Redis did not answer PING: each instance counts in memory until it does' };
}

/** The facilitator's supported route as x402/directory.ts `facilitatorReachability` found it. */
export function judgeFacilitator(check: Reachability): { state: 'ok' | 'degraded' | 'down'; reason: string } {
  const status = check.httpStatus === null ? '' : ` (HTTP ${check.httpStatus})`;
  switch (check.state) {
    case 'reachable':
      return check.supportsLane
        ? { state: 'ok', reason: 'its supported route answered and lists the exact scheme on the broker chain' }
        : { state: 'degraded', reason: 'its supported route answered but does not list the exact scheme on the broker chain' };
    case 'unauthorized':
      return { state: 'degraded', reason: `its supported route refused the configured key${status}` };
    case 'http_error':
      return { state: 'degraded', reason: `its supported route answered an error${status}` };
    case 'invalid_answer':
      return { state: 'degraded', reason: 'its supported route answered something that is not its documented JSON' };
    case 'timeout':
      return { state: 'down', reason: 'its supported route did not answer in time' };
    case 'unreachable':
      return { state: 'down', reason: 'its supported route could not be reached' };
    case 'not_checked':
      return { state: 'down', reason: 'its configured address is not an http(s) URL, so there is nothing to call' };
  }
}

export function judgePartner(check: PartnerReachability): { state: 'ok' | 'degraded' | 'down'; reason: string } {
  if (check.state !== 'answered')
    return { state: 'down', reason: check.state === 'timeout' ? 'its API did not answer in time' : 'its API could not be reached' };
  // The check carries no key and no caller data, so any answer short of a server error shows
  // that the API is up; whether the key works is not asked.
  return check.httpStatus >= 500
    ? { state: 'degraded', reason: `its API answered HTTP ${check.httpStatus}` }
    : { state: 'ok', reason: `its API answered (HTTP ${check.httpStatus}) a request that carried no key and no caller data` };
}

/**
 * The overall state: `not_ready` unless the database is `ok` (nothing works without it),
 * `degraded` while any configured dependency is not `ok`, else `ready`.
 */
export function overallReadiness(readings: Record<DependencyName, DependencyReading>): 'ready' | 'degraded' | 'not_ready' {
  if (readings.database.state !== 'ok') return 'not_ready';
  const others = DEPENDENCIES.filter((d) => d !== 'database').map((d) => readings[d].state);
  return others.every((s) => s === 'ok' || s === 'not_configured') ? 'ready' : 'degraded';
}
