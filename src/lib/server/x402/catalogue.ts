/**
 * The paid vault services sold through x402, defined once. Every price, requirement, 402
 * challenge, schema listing and lane preview is derived from this list, so adding a service
 * is adding one entry: its name, its price in USDG 6-decimal units, its input schema, what
 * the buyer gets back, and the domain function that answers it.
 *
 * The three vault analyses are also answered free (family `vaults`,
 * `trpc/routers/vault-analysis/`); their free route (path, MCP tool, summary)
 * is part of the same entry, so the free and the paid answer share one input, one error code
 * and one domain function.
 */
import { z } from 'zod';
import type { McpToolName } from '../registry/agents';
import { calculateVaultFees, vaultFeeCalculationSchema, vaultFeeInputSchema } from '../vaults/fees';
import { scoreVaultRisk, vaultCompositionSchema, vaultRiskScoreSchema } from '../vaults/risk-score';
import { compareVaultsWithoutRecommendation, vaultComparisonInputSchema, vaultComparisonSchema } from '../vaults/compare';
import { buildDepositPack, type DepositPackDeps } from '../vaults/deposit-pack';
import { findAssetByTicker, USDG } from '../registry';
import { depositPackRequestShape, depositPackResultShape, vaultInputErrorCode } from '../vaults/pack-shapes';

/**
 * What a service may need besides its input: the request's clock (pinned by `nowIso`), and for
 * the deposit pack the public origin, the chain reader that verifies the ack pins on chain
 * (null without BROKER_CHAIN_RPC_URL) and the Mode B gates: the pack's own dependencies, so
 * the paid pack is built exactly like the free one.
 */
export type PaidServiceContext = DepositPackDeps;

export interface PaidVaultService<I extends z.ZodTypeAny = z.ZodTypeAny, O extends z.ZodTypeAny = z.ZodTypeAny> {
  /** The path segment of `/api/vaults/x402/{serviceName}`. */
  name: string;
  title: string;
  description: string;
  /** Price in USDG 6-decimal units (1 USDG = 1000000). */
  priceUnits: bigint;
  /** The error code for a body that fails `input` (or the rule naming it from the first failing field). */
  inputErrorCode: string | ((firstPath: string) => string);
  input: I;
  output: O;
  /** What the buyer gets back, in words (the paid page shows it beside the price). */
  returns: string;
  /** A valid input, to start from (the paid page's prefilled request; checked against `input` by tests/unit/x402.test.ts). */
  example: Record<string, unknown>;
  /** The free route that answers the same question without payment, if any (`METHOD /api/path`). */
  freeRoute: string | null;
  run: (input: z.infer<I>, ctx: PaidServiceContext) => z.infer<O> | Promise<z.infer<O>>;
}

function service<I extends z.ZodTypeAny, O extends z.ZodTypeAny>(s: PaidVaultService<I, O>): PaidVaultService {
  return s as unknown as PaidVaultService;
}

/** The free REST route (POST, under `/api`) and MCP tool of a vault analysis. */
export interface FreeAnalysisRoute {
  path: `/${string}`;
  tool: McpToolName;
  summary: string;
}

/** A vault analysis: a paid service that is also answered free, from a pure domain function of its input. */
export interface VaultAnalysis<I extends z.ZodObject, O extends z.ZodTypeAny> extends PaidVaultService<I, O> {
  inputErrorCode: string;
  free: FreeAnalysisRoute;
  run: (input: z.infer<I>) => z.infer<O>;
}

function analysis<I extends z.ZodObject, O extends z.ZodTypeAny>(s: Omit<VaultAnalysis<I, O>, 'freeRoute'>): VaultAnalysis<I, O> {
  return { ...s, freeRoute: `POST /api${s.free.path}` };
}

export const VAULT_FEE_CALCULATION = analysis({
  name: 'vault-fee-calculation',
  title: 'Vault fee calculation',
  description: 'Performance fee, protocol share and creator share of a vault at a NAV reading against its high-water mark.',
  priceUnits: 10_000n,
  returns:
    'The performance fee, the protocol share and the creator share in USDG, with the rates applied and the profit they were taken from.',
  example: { highWaterMarkUsdg: '100000', navUsdg: '112500', performanceFeeBps: 1000 },
  inputErrorCode: 'FEE_CONFIG_SHAPE',
  input: vaultFeeInputSchema,
  output: vaultFeeCalculationSchema,
  free: {
    path: '/vaults/fees/calculate',
    tool: 'svc_calculate_vault_fees',
    summary: 'Vault fees at a NAV reading: performance fee, protocol share, creator share',
  },
  run: (input) => calculateVaultFees(input),
});

export const VAULT_RISK_SCORE = analysis({
  name: 'vault-risk-score',
  title: 'Vault risk score',
  description: 'A structural 0-100 risk heuristic of a vault composition and its terms (not a forecast).',
  priceUnits: 20_000n,
  returns:
    'A 0-100 score with each component (concentration, equity exposure, cash reserve, diversification, fee incentive, lockup) and why.',
  example: {
    allocations: [
      { tokenAddress: findAssetByTicker('AAPL')!.address, weightBps: 4000 },
      { tokenAddress: findAssetByTicker('AMZN')!.address, weightBps: 3000 },
      { tokenAddress: USDG.address, weightBps: 3000 },
    ],
  },
  inputErrorCode: 'VAULT_COMPOSITION_SHAPE',
  input: vaultCompositionSchema,
  output: vaultRiskScoreSchema,
  free: {
    path: '/vaults/risk-score',
    tool: 'svc_score_vault_risk',
    summary: 'Structural 0-100 risk score of a vault composition and its terms',
  },
  run: (input) => scoreVaultRisk(input),
});

export const VAULT_COMPARISON = analysis({
  name: 'vault-comparison',
  title: 'Vault comparison without recommendation',
  description: 'The same fee and risk facts for two to five vaults side by side, in the order given, never ranked.',
  priceUnits: 50_000n,
  returns:
    'One column per vault, in your order, with its fees on an example profit and its risk score; never ranked, never a recommendation.',
  example: {
    vaults: [
      {
        label: 'Growth',
        allocations: [
          { tokenAddress: findAssetByTicker('AMD')!.address, weightBps: 7000 },
          { tokenAddress: USDG.address, weightBps: 3000 },
        ],
      },
      {
        label: 'Cash heavy',
        allocations: [
          { tokenAddress: findAssetByTicker('AAPL')!.address, weightBps: 2000 },
          { tokenAddress: USDG.address, weightBps: 8000 },
        ],
      },
    ],
  },
  inputErrorCode: 'VAULT_COMPARISON_SHAPE',
  input: vaultComparisonInputSchema,
  output: vaultComparisonSchema,
  free: {
    path: '/vaults/compare',
    tool: 'svc_compare_vaults_without_recommendation',
    summary: 'Two to five vaults side by side, never ranked and never recommended',
  },
  run: (input) => compareVaultsWithoutRecommendation(input),
});

export const PAID_VAULT_SERVICES: readonly PaidVaultService[] = [
  service(VAULT_FEE_CALCULATION),
  service(VAULT_RISK_SCORE),
  service(VAULT_COMPARISON),
  service({
    name: 'vault-deposit-pack',
    title: 'Vault deposit pack',
    description:
      'A Mode A deposit pack for the Rail A vault: approve and depositWithAcks calldata you sign in your own wallet, with both ack hashes verified against the vault pins (on chain when an RPC is configured), the social command and the Mode C widget link. The same pack as the free route; the service never signs or sends it.',
    // 0.03 USDG: between the single risk score (0.02) and the five-vault comparison (0.05),
    // because besides validation and encoding it reads the vault's ack pins on chain.
    priceUnits: 30_000n,
    returns:
      'The approve and depositWithAcks calldata for the V1 vault with its plan hash and expiry, the ack hashes and how they were checked, the social command and the deposit page link. Nothing is signed or sent.',
    // The receiver must be the depositor: the paid page puts the connected wallet's address here.
    example: { amountUsdg: '25', receiver: '0x1111111111111111111111111111111111111111' },
    inputErrorCode: vaultInputErrorCode,
    input: depositPackRequestShape,
    output: depositPackResultShape,
    freeRoute: 'POST /api/partnerbot/vault-deposit/prepare-command',
    run: (input, ctx) => buildDepositPack(input, ctx),
  }),
];

const byName = new Map(PAID_VAULT_SERVICES.map((s) => [s.name, s]));
if (byName.size !== PAID_VAULT_SERVICES.length) throw new Error('two paid vault services share a name');

export function findPaidService(name: string): PaidVaultService | undefined {
  return byName.get(name);
}

export function paidServiceNames(): string[] {
  return PAID_VAULT_SERVICES.map((s) => s.name);
}

export function paidServiceRoute(name: string): string {
  return `/api/vaults/x402/${name}`;
}
