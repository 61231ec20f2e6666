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
import { BROKER_CHAIN_ID, findAssetByAddress, REGISTRY_VERSION, USDG, type RegistryAsset } from '../registry';
import { buildCommandPack, type CommandPack } from './command-pack';
import { MAX_SLIPPAGE_BPS, type StockIntent } from './intent';

export const PLAN_VERSION = 'svc-stock-plan-1.0.0';

/**
 * A plan's life: 15 minutes, as a deposit pack's default. It starts when this server first
 * sees the plan (its own clock at the first prepare, or at a submit of a plan never prepared
 * here), never at the caller's `nowIso`, and submit checks it on the server's clock.
 */
export const STOCK_PLAN_LIFETIME_SECONDS = 900;

export function planExpiresAt(firstPreparedAt: Date): Date {
  return new Date(firstPreparedAt.getTime() + STOCK_PLAN_LIFETIME_SECONDS * 1000);
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

export interface StockPlan {
  planVersion: typeof PLAN_VERSION;
  intent: StockIntent;
  chainId: typeof BROKER_CHAIN_ID;
  target: { symbol: string; name: string; kind: string; tokenAddress: string; decimals: number };
  inputAsset: { symbol: 'USDG'; tokenAddress: string; decimals: number };
  notionalCapUsd: number;
  slippageCapBps: number;
  executor: 'partner';
  registryVersion: string;
  /** When the plan stops being submittable: its first prepare on this server plus the lifetime (server clock). */
  expiresAt: string | null;
  lifetimeSeconds: typeof STOCK_PLAN_LIFETIME_SECONDS;
  svcExecutesTrade: false;
  svcCollectsLocation: false;
  requiresPartnerLocationVerification: true;
}

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
  firstPreparedAt?: Date;
  /** PARTNER_API_URL, when configured (the command pack then names the real address). */
  partnerApiUrl?: string;
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
    commandPack: buildCommandPack(intent, target, usdg, settings.partnerApiUrl),
  };
}
