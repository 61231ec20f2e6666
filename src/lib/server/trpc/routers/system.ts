/** Health, readiness and the canonical registry (interface 4.1, 2.8). */
import { z } from 'zod';
import { checkCanonical, findAssetByTicker, publicRegistry } from '../../registry';
import { agentsSchema } from '../../registry/agents';
import { SvcError } from '../../errors';
import { serviceHealth } from '../../system/health';
import { overallReadiness } from '../../system/dependency-checks';
import { deploymentCommit, x402ProviderStates } from '../../system/readiness';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { toolOfEndpoint } from '../mcp-tools';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION, mcpToolset, TOOLSET_HASH_META_KEY } from '../mcp-toolset';
import { readDependencies } from '../readiness-checks';

const flagsSchema = z.object({
  partnerApiConfigured: z.boolean(),
  partnerAgentApiEnabled: z.boolean(),
  partnerStockSubmitAvailable: z.boolean(),
  partnerbotDepositExecutionEnabled: z.boolean(),
  ownerApprovedPartnerWalletDeposit: z.boolean(),
  partnerWalletConfigured: z.boolean(),
  brokerChainRpcConfigured: z.boolean(),
  facilitatorEnabled: z.boolean(),
  facilitatorConfigured: z.boolean(),
  sharedRateLimitStoreConfigured: z.boolean(),
  liveOrderPlacement: z.literal(false),
  custodyHeld: z.literal(false),
});

const healthSchema = z.object({
  status: z.literal('ok'),
  service: z.string(),
  mode: z.literal('planning_only'),
  strategistProvider: z.enum(['mock', 'partner', 'partner_or_mock']),
  flags: flagsSchema,
});

const dependencyReadingSchema = z.object({
  state: z.enum(['ok', 'degraded', 'down', 'not_configured', 'unknown']),
  checkedAt: z.string().nullable().describe("the server's clock when the check last finished; null when it is not checked"),
  reason: z.string(),
});

const readinessSchema = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  answeredAt: z.string().describe('the time of this answer (nowIso pins it; it never pins a check)'),
  checks: z.object({
    cachedForSeconds: z.number().int().describe('how long a check outcome is reused before the dependency is asked again'),
    timeoutMs: z.number().int().describe('how long one check may take; a dependency that has not answered by then is down'),
  }),
  dependencies: z.object({
    database: dependencyReadingSchema,
    chain: dependencyReadingSchema,
    rateLimitStore: dependencyReadingSchema,
    facilitator: dependencyReadingSchema,
    partner: dependencyReadingSchema,
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

const assetSchema = z.object({
  ticker: z.string(),
  name: z.string(),
  kind: z.enum(['stock', 'etf', 'stablecoin', 'wrapped_native']),
  address: z.string(),
  decimals: z.number().int(),
  priceFeedAddress: z.string().nullable(),
  addressSource: z.string(),
});

const registrySchema = z.object({
  registryVersion: z.string(),
  oraclePolicyVersion: z.string(),
  chainId: z.literal(4663),
  identityRule: z.string(),
  assets: z.array(assetSchema),
});

const resolveInput = z
  .object({
    ticker: z.string().min(1).max(32).optional(),
    address: z.string().max(64).optional(),
    nowIso: nowIsoField,
  })
  .refine((v) => v.ticker !== undefined || v.address !== undefined, { message: 'give a ticker, an address or both' });

const resolveOutput = z.object({
  status: z.enum(['canonical', 'ticker_address_mismatch', 'unknown_address', 'malformed_address', 'unknown_ticker']),
  asset: assetSchema.nullable(),
  message: z.string(),
});

const workflowSchema = z.object({
  id: z.string(),
  title: z.string(),
  railId: z.enum(['rail_a_vault_deposit', 'rail_b_partner_stock_token', 'rail_c_broker_wallet_external']).nullable(),
  endpoints: z.array(z.string()),
  envGates: z.array(z.string()),
  mcpTools: z.array(z.string()),
  skillPack: z.string(),
  truthRules: z.array(z.string()),
});

export const systemRouter = router({
  health: publicProcedure
    .meta({
      family: 'system',
      staticAnswer: true,
      openapi: rest('GET', '/health', 'Service mode and feature flags (booleans only)', {
        description:
          'What this deployment is configured to do: each flag says whether something is set or switched on, never whether it answers. Whether each dependency answers right now: GET /api/readiness.',
      }),
    })
    .input(z.object({ nowIso: z.string().optional() }).optional())
    .output(healthSchema)
    .query(({ ctx }) => serviceHealth(ctx.config)),

  readiness: publicProcedure
    .meta({
      family: 'system',
      openapi: rest('GET', '/readiness', 'Production readiness: database, chain, x402 providers, deployment commit (states only)', {
        description:
          "Always answers 200. Each dependency (database, chain 4663, the shared rate-limit store, the facilitator, the partner) is checked live: ok, degraded, down, not_configured or unknown, with the server's time of its last check. A check's outcome is reused for checks.cachedForSeconds and a check is bounded by checks.timeoutMs. status is not_ready unless the database is ok, degraded while any configured dependency is not ok, else ready. A failed check is reported as failed, never as healthy, and configuration alone never makes a dependency ok.",
      }),
    })
    .input(z.object({ nowIso: z.string().optional() }).optional())
    .output(readinessSchema)
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
    }),

  registry: publicProcedure
    .meta({
      family: 'registry',
      staticAnswer: true,
      openapi: rest('GET', '/stocks/registry', 'The canonical registry of chain 4663 (public-safe)'),
    })
    .input(z.object({ nowIso: z.string().optional() }).optional())
    .output(registrySchema)
    .query(() => publicRegistry()),

  resolveAsset: publicProcedure
    .meta({
      family: 'registry',
      openapi: rest('POST', '/stocks/registry/resolve', 'Resolve an asset by ticker and/or address (the address decides)', {
        description:
          'A canonical ticker presented at another address is a mismatch, never a match. Addresses are compared case-insensitively and returned checksummed.',
      }),
    })
    .input(resolveInput)
    .output(resolveOutput)
    .mutation(({ input }) => {
      if (input.address === undefined) {
        const asset = findAssetByTicker(input.ticker!);
        return asset
          ? { status: 'canonical' as const, asset, message: `${asset.ticker} is canonical at ${asset.address}` }
          : { status: 'unknown_ticker' as const, asset: null, message: 'no canonical asset has this ticker' };
      }
      const check = checkCanonical(input.ticker, input.address);
      switch (check.status) {
        case 'canonical':
          return { status: check.status, asset: check.asset, message: `${check.asset.ticker} is canonical at ${check.asset.address}` };
        case 'ticker_address_mismatch':
          return {
            status: check.status,
            asset: check.asset,
            message: `${check.asset.ticker} is canonical only at ${check.asset.address}; the given address is not it`,
          };
        case 'unknown_address':
          return { status: check.status, asset: null, message: 'no canonical asset lives at this address' };
        default:
          throw new SvcError('INPUT_INVALID', 'The address is not a 20-byte hex address', {
            issues: [{ code: 'ADDRESS_MALFORMED', message: 'expected 0x followed by 40 hex digits', path: 'address' }],
          });
      }
    }),

  mcpToolset: publicProcedure
    .meta({
      family: 'system',
      staticAnswer: true,
      openapi: rest('GET', '/mcp/toolset', 'The MCP toolset version: the hash of the tools/list entries the MCP server serves', {
        description: `toolsetHash is the sha256 of the RFC 8785 canonical JSON of the tools/list entries (name, title, description, inputSchema, outputSchema, annotations), the same hash the MCP server names in its serverInfo.description, its instructions and the _meta key ${TOOLSET_HASH_META_KEY} of tools/list. It changes whenever anything a client is told about a tool changes. Each tool's annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) are listed beside its name.`,
      }),
    })
    .input(z.object({ nowIso: z.string().optional() }).optional())
    .output(
      z.object({
        server: z.object({ name: z.string(), version: z.string() }),
        toolsetHash: z.string().describe('64 lowercase hex digits'),
        hashAlgorithm: z.literal('sha256-jcs'),
        toolCount: z.number().int(),
        tools: z.array(
          z.object({
            name: z.string(),
            title: z.string(),
            annotations: z.object({
              readOnlyHint: z.boolean(),
              destructiveHint: z.boolean(),
              idempotentHint: z.boolean(),
              openWorldHint: z.boolean(),
            }),
          }),
        ),
      }),
    )
    .query(() => {
      const { tools, hash } = mcpToolset();
      return {
        server: { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
        toolsetHash: hash,
        hashAlgorithm: 'sha256-jcs' as const,
        toolCount: tools.length,
        tools: tools.map(({ definition }) => {
          const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = definition.annotations!;
          return {
            name: definition.name,
            title: definition.title!,
            annotations: {
              readOnlyHint: readOnlyHint!,
              destructiveHint: destructiveHint!,
              idempotentHint: idempotentHint!,
              openWorldHint: openWorldHint!,
            },
          };
        }),
      };
    }),

  agentsSchema: publicProcedure
    .meta({
      family: 'autonomy',
      openapi: rest(
        'GET',
        '/agents/schema',
        'Index of agent workflows: endpoints, env-gate names (never values), truth rules, MCP tools, rail ids',
      ),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        schemaVersion: z.string(),
        rails: z.array(z.string()),
        mcpToolCount: z.number().int(),
        workflows: z.array(workflowSchema),
      }),
    )
    .query(() => agentsSchema(toolOfEndpoint())),
});
