/**
 * The versioned vault registry (interface 2.10, 2.12): the V1 vault (the only Rail A vault,
 * deposits through `depositWithAcks`) and the V2 contract suite, each at a fixed address on
 * chain 4663. Addresses are data, like the asset registry: tests place the project's own
 * reference contracts at these same addresses, so nothing is overridden for tests.
 *
 * Sources. Every address below comes from the operator's public deployment record of chain
 * 4663 and its public architecture document (snapshot generated 2026-07-25); each entry says
 * which. Bump VAULT_REGISTRY_VERSION on any change: packs and receipts stamp it.
 */
import { getAddress, keccak256, stringToBytes, type Address, type Hex } from 'viem';
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { BROKER_CHAIN_NAME } from '../registry/data';
import type { RailId } from '../registry/agents';
import type { SourceVerification } from '../x402/constants';

export const VAULT_REGISTRY_VERSION = 'svc-vault-registry-2026.11.0';

/** The date the addresses below were last checked against their published source. */
export const VAULT_SOURCES_LAST_VERIFIED = '2026-07-25';

/**
 * Where the vault addresses come from: the entries the vault family appends to the
 * `sourceVerification` blocks of x402/lanes.ts (same entry type; USDG itself is covered there).
 */
export const VAULT_REGISTRY_SOURCES: readonly SourceVerification[] = [
  {
    subject: 'V1 vault, its implementation, access policy and deposit-readiness registry addresses',
    source: `operator's public deployment record of chain 4663 (vault registry ${VAULT_REGISTRY_VERSION})`,
    lastVerified: VAULT_SOURCES_LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
  {
    subject:
      'V2 suite addresses (vault, request queue, batch settler, price mesh, risk policy, liveness, receipt registry, asset registry, execution adapter)',
    source: `operator's public V2 architecture document and SDK constants (vault registry ${VAULT_REGISTRY_VERSION})`,
    lastVerified: VAULT_SOURCES_LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
];

const OPERATOR_DEPLOYMENT_RECORD =
  "The operator's public deployment record of chain 4663 (contracts/deployments) and its public contract registry.";
const OPERATOR_V2_ARCHITECTURE = "The operator's public V2 architecture document and its SDK constants (the V2 suite of chain 4663).";

/**
 * The two acknowledgment texts a depositor accepts (interface 2.10). Their keccak256 hashes are
 * the `riskAck` and `jurisdictionAck` arguments of `depositWithAcks`; the second one (the
 * source disclosure) sits in the vault's jurisdiction slot.
 */
export const ACK_TEXTS = {
  risk: 'svc-vault-depositor-risk-ack-v1',
  jurisdiction: 'svc-vault-source-disclosure-ack-v1',
} as const;

export type AckSlot = keyof typeof ACK_TEXTS;

/** keccak256 of the UTF-8 bytes of a text (never sha256). */
export function ackHash(text: string): Hex {
  return keccak256(stringToBytes(text));
}

export const ACK_HASHES: Readonly<Record<AckSlot, Hex>> = {
  risk: ackHash(ACK_TEXTS.risk),
  jurisdiction: ackHash(ACK_TEXTS.jurisdiction),
};

/** The two ack texts with their hashes, as the vault schema and the deposit link state them. */
export function ackTextList() {
  return [
    { slot: 'risk' as const, text: ACK_TEXTS.risk, keccak256: ACK_HASHES.risk },
    { slot: 'jurisdiction' as const, text: ACK_TEXTS.jurisdiction, keccak256: ACK_HASHES.jurisdiction },
  ];
}

export interface RailAVault {
  slug: string;
  name: string;
  generation: 'v1';
  lifecycle: 'legacy_v1';
  railId: Extract<RailId, 'rail_a_vault_deposit'>;
  address: Address;
  chain: typeof BROKER_CHAIN_NAME;
  chainId: typeof BROKER_CHAIN_ID;
  asset: 'USDG';
  assetAddress: Address;
  assetDecimals: 6;
  depositFunction: 'depositWithAcks(uint256,address,bytes32,bytes32)';
  /** The logic contract behind the vault's proxy: never a deposit target. */
  implementationAddress: Address;
  /** Holds the vault's required ack hashes in the operator's published interface. */
  accessPolicyAddress: Address;
  /** The public deposit gate (deposit readiness). */
  depositReadinessRegistryAddress: Address;
  /**
   * The registry's copy of the ack hashes the vault pins on chain. Used, and said to be
   * used, only when no RPC is configured.
   */
  pinnedAckHashes: Readonly<Record<AckSlot, Hex>>;
  addressSource: string;
}

export const V1_VAULT: RailAVault = {
  slug: 'svc-vault',
  name: 'svc USDG vault (V1)',
  generation: 'v1',
  lifecycle: 'legacy_v1',
  railId: 'rail_a_vault_deposit',
  address: getAddress('0x6D962604dF1c6C5ef4B59d88863600Fe71Bb63E6'),
  chain: BROKER_CHAIN_NAME,
  chainId: BROKER_CHAIN_ID,
  asset: 'USDG',
  assetAddress: getAddress(USDG.address),
  assetDecimals: 6,
  depositFunction: 'depositWithAcks(uint256,address,bytes32,bytes32)',
  implementationAddress: getAddress('0xb3b6CE5b1C6605dBE897555DdaA191c2AF0A7D10'),
  accessPolicyAddress: getAddress('0x7e292bCD2C7A3420dA4a7036B99CFf32BcF9B663'),
  depositReadinessRegistryAddress: getAddress('0x2Bb41af03d2080896f0F6e5fb85136f7d7a34BFb'),
  pinnedAckHashes: ACK_HASHES,
  addressSource: `${OPERATOR_DEPLOYMENT_RECORD} The flagship V1 vault is a minimal proxy of the implementation address; deposits go to the proxy only.`,
};

/** The only Rail A vaults. A lookup for anything else fails closed. */
export const RAIL_A_VAULTS: readonly RailAVault[] = [V1_VAULT];

export type V2ContractRole =
  | 'vault'
  | 'request_queue'
  | 'batch_settler'
  | 'price_mesh'
  | 'risk_policy'
  | 'liveness'
  | 'receipt_registry'
  | 'asset_registry'
  | 'execution_adapter';

export interface V2SuiteContract {
  role: V2ContractRole;
  name: string;
  address: Address;
  description: string;
  addressSource: string;
}

const v2 = (role: V2ContractRole, name: string, address: string, description: string): V2SuiteContract => ({
  role,
  name,
  address: getAddress(address),
  description,
  addressSource: OPERATOR_V2_ARCHITECTURE,
});

/** The V2 suite (interface 2.12), in the order the status record lists it. */
export const V2_SUITE: readonly V2SuiteContract[] = [
  v2(
    'vault',
    'USDG vault V2',
    '0x432e90b1B35995EBE46eD93B4Db369abfc230E69',
    'The canonical vault for new deposits (queue-routed epoch settlement).',
  ),
  v2(
    'request_queue',
    'Request queue',
    '0x317d1eEC013a91a316858e80BF782496F231729a',
    '24/7 deposit and USDG-redemption escrow with the epoch queue.',
  ),
  v2(
    'batch_settler',
    'Batch settler',
    '0x32A60abB48235b158dd515B84C5B039F6Dc4f7dD',
    'Constrained keeper batch settlement; settlement, keeper and rebalance flags.',
  ),
  v2('price_mesh', 'Price mesh V2', '0xd57E9fC8fF8b1aCe73a7D6c32F1101879fDeF3c6', 'Side-aware marks and safe-notional capacity per asset.'),
  v2('risk_policy', 'V2 risk policy', '0x9aDE5804ad1b4F6231E46b1E806dFc7464069BB4', 'The ownerless risk policy binding the V2 vault.'),
  v2('liveness', 'Liveness', '0x424b634AA340832Cf548bB501204a6cf8A6d9136', 'Permissionless liveness heartbeat of the chain.'),
  v2(
    'receipt_registry',
    'V2 receipt registry',
    '0x0A6232fD54C8e4B3eCBd0df261706001dfAF55Da',
    'Receipts by stage (PREPARATION, SUBMISSION, SETTLEMENT).',
  ),
  v2(
    'asset_registry',
    'V2 asset registry',
    '0xC2619B2Bf3f075A73FF29f9e6cc2a8C532c0395F',
    'Canonical-address asset registry of the V2 vault.',
  ),
  v2(
    'execution_adapter',
    'Exchange execution adapter',
    '0x306A800226CAF794238CBB0BdE9A49bAb7156d31',
    'The registry-approved exchange execution adapter.',
  ),
];

export function v2Contract(role: V2ContractRole): V2SuiteContract {
  return V2_SUITE.find((c) => c.role === role)!;
}

export const V2_VAULT_SLUG = 'svc-vault-v2';

/** Every vault the registry knows, for listings. */
export function listVaults() {
  return [
    {
      slug: V1_VAULT.slug,
      name: V1_VAULT.name,
      generation: 'v1' as const,
      lifecycle: 'legacy_v1' as const,
      address: V1_VAULT.address,
      railId: V1_VAULT.railId as string | null,
      depositRoute: 'deposit_with_acks' as const,
      acceptsDepositPacks: true,
      addressSource: V1_VAULT.addressSource,
    },
    {
      slug: V2_VAULT_SLUG,
      name: 'svc USDG vault (V2)',
      generation: 'v2' as const,
      lifecycle: 'canonical_v2' as const,
      address: v2Contract('vault').address,
      railId: null,
      depositRoute: 'request_queue' as const,
      acceptsDepositPacks: false,
      addressSource: OPERATOR_V2_ARCHITECTURE,
    },
  ];
}

export type VaultListing = ReturnType<typeof listVaults>[number];

/**
 * Finds a Rail A vault by slug or address (case-insensitive). No id means the default (the
 * only) Rail A vault. Anything else, the V2 vault included (it takes deposits through its
 * request queue, never through a deposit pack), fails closed with VAULT_UNKNOWN.
 */
export function resolveRailAVault(idOrSlug: string | undefined): RailAVault {
  if (idOrSlug === undefined) return V1_VAULT;
  const key = idOrSlug.trim().toLowerCase();
  const found = RAIL_A_VAULTS.find((v) => v.slug === key || v.address.toLowerCase() === key);
  if (found) return found;
  const isV2 = key === V2_VAULT_SLUG || V2_SUITE.some((c) => c.address.toLowerCase() === key);
  throw new SvcError(
    'VAULT_UNKNOWN',
    isV2
      ? 'The V2 vault is not a Rail A vault: it takes deposits through its request queue, not through a deposit pack'
      : 'No registered Rail A vault has this id; the only one is the V1 vault',
    {
      issues: [
        { code: 'VAULT_UNKNOWN', message: `registered Rail A vaults: ${RAIL_A_VAULTS.map((v) => v.slug).join(', ')}`, path: 'vaultId' },
      ],
    },
  );
}

/** Finds any registered vault (V1 or V2) by slug or address, for identity routes. */
export function findVault(idOrSlug: string): VaultListing | undefined {
  const key = idOrSlug.trim().toLowerCase();
  return listVaults().find((v) => v.slug === key || v.address.toLowerCase() === key);
}

/** The vault by slug or address, or 404 VAULT_UNKNOWN naming the known slugs on `path`. */
export function requireVault(idOrSlug: string, path: string): VaultListing {
  const vault = findVault(idOrSlug);
  if (vault) return vault;
  throw new SvcError('VAULT_UNKNOWN', 'No registered vault has this slug or address', {
    issues: [
      {
        code: 'VAULT_UNKNOWN',
        message: `known: ${listVaults()
          .map((v) => v.slug)
          .join(', ')}`,
        path,
      },
    ],
  });
}
