/**
 * The paid vault services sold through x402, defined once. Every price, requirement, 402
 * challenge, schema listing and lane preview is derived from this list, so adding a service
 * is adding one entry: its name, its price in USDG 6-decimal units, its input schema, what
 * the buyer gets back, and the domain function that answers it.
 */
import { z } from 'zod';
import { calculateVaultFees, vaultFeeCalculationSchema, vaultFeeInputSchema } from '../vaults/fees';
import { scoreVaultRisk, vaultCompositionSchema, vaultRiskScoreSchema } from '../vaults/risk-score';
import { compareVaultsWithoutRecommendation, vaultComparisonInputSchema, vaultComparisonSchema } from '../vaults/compare';
import { buildDepositPack, type DepositPackDeps } from '../vaults/deposit-pack';
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
  /** The free route that answers the same question without payment, if any. */
  freeRoute: string | null;
  run: (input: z.infer<I>, ctx: PaidServiceContext) => z.infer<O> | Promise<z.infer<O>>;
}

function service<I extends z.ZodTypeAny, O extends z.ZodTypeAny>(s: PaidVaultService<I, O>): PaidVaultService {
  return s as unknown as PaidVaultService;
}

export const PAID_VAULT_SERVICES: readonly PaidVaultService[] = [
  service({
    name: 'vault-fee-calculation',
    title: 'Vault fee calculation',
    description: 'Performance fee, protocol share and creator share of a vault at a NAV reading against its high-water mark.',
    priceUnits: 10_000n,
    inputErrorCode: 'FEE_CONFIG_SHAPE',
    input: vaultFeeInputSchema,
    output: vaultFeeCalculationSchema,
    freeRoute: 'POST /api/vaults/fees/calculate',
    run: (input) => calculateVaultFees(input),
  }),
  service({
    name: 'vault-risk-score',
    title: 'Vault risk score',
    description: 'A structural 0-100 risk heuristic of a vault composition and its terms (not a forecast).',
    priceUnits: 20_000n,
    inputErrorCode: 'VAULT_COMPOSITION_SHAPE',
    input: vaultCompositionSchema,
    output: vaultRiskScoreSchema,
    freeRoute: 'POST /api/vaults/risk-score',
    run: (input) => scoreVaultRisk(input),
  }),
  service({
    name: 'vault-comparison',
    title: 'Vault comparison without recommendation',
    description: 'The same fee and risk facts for two to five vaults side by side, in the order given, never ranked.',
    priceUnits: 50_000n,
    inputErrorCode: 'VAULT_COMPARISON_SHAPE',
    input: vaultComparisonInputSchema,
    output: vaultComparisonSchema,
    freeRoute: 'POST /api/vaults/compare',
    run: (input) => compareVaultsWithoutRecommendation(input),
  }),
  service({
    name: 'vault-deposit-pack',
    title: 'Vault deposit pack',
    description:
      'A Mode A deposit pack for the Rail A vault: approve and depositWithAcks calldata you sign in your own wallet, with both ack hashes verified against the vault pins (on chain when an RPC is configured), the social command and the Mode C widget link. The same pack as the free route; the service never signs or sends it.',
    // 0.03 USDG: between the single risk score (0.02) and the five-vault comparison (0.05),
    // because besides validation and encoding it reads the vault's ack pins on chain.
    priceUnits: 30_000n,
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
