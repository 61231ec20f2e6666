/**
 * The plan of a validated intent and its hash, the confirmation token of submit (interface 4.5).
 *
 * planHash = hex(SHA-256(UTF-8(JCS({ "generatedAt": <ISO>, "intent": <plan.intent> }))))
 *
 * where JCS is RFC 8785 (JSON Canonicalization Scheme), `intent` is the normalised intent
 * returned as `plan.intent` and `generatedAt` is the `generatedAt` of the prepare response
 * (`Date#toISOString()` form, UTC with milliseconds). Anyone can recompute it from those two
 * values; submit recomputes it from the intent it is sent and its `nowIso`.
 */
import { hashCanonical } from '../canonical';
import { serverTimeAfter, type ServerTime } from '../clock';
import { BROKER_CHAIN_ID, findAssetByAddress, REGISTRY_VERSION, USDG, type RegistryAsset } from '../registry';
import { buildCommandPack, type CommandPack } from './command-pack';
import { z } from 'zod';
import { MAX_SLIPPAGE_BPS, stockIntentSchema, type StockIntent } from './intent';

export const PLAN_VERSION = 'svc-stock-plan-1.0.0';

/**
 * A plan's life: 15 minutes, as a deposit pack's default. It starts when this server first
 * sees the plan (its own clock at the first prepare, or at a submit of a plan never prepared
 * here), never at the caller's `nowIso`, and submit checks it on the server's clock.
 */
export const STOCK_PLAN_LIFETIME_SECONDS = 900;

export function planExpiresAt(firstPreparedAt: ServerTime): ServerTime {
  return serverTimeAfter(firstPreparedAt, STOCK_PLAN_LIFETIME_SECONDS * 1000);
}
export const PLAN_HASH_RULE =
  'planHash = hex(SHA-256(RFC 8785 canonical JSON of { "generatedAt": <generatedAt>, "intent": <plan.intent> }))';

/** Hard-typed flags of every plan (interface 2.8). */
export const HARD_FLAGS = {
  svcExecutesTrade: false,
  svcCollectsLocation: false,
  requiresPartnerLocationVerification: true,
} as const;

/** `intent` is the normalised intent (`normalizeIntent`, which is `plan.intent` for a valid one). */
export function computePlanHash(intent: StockIntent | Record<string, unknown>, generatedAt: Date): string {
  return hashCanonical({ generatedAt: generatedAt.toISOString(), intent });
}

/** The hard flags as output fields: literals, so a plan that ever said otherwise fails its schema. */
export const hardFlagFields = {
  svcExecutesTrade: z.literal(false),
  svcCollectsLocation: z.literal(false),
  requiresPartnerLocationVerification: z.literal(true),
};

/** A prepared stock-token plan; `StockPlan` is this schema's type. */
export const stockPlanSchema = z.object({
  planVersion: z.string(),
  intent: stockIntentSchema,
  chainId: z.literal(BROKER_CHAIN_ID),
  target: z.object({ symbol: z.string(), name: z.string(), kind: z.string(), tokenAddress: z.string(), decimals: z.number().int() }),
  inputAsset: z.object({ symbol: z.literal('USDG'), tokenAddress: z.string(), decimals: z.number().int() }),
  notionalCapUsd: z.number(),
  slippageCapBps: z.number().int(),
  executor: z.literal('partner'),
  registryVersion: z.string(),
  expiresAt: z
    .string()
    .nullable()
    .describe(
      `the plan's deadline for submit: ${STOCK_PLAN_LIFETIME_SECONDS} s after this server first prepared it, on the server's clock (nowIso neither pins nor extends it); null for a plan that can never be submitted here (vault_operator_rebalance)`,
    ),
  lifetimeSeconds: z.literal(STOCK_PLAN_LIFETIME_SECONDS),
  ...hardFlagFields,
});
export type StockPlan = z.infer<typeof stockPlanSchema>;

export interface PreparedPlan {
  planHash: string;
  generatedAt: string;
  plan: StockPlan;
  commandPack: CommandPack;
}

export interface PlanSettings {
  notionalCapUsd: number;
  /**
   * The server's clock when it first saw this plan (stored with the plan). Absent for a plan
   * this server never records because it can never be submitted here (a
   * vault_operator_rebalance plan): it has no submit deadline, so `expiresAt` is null.
   */
  firstPreparedAt?: ServerTime;
  /** PARTNER_API_URL, when configured (the command pack then names the real address). */
  partnerApiUrl?: string;
  /** Whether this deployment can hand the plan to the partner itself (the lane's submit is available). */
  throughThisService?: boolean;
}

export function buildPlan(intent: StockIntent, target: RegistryAsset, generatedAt: Date, settings: PlanSettings): PreparedPlan {
  const usdg = findAssetByAddress(USDG.address)!;
  return {
    planHash: computePlanHash(intent, generatedAt),
    generatedAt: generatedAt.toISOString(),
    plan: {
      planVersion: PLAN_VERSION,
      intent,
      chainId: BROKER_CHAIN_ID,
      target: { symbol: target.ticker, name: target.name, kind: target.kind, tokenAddress: target.address, decimals: target.decimals },
      inputAsset: { symbol: 'USDG', tokenAddress: usdg.address, decimals: usdg.decimals },
      notionalCapUsd: settings.notionalCapUsd,
      slippageCapBps: MAX_SLIPPAGE_BPS,
      executor: 'partner',
      registryVersion: REGISTRY_VERSION,
      expiresAt: settings.firstPreparedAt ? planExpiresAt(settings.firstPreparedAt).toISOString() : null,
      lifetimeSeconds: STOCK_PLAN_LIFETIME_SECONDS,
      ...HARD_FLAGS,
    },
    commandPack: buildCommandPack(intent, target, usdg, settings.partnerApiUrl, settings.throughThisService),
  };
}
