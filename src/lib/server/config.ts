/**
 * Typed view of the runtime contract's environment variables. Every variable is optional;
 * an unset one means "not configured" and each route says so in its own words.
 *
 * Values marked secret here are server-only: they never appear in a response or a log line
 * (see `secretValues`, which the HTTP layer and the logger scrub for).
 */
import type { StrategistProvider } from './strategist/types';
import { carriesCredentials, urlCredentials } from './url-credentials';

export type ServiceConfig = ReturnType<typeof loadConfig>;

function bool(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function int(value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`invalid integer configuration value (expected an integer >= ${min})`);
  }
  return n;
}

/** A log origin: a schema-less URL without spaces or plus (c2sp.org/tlog-checkpoint, signed-note key names). */
function receiptLogOrigin(configured: string | undefined, serviceOrigin: string): string {
  const origin = configured ?? `${serviceOrigin.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '')}/api/receipts/log`;
  if (/[\s+]/u.test(origin)) throw new Error('RECEIPT_LOG_ORIGIN must have no space and no plus');
  return origin;
}

/** MCP_ALLOWED_ORIGINS: comma-separated origins (`scheme://host[:port]`), each normalised as a URL origin. */
function originList(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(entry);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin === 'null' || (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search || parsed.hash)
      throw new Error('MCP_ALLOWED_ORIGINS must list origins (scheme://host[:port]) separated by commas');
    return parsed.origin;
  });
}

function opt(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const port = int(env.PORT, 3000, 1);
  return {
    port,
    host: opt(env.HOST) ?? '0.0.0.0',
    origin: opt(env.ORIGIN) ?? `http://localhost:${port}`,
    /** Origins besides ORIGIN and localhost at PORT whose pages may call `POST /mcp` (http/mcp-origin.ts). */
    mcpAllowedOrigins: originList(env.MCP_ALLOWED_ORIGINS),
    /**
     * Behind a proxy: the header that carries the client's address (the rate limit counts per
     * client), and for `x-forwarded-for` which entry from the right is the client's. The same
     * variables, and the same rule, as adapter-node's for the pages.
     */
    proxy: {
      addressHeader: opt(env.ADDRESS_HEADER)?.toLowerCase(),
      xffDepth: int(env.XFF_DEPTH, 1, 1),
    },
    databaseUrl: opt(env.DATABASE_URL) ?? 'file:./data/svc.db',
    /**
     * The service's Ed25519 signing key for receipts and log heads (src/lib/server/signing-key.ts):
     * a PKCS#8 PEM given by value (secret) or by file. Unset: a key made on first start and kept
     * beside the SQLite file (or in ./data on PostgreSQL).
     */
    signingKey: opt(env.SVC_SIGNING_KEY),
    signingKeyFile: opt(env.SVC_SIGNING_KEY_FILE),
    /**
     * The checkpointed receipt log (docs/trust-model.md#the-checkpointed-log): its origin line
     * (the C2SP checkpoint's first line and its note key name; default: ORIGIN without its
     * scheme, then /api/receipts/log, the log's URL prefix) and how often, at least, a new
     * checkpoint is signed while the log grows. Instances sharing a database share the origin.
     */
    receiptLog: {
      origin: receiptLogOrigin(opt(env.RECEIPT_LOG_ORIGIN), opt(env.ORIGIN) ?? `http://localhost:${port}`),
      checkpointIntervalSeconds: int(env.RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS, 60, 0),
    },
    /**
     * Bounds of every PostgreSQL pool (Prisma's and the tool calls' own): the wait for a
     * connection, and the time one statement may run before the server cancels it. A database
     * that does not answer within them is the caller's 503 DATABASE_UNAVAILABLE.
     */
    databaseTimeouts: {
      connectMs: int(env.DATABASE_CONNECT_TIMEOUT_MS, 5000, 1),
      statementMs: int(env.DATABASE_STATEMENT_TIMEOUT_MS, 5000, 1),
    },
    rateLimit: {
      max: int(env.RATE_LIMIT_MAX, 30, 1),
      windowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 300, 1),
      /** Separates the counters of deployments that share one Redis. */
      namespace: opt(env.RATE_LIMIT_NAMESPACE) ?? 'default',
    },
    redisUrl: opt(env.REDIS_URL),
    strategistProvider: parseStrategistProvider(env.STRATEGIST_PROVIDER),
    partner: {
      apiUrl: opt(env.PARTNER_API_URL),
      apiKey: opt(env.PARTNER_API_KEY),
      agentApiEnabled: bool(env.PARTNER_AGENT_API_ENABLED),
      stockTradeMaxNotionalUsd: int(env.PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD, 500, 0),
      timeoutMs: int(env.PARTNER_TIMEOUT_MS, 15000, 1),
      walletAddress: opt(env.PARTNER_WALLET_ADDRESS),
      depositExecutionEnabled: bool(env.PARTNERBOT_DEPOSIT_EXECUTION_ENABLED),
      ownerApprovedWalletDeposit: bool(env.OWNER_APPROVED_PARTNER_WALLET_DEPOSIT),
    },
    brokerChainRpcUrl: opt(env.BROKER_CHAIN_RPC_URL),
    /** Timeout of one JSON-RPC request to chain 4663 (every chain read; no retries). */
    brokerChainTimeoutMs: int(env.BROKER_CHAIN_TIMEOUT_MS, 5000, 1),
    /**
     * Readiness's live checks of the dependencies (GET /api/readiness, the status page): how
     * long a check's outcome is reused, and how long one check may take before the dependency
     * counts as down.
     */
    readinessChecks: {
      ttlSeconds: int(env.READINESS_CHECK_TTL_SECONDS, 10, 0),
      timeoutMs: int(env.READINESS_CHECK_TIMEOUT_MS, 2000, 1),
    },
    /** The deployment commit readiness reports (SVC_DEPLOY_COMMIT; the build's own when unset or malformed). */
    deployCommit: opt(env.SVC_DEPLOY_COMMIT),
    facilitator: {
      enabled: bool(env.FACILITATOR_ENABLED),
      apiKey: opt(env.FACILITATOR_API_KEY),
      url: opt(env.FACILITATOR_URL),
      network: opt(env.FACILITATOR_NETWORK),
      chainId: opt(env.FACILITATOR_CHAIN_ID),
      usdgAddress: opt(env.FACILITATOR_USDG_ADDRESS),
      address: opt(env.FACILITATOR_ADDRESS),
      payToAddress: opt(env.FACILITATOR_PAYTO_ADDRESS),
      /** Timeout of one call to the facilitator (settle or supported-networks check). */
      timeoutMs: int(env.FACILITATOR_TIMEOUT_MS, 15000, 1),
    },
  };
}

export type { StrategistProvider };

function parseStrategistProvider(value: string | undefined): StrategistProvider {
  const v = opt(value) ?? 'partner_or_mock';
  if (v === 'mock' || v === 'partner' || v === 'partner_or_mock') return v;
  throw new Error('STRATEGIST_PROVIDER must be mock, partner or partner_or_mock');
}

let cached: ServiceConfig | undefined;

/** The process-wide configuration, read once from the environment. */
export function config(): ServiceConfig {
  cached ??= loadConfig();
  return cached;
}

/** Each configuration's secrets, listed once: every answer and every log line is checked for them. */
const secretsOf = new WeakMap<ServiceConfig, string[]>();

/**
 * Configuration values that must never leave the process. Short values are skipped:
 * scrubbing a two-character string out of every response would corrupt honest output
 * and a value that short is not a meaningful secret anyway.
 */
export function secretValues(cfg: ServiceConfig = config()): readonly string[] {
  let values = secretsOf.get(cfg);
  if (!values) {
    // Whole values: the keys; the RPC URL (providers put their key in its path); the database
    // and Redis URLs (they can hold a password). Any other configured URL is a secret only when
    // it carries credentials, and so is each password on its own (a driver's error may quote
    // the password without the rest of the URL).
    const urls = [cfg.databaseUrl, process.env.DATABASE_URL, cfg.redisUrl, cfg.brokerChainRpcUrl, cfg.partner.apiUrl, cfg.facilitator.url];
    const all = [
      cfg.partner.apiKey,
      cfg.facilitator.apiKey,
      cfg.signingKey,
      cfg.brokerChainRpcUrl,
      cfg.databaseUrl,
      process.env.DATABASE_URL,
      cfg.redisUrl,
      ...urls.filter((u) => u !== undefined && carriesCredentials(u)),
      ...urls.map((u) => (u === undefined ? undefined : urlCredentials(u)?.password)),
    ];
    values = [...new Set(all.filter((v): v is string => typeof v === 'string' && v.length >= 8))];
    secretsOf.set(cfg, values);
  }
  return values;
}
