/**
 * Lane selection (interface 4.8): vault services use the facilitator lane only when
 * FACILITATOR_ENABLED=true and the server-only key is set; otherwise the partner-cloud lane,
 * always labelled with provider, chain and reason. A selected facilitator lane whose other
 * settings are missing or wrong is reported as blocked, never quietly swapped for another.
 *
 * Settings are taken as an argument (the router passes the service configuration) and the
 * key itself never enters this module: only whether it is present.
 */
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { BROKER_CHAIN_NAME } from '../registry/data';
import {
  FACILITATOR_LANE,
  lanePaymentTerms,
  PARTNER_CLOUD_LANE,
  SOURCES,
  sourceVerificationEntrySchema,
  type SourceVerification,
} from './constants';

export { sourceVerificationEntrySchema };

export interface FacilitatorSettings {
  enabled: boolean;
  apiKeyPresent: boolean;
  url?: string;
  network?: string;
  chainId?: string;
  usdgAddress?: string;
  facilitatorAddress?: string;
  payToAddress?: string;
  timeoutMs: number;
}

/** The facilitator settings of the service configuration, without the key's value. */
export function facilitatorSettingsFrom(cfg: {
  enabled: boolean;
  apiKey?: string;
  url?: string;
  network?: string;
  chainId?: string;
  usdgAddress?: string;
  address?: string;
  payToAddress?: string;
  timeoutMs: number;
}): FacilitatorSettings {
  return {
    enabled: cfg.enabled,
    apiKeyPresent: Boolean(cfg.apiKey),
    url: cfg.url,
    network: cfg.network,
    chainId: cfg.chainId,
    usdgAddress: cfg.usdgAddress,
    facilitatorAddress: cfg.address,
    payToAddress: cfg.payToAddress,
    timeoutMs: cfg.timeoutMs,
  };
}

/** Declared once: the domain type is the schema's inferred type, the output schemas reuse the schema. */
export const facilitatorStateSchema = z.enum(['disabled', 'key_missing', 'blocked', 'configured']);
export type FacilitatorState = z.infer<typeof facilitatorStateSchema>;

export interface FacilitatorLaneState {
  state: FacilitatorState;
  /** Why the lane cannot settle yet: names of settings, never their values. */
  blockers: string[];
  /** The pinned recipient, checksummed, when it is set and valid. */
  payTo: string | null;
  /** The facilitator's own address, checksummed, when configured. */
  facilitatorAddress: string | null;
  /** Whether FACILITATOR_URL is set and an http(s) URL: decided here, so no caller reads it from a blocker's words. */
  urlUsable: boolean;
}

function checksummed(value: string | undefined): string | null {
  return value && isAddress(value, { strict: false }) ? getAddress(value) : null;
}

function isUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function facilitatorLaneState(s: FacilitatorSettings): FacilitatorLaneState {
  const payTo = checksummed(s.payToAddress);
  const facilitatorAddress = checksummed(s.facilitatorAddress);
  const urlUsable = s.url !== undefined && isUrl(s.url);
  if (!s.enabled) return { state: 'disabled', blockers: ['FACILITATOR_ENABLED is not true'], payTo, facilitatorAddress, urlUsable };
  if (!s.apiKeyPresent) return { state: 'key_missing', blockers: ['FACILITATOR_API_KEY is not set'], payTo, facilitatorAddress, urlUsable };
  const blockers: string[] = [];
  if (!s.url) blockers.push('FACILITATOR_URL is not set');
  else if (!isUrl(s.url)) blockers.push('FACILITATOR_URL is not an http(s) URL');
  if (!s.payToAddress) blockers.push('FACILITATOR_PAYTO_ADDRESS is not set');
  else if (!payTo) blockers.push('FACILITATOR_PAYTO_ADDRESS is not a 20-byte hex address');
  if (s.network !== undefined && s.network !== FACILITATOR_LANE.v1Network && s.network !== FACILITATOR_LANE.network) {
    blockers.push(`FACILITATOR_NETWORK must be ${FACILITATOR_LANE.v1Network} or ${FACILITATOR_LANE.network}`);
  }
  if (s.chainId !== undefined && s.chainId !== String(BROKER_CHAIN_ID)) {
    blockers.push(`FACILITATOR_CHAIN_ID must be ${BROKER_CHAIN_ID}: the lane is mainnet only and has no testnet row`);
  }
  if (s.usdgAddress !== undefined && s.usdgAddress.toLowerCase() !== USDG.address.toLowerCase()) {
    blockers.push('FACILITATOR_USDG_ADDRESS differs from the canonical USDG address of the registry');
  }
  if (s.facilitatorAddress !== undefined && !facilitatorAddress) {
    blockers.push('FACILITATOR_ADDRESS is not a 20-byte hex address');
  }
  return { state: blockers.length ? 'blocked' : 'configured', blockers, payTo, facilitatorAddress, urlUsable };
}

export const laneIdSchema = z.enum(['facilitator', 'partnerCloud']);
export type LaneId = z.infer<typeof laneIdSchema>;

export const laneSelectionSchema = z.object({
  lane: laneIdSchema,
  provider: laneIdSchema,
  paymentChain: z.string(),
  chainId: z.number().int(),
  network: z.string(),
  asset: z.string(),
  assetAddress: z.string(),
  assetDecimals: z.number().int(),
  settlesHere: z.boolean().describe('Whether this server can take and settle a payment on the lane right now'),
  facilitatorState: facilitatorStateSchema,
  reason: z.string(),
  blockers: z.array(z.string()),
});
export type LaneSelection = z.infer<typeof laneSelectionSchema>;

/** The lane a vault service is sold on, with the reason in words. */
export function selectVaultServiceLane(s: FacilitatorSettings): LaneSelection {
  const f = facilitatorLaneState(s);
  if (f.state === 'configured' || f.state === 'blocked') {
    return {
      lane: 'facilitator',
      provider: 'facilitator',
      ...lanePaymentTerms(FACILITATOR_LANE),
      settlesHere: f.state === 'configured',
      facilitatorState: f.state,
      reason:
        f.state === 'configured'
          ? 'FACILITATOR_ENABLED=true and the server-only FACILITATOR_API_KEY is set: vault services are paid in USDG on the broker chain and settled by the facilitator.'
          : `The facilitator lane is selected (FACILITATOR_ENABLED=true and the key is set) but blocked until its settings are fixed: ${f.blockers.join('; ')}. Payments are refused meanwhile; there is no fallback to another lane.`,
      blockers: f.blockers,
    };
  }
  return {
    lane: 'partnerCloud',
    provider: 'partnerCloud',
    ...lanePaymentTerms(PARTNER_CLOUD_LANE),
    settlesHere: false,
    facilitatorState: f.state,
    reason:
      f.state === 'disabled'
        ? 'FACILITATOR_ENABLED is not true, so vault services fall to the partner-cloud lane on base (USDC); this server takes no payment for them itself.'
        : 'FACILITATOR_ENABLED=true but the server-only FACILITATOR_API_KEY is not set, so vault services fall to the partner-cloud lane on base (USDC); this server takes no payment for them itself.',
    blockers: f.blockers,
  };
}

/** The lane of the vault services for the service configuration (FACILITATOR_*), by the rule above. */
export function vaultServiceLaneOf(facilitatorConfig: Parameters<typeof facilitatorSettingsFrom>[0]): LaneSelection {
  return selectVaultServiceLane(facilitatorSettingsFrom(facilitatorConfig));
}

export const vaultChainSchema = z
  .object({
    name: z.literal('broker_chain'),
    chainId: z.literal(4663),
    baseAsset: z.literal('USDG'),
    baseAssetAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    baseAssetDecimals: z.literal(6),
    role: z.string(),
  })
  .meta({ id: 'VaultChain', description: 'The chain the vaults live on: always the broker chain, id 4663, USDG with 6 decimals' });
export type VaultChainBlock = z.infer<typeof vaultChainSchema>;

export const x402PaymentChainSchema = z
  .object({
    lane: laneIdSchema.describe('The lane selected for paid vault services, the same key as x402Providers in the architecture object'),
    paymentChain: z.string().describe('broker_chain on the facilitator lane, base on the partner-cloud lane'),
    chainId: z.number().int(),
    network: z.string().describe('CAIP-2 network id (eip155:<chainId>)'),
    asset: z.string(),
    assetAddress: z.string(),
    assetDecimals: z.number().int(),
    settlesHere: z.boolean().describe('Whether this server takes and settles a payment on the lane now'),
    facilitatorState: facilitatorStateSchema.describe(
      'The facilitator lane: blocked when selected (enabled, key set) but misconfigured; payments are then refused, never moved to another lane',
    ),
    reason: z.string(),
    appliesTo: z.string(),
  })
  .meta({ id: 'X402PaymentChain', description: 'The x402 lane a paid vault service uses; kept apart from the vault chain' });
export type X402PaymentChainBlock = z.infer<typeof x402PaymentChainSchema>;

export const sourceVerificationSchema = z.array(sourceVerificationEntrySchema);

/** The fields every vault and x402 response carries, as output schemas declare them. */
export const chainBlockFields = {
  vaultChain: vaultChainSchema,
  x402PaymentChain: x402PaymentChainSchema,
  sourceVerification: sourceVerificationSchema,
};

/** The vault chain of every vault and x402 response: always the broker chain with USDG. */
export function vaultChainBlock(): VaultChainBlock {
  return {
    name: BROKER_CHAIN_NAME as 'broker_chain',
    chainId: BROKER_CHAIN_ID,
    baseAsset: 'USDG' as const,
    baseAssetAddress: USDG.address,
    baseAssetDecimals: 6 as const,
    role: 'The chain the vaults live on: deposits, shares and every completion proof are on this chain only.',
  };
}

/**
 * The payment chain of the selected lane, kept apart from the vault chain. A selected but
 * misconfigured facilitator lane reads `lane: facilitator`, `facilitatorState: blocked`,
 * `settlesHere: false`: blocked, never shown as the partner-cloud lane.
 */
export function x402PaymentChainBlock(selection: LaneSelection): X402PaymentChainBlock {
  return {
    lane: selection.lane,
    paymentChain: selection.paymentChain,
    chainId: selection.chainId,
    network: selection.network,
    asset: selection.asset,
    assetAddress: selection.assetAddress,
    assetDecimals: selection.assetDecimals,
    settlesHere: selection.settlesHere,
    facilitatorState: selection.facilitatorState,
    reason: selection.reason,
    appliesTo: 'paid vault services only (the deposit pack service included); a deposit transaction itself is never paid through x402',
  };
}

/** Where the facts of both chain blocks come from, with their last-verified dates. */
export function sourceVerificationBlocks(selection: LaneSelection): SourceVerification[] {
  const lane =
    selection.lane === 'facilitator' ? [SOURCES.facilitatorLane, SOURCES.usdgEip712Domain] : [SOURCES.partnerCloudLane, SOURCES.baseUsdc];
  return [SOURCES.usdgToken, ...lane].map((entry) => ({ ...entry }));
}

/**
 * The three blocks every vault and x402 response carries. `extraSources` are the caller's
 * own entries (the vault registry snapshot, live chain reads), appended after the lane's.
 */
export function chainBlocks(selection: LaneSelection, extraSources: readonly SourceVerification[] = []) {
  return {
    vaultChain: vaultChainBlock(),
    x402PaymentChain: x402PaymentChainBlock(selection),
    sourceVerification: [...sourceVerificationBlocks(selection), ...extraSources],
  };
}
