/**
 * The plan of a validated intent and its hash, the confirmation token of submit (spec 4.5).
 *
 * planHash = hex(SHA-256(UTF-8(JCS({ "generatedAt": <ISO>, "intent": <plan.intent> }))))
 *
 * where JCS is RFC 8785 (JSON Canonicalization Scheme), `intent` is the normalised intent
 * returned as `plan.intent` and `generatedAt` is the `generatedAt` of the prepare response
 * (`Date#toISOString()` form, UTC with milliseconds). Anyone can recompute it from those two
 * values; submit recomputes it from the intent it is sent and its `nowIso`.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { BROKER_CHAIN_ID, findAssetByAddress, REGISTRY_VERSION, USDG, type RegistryAsset } from '../registry';
import { buildCommandPack, type CommandPack } from './command-pack';
import { MAX_SLIPPAGE_BPS, type StockIntent } from './intent';

export const PLAN_VERSION = 'svc-stock-plan-1.0.0';
export const PLAN_HASH_RULE =
  'planHash = hex(SHA-256(RFC 8785 canonical JSON of { "generatedAt": <generatedAt>, "intent": <plan.intent> }))';

/** Hard-typed flags of every plan (spec 2.8). */
export const HARD_FLAGS = {
  svcExecutesTrade: false,
  svcCollectsLocation: false,
  requiresPartnerLocationVerification: true,
} as const;

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no canonical JSON form');
  return text;
}

/** `intent` is the normalised intent (`normalizeIntent`, which is `plan.intent` for a valid one). */
export function computePlanHash(intent: StockIntent | Record<string, unknown>, generatedAt: Date): string {
  return createHash('sha256')
    .update(canonicalJson({ generatedAt: generatedAt.toISOString(), intent }), 'utf8')
    .digest('hex');
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

export function buildPlan(intent: StockIntent, target: RegistryAsset, generatedAt: Date, notionalCapUsd: number): PreparedPlan {
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
      notionalCapUsd,
      slippageCapBps: MAX_SLIPPAGE_BPS,
      executor: 'partner',
      registryVersion: REGISTRY_VERSION,
      ...HARD_FLAGS,
    },
    commandPack: buildCommandPack(intent, target, usdg),
  };
}
