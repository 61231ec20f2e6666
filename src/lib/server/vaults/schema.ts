/**
 * The vault schema (interface 4.4 `GET /api/vaults/schema`): the vault routes, the chain and
 * payment model, the fee schedule, the public deposit gate, the deposit rail and the
 * architecture object of 2.11. The fee schedule is `FEE_SCHEDULE` of the fee module, the one
 * the fee calculation applies, so the schema can never state other fees. The architecture
 * object is the x402 domain's, the one `GET /api/x402/schema` serves, so both routes state it
 * identically.
 */
import { x402ArchitectureFromConfig } from '../x402/architecture';
import { paidServiceNames } from '../x402/catalogue';
import { vaultChainBlock, x402PaymentChainBlock, type LaneSelection } from '../x402/lanes';
import { MAX_PACK_AMOUNT_USDG } from './amount';
import { FEE_SCHEDULE } from './fees';
import { DEFAULT_PACK_LIFETIME_SECONDS, MAX_PACK_LIFETIME_SECONDS, MIN_PACK_LIFETIME_SECONDS, PACK_VERSION } from './deposit-pack';
import { ackTextList, listVaults, V1_VAULT, VAULT_REGISTRY_VERSION } from './registry';

export const VAULT_SCHEMA_VERSION = 'svc-vault-schema-1.0.0';

export interface VaultRoute {
  method: 'GET' | 'POST';
  path: string;
  purpose: string;
}

export interface VaultSchemaInput {
  routes: VaultRoute[];
  /** The lane of the paid vault services, from the x402 lane selection. */
  lane: LaneSelection;
  /** FACILITATOR_ADDRESS (public, not a secret), for the architecture object. */
  architecture: { address?: string };
}

export function buildVaultSchema(input: VaultSchemaInput) {
  return {
    schemaVersion: VAULT_SCHEMA_VERSION,
    vaultRegistryVersion: VAULT_REGISTRY_VERSION,
    routes: input.routes,
    vaults: listVaults(),
    chainModel: {
      vaultChain: vaultChainBlock(),
      rule: 'Vaults, deposits, shares and completion proofs live on the broker chain (4663) only. Other chains appear only as x402 payment rails.',
    },
    paymentModel: {
      deposits:
        'Free: a deposit pack is calldata you sign in your own wallet (POST /api/partnerbot/vault-deposit/prepare-command). The deposit transaction itself is never paid through x402, and no custody is taken.',
      paidServices: `Paid vault services (${paidServiceNames().join(', ')}; prices and lanes in GET /api/x402/schema) answer HTTP 402 with server-built payment requirements; the buyer signs an EIP-3009 authorization from their own wallet. The paid deposit pack is the free pack sold per call to agents; it changes nothing about the deposit.`,
      x402PaymentChain: x402PaymentChainBlock(input.lane),
    },
    feeSchedule: FEE_SCHEDULE,
    publicDepositGate: {
      rule: 'A strict AND of live reads, closed on anything unknown.',
      checks: [
        'acceptingPublicDeposits() on the vault is true',
        'the deposit-readiness registry says ready: candidate, deposit terms ready, audit ready, not blocked',
        'live pricing is usable: totalAssets() on the vault answers',
        'the vault is not paused',
      ],
      states: ['OPEN', 'PAUSED', 'BLOCKED', 'ORACLE_UNAVAILABLE', 'UNKNOWN'],
      depositReadinessRegistry: V1_VAULT.depositReadinessRegistryAddress,
      readRoute: 'GET /api/vaults/readiness',
      refusalCode: 'DEPOSIT_GATE_CLOSED',
      gatedRoutes: ['POST /api/vaults/{slug}/deposit-intent', 'POST /api/vaults/{slug}/withdraw-intent'],
    },
    depositRail: {
      railId: V1_VAULT.railId,
      packVersion: PACK_VERSION,
      vaultSlug: V1_VAULT.slug,
      vaultAddress: V1_VAULT.address,
      depositFunction: V1_VAULT.depositFunction,
      plainDepositReverts: true as const,
      maxAmountPerPackUsdg: MAX_PACK_AMOUNT_USDG,
      amountDecimals: 6 as const,
      packLifetimeSeconds: { default: DEFAULT_PACK_LIFETIME_SECONDS, min: MIN_PACK_LIFETIME_SECONDS, max: MAX_PACK_LIFETIME_SECONDS },
      ackTexts: ackTextList(),
      modes: ['A', 'B', 'C'],
      completionRule:
        "complete is true exactly when a confirmed transaction to the vault emitted the vault's Deposit event for the receiver and amount; re-verified on chain at every status read",
      svcExecutesDeposit: false as const,
    },
    architecture: x402ArchitectureFromConfig(input.architecture),
  };
}
