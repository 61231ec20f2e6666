/**
 * The fixed facts of the x402 payment lanes (interface 4.8): which chain and token each provider
 * settles in, the protocol's header names, and where each fact was last verified. Nothing
 * here depends on configuration; the configured parts live in lanes.ts.
 */
import { z } from 'zod';
import { BROKER_CHAIN_ID, BROKER_CHAIN_NAME } from '../registry/data';
import { USDG } from '../registry';

export const X402_SCHEME = 'exact' as const;

/** Header names of both protocol versions (coinbase/x402 specs, transports v1 and v2). */
export const X402_HEADERS = {
  v1: { payment: 'X-PAYMENT', paymentResponse: 'X-PAYMENT-RESPONSE' },
  v2: { paymentRequired: 'PAYMENT-REQUIRED', payment: 'PAYMENT-SIGNATURE', paymentResponse: 'PAYMENT-RESPONSE' },
} as const;

/** The last date each fact below was checked against its source. */
export const LAST_VERIFIED = '2026-11-22';

/**
 * One `sourceVerification` entry: where a fact comes from and when it was last checked. The
 * one entry type of every vault and x402 response; the vault family appends its own entries
 * (its registry snapshot, live chain reads) with the same type.
 */
export const sourceVerificationEntrySchema = z
  .object({
    subject: z.string(),
    source: z.string(),
    lastVerified: z.string().describe('YYYY-MM-DD of the published source snapshot, or the timestamp of a live read in this response'),
    method: z.enum(['published_source_snapshot', 'live_chain_read', 'registry_copy']),
  })
  .meta({ id: 'SourceVerification' });
export type SourceVerification = z.infer<typeof sourceVerificationEntrySchema>;

export const SOURCES = {
  usdgToken: {
    subject: 'USDG token address and decimals on the broker chain (4663)',
    source: "the broker chain's published contract list, mirrored in the canonical registry",
    lastVerified: LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
  usdgEip712Domain: {
    subject: 'USDG EIP-712 domain used by EIP-3009 authorizations (name "Global Dollar", version "1", chain 4663)',
    source: 'public x402 facilitator listings for eip155:4663, checked against the token name in the canonical registry',
    lastVerified: LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
  facilitatorLane: {
    subject: 'facilitator lane constants (network broker / eip155:4663, USDG, mainnet only, settle and supported-networks routes)',
    source: 'service specification 4.8 and the x402 facilitator API (coinbase/x402 specs, version 2)',
    lastVerified: LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
  partnerCloudLane: {
    subject: 'partner cloud lane (base, USDC, 11 endpoints)',
    source: 'service specification 4.8',
    lastVerified: LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
  baseUsdc: {
    subject: 'USDC token address on base (eip155:8453)',
    source: 'the x402 reference default-asset table for eip155:8453 (@x402/evm)',
    lastVerified: LAST_VERIFIED,
    method: 'published_source_snapshot',
  },
} as const satisfies Record<string, SourceVerification>;

/** The facilitator lane: the broker chain, USDG, mainnet only (no testnet row exists). */
export const FACILITATOR_LANE = {
  provider: 'facilitator',
  label: 'Facilitator lane: x402 payments in USDG on the broker chain (4663), settled by the facilitator',
  paymentChain: BROKER_CHAIN_NAME,
  /** The v1 network name (interface 4.8: network `broker`). */
  v1Network: 'broker',
  /** The CAIP-2 network id used by x402 version 2. */
  network: `eip155:${BROKER_CHAIN_ID}`,
  chainId: BROKER_CHAIN_ID,
  asset: 'USDG',
  assetAddress: USDG.address,
  assetDecimals: 6,
  /** The token's EIP-712 domain, sent to buyers in `extra` so they sign over the right domain. */
  eip712: { name: USDG.name, version: '1' },
  mainnetOnly: true,
  settleRoute: 'POST {facilitator_url}/settle',
  supportedRoute: 'GET {facilitator_url}/supported',
  verifyRouteUsed: false,
} as const;

/** The partner cloud lane: the partner's hosted x402 endpoints on base, paid in USDC. */
export const PARTNER_CLOUD_LANE = {
  provider: 'partnerCloud',
  label: 'Partner cloud lane: x402 endpoints hosted by the partner on base, paid in USDC',
  paymentChain: 'base',
  v1Network: 'base',
  network: 'eip155:8453',
  chainId: 8453,
  asset: 'USDC',
  assetAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  assetDecimals: 6,
} as const;

/** Where and in what a lane's buyer pays: the fields every lane description repeats. */
export function lanePaymentTerms<L extends typeof FACILITATOR_LANE | typeof PARTNER_CLOUD_LANE>(
  lane: L,
): Pick<L, 'paymentChain' | 'chainId' | 'network' | 'asset' | 'assetAddress' | 'assetDecimals'> {
  const { paymentChain, chainId, network, asset, assetAddress, assetDecimals } = lane;
  return { paymentChain, chainId, network, asset, assetAddress, assetDecimals };
}

export type PartnerCloudEndpointFamily = 'tooling' | 'autonomy' | 'vault_scaffold';

/** The 11 partner-cloud endpoints (interface 4.8: tooling and autonomy services; vault-service scaffolds). */
export const PARTNER_CLOUD_ENDPOINTS: ReadonlyArray<{ name: string; family: PartnerCloudEndpointFamily; mirrors: string }> = [
  { name: 'svc-coil-compile', family: 'tooling', mirrors: 'POST /api/tools/generate-coil' },
  { name: 'svc-coil-validate', family: 'tooling', mirrors: 'POST /api/tools/validate-coil' },
  { name: 'svc-coil-risk-audit', family: 'tooling', mirrors: 'POST /api/tools/risk-audit' },
  { name: 'svc-coil-drift-check', family: 'tooling', mirrors: 'POST /api/tools/drift-check' },
  { name: 'svc-receipt-verify', family: 'tooling', mirrors: 'POST /api/coil/verify' },
  { name: 'svc-broker-capsule', family: 'tooling', mirrors: 'POST /api/tools/compile-capsule' },
  { name: 'svc-autonomy-fuse-check', family: 'autonomy', mirrors: 'the autonomy fuse validation of /api/partnerbot/*' },
  { name: 'svc-partnerbot-command-pack', family: 'autonomy', mirrors: 'the command-pack generation of /api/partnerbot/*' },
  { name: 'svc-post-run-audit', family: 'autonomy', mirrors: 'the post-run audit of /api/partnerbot/*' },
  { name: 'svc-vault-risk-score-scaffold', family: 'vault_scaffold', mirrors: 'POST /api/vaults/risk-score' },
  { name: 'svc-vault-comparison-scaffold', family: 'vault_scaffold', mirrors: 'POST /api/vaults/compare' },
];

/** The self-hosted lane exists only as a research candidate. */
export const SELF_HOSTED_LANE = {
  provider: 'selfHosted',
  label: 'Self-hosted settlement: disabled, research candidate only',
  paymentChain: null,
  asset: null,
  status: 'disabled',
} as const;

/** How long a buyer's authorization must stay valid beyond now, so settlement can land in a block. */
export const SETTLEMENT_MARGIN_SECONDS = 6;

/** `maxTimeoutSeconds` of every requirement: the longest the server takes to answer a paid call. */
export const MAX_TIMEOUT_SECONDS = 120;

/**
 * How long a settled answer is kept for a retry with the same authorization (a buyer whose
 * connection dropped after settlement). An answer whose settlement is still unknown is kept
 * until it is known; one that was not paid is dropped at once.
 */
export const PAID_ANSWER_KEPT_SECONDS = 24 * 60 * 60;
