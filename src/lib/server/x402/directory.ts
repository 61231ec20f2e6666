/**
 * What the x402 discovery routes say (interface 4.4, 4.8): the provider directory, the facilitator
 * lane's constants, each paid service's listing on the selected lane, and the live
 * reachability of the facilitator. Each answer is built from the one copy of its facts
 * (constants.ts, lanes.ts, catalogue.ts) and its type is its schema's inferred type, so a
 * field added here is declared in the output schema in the same edit.
 */
import { z } from 'zod';
import { formatUsdgUnits } from '../vaults/amount';
import { paidServiceRoute, type PaidVaultService } from './catalogue';
import {
  FACILITATOR_LANE,
  MAX_TIMEOUT_SECONDS,
  lanePaymentTerms,
  PARTNER_CLOUD_ENDPOINTS,
  PARTNER_CLOUD_LANE,
  SELF_HOSTED_LANE,
  SETTLEMENT_MARGIN_SECONDS,
  X402_SCHEME,
} from './constants';
import type { FacilitatorClient } from './facilitator-client';
import {
  facilitatorLaneState,
  facilitatorStateSchema,
  laneIdSchema,
  laneSelectionSchema,
  type FacilitatorLaneState,
  type FacilitatorSettings,
  type LaneSelection,
} from './lanes';

export const priceSchema = z.object({ units: z.string(), amount: z.string(), asset: z.string(), decimals: z.literal(6) });
export type Price = z.infer<typeof priceSchema>;

export function priceOf(service: PaidVaultService, lane: LaneSelection): Price {
  return { units: service.priceUnits.toString(), amount: formatUsdgUnits(service.priceUnits), asset: lane.asset, decimals: 6 };
}

export const serviceListingSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  returns: z.string().describe('what the buyer gets back, in words'),
  example: z.record(z.string(), z.unknown()).describe("a valid request body for the service's own input"),
  route: z.string(),
  requirementsRoute: z.string(),
  freeRoute: z.string().nullable(),
  provider: laneIdSchema,
  paymentChain: z.string(),
  network: z.string(),
  price: priceSchema,
  settlementAsset: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int(), chain: z.string() }),
  settlesHere: z.boolean(),
  reason: z.string(),
});

export function serviceListing(service: PaidVaultService, lane: LaneSelection): z.infer<typeof serviceListingSchema> {
  return {
    name: service.name,
    title: service.title,
    description: service.description,
    returns: service.returns,
    example: service.example,
    route: `POST ${paidServiceRoute(service.name)}`,
    requirementsRoute: `POST ${paidServiceRoute(service.name)}/requirements`,
    freeRoute: service.freeRoute,
    provider: lane.provider,
    paymentChain: lane.paymentChain,
    network: lane.network,
    price: priceOf(service, lane),
    settlementAsset: { symbol: lane.asset, address: lane.assetAddress, decimals: lane.assetDecimals, chain: lane.paymentChain },
    settlesHere: lane.settlesHere,
    reason: lane.reason,
  };
}

export const partnerCloudEndpointFamilySchema = z.enum(['tooling', 'autonomy', 'vault_scaffold']);

export const providerDirectorySchema = z.object({
  partnerCloud: z.object({
    provider: z.literal(PARTNER_CLOUD_LANE.provider),
    label: z.string(),
    status: z.literal('live'),
    paymentChain: z.literal(PARTNER_CLOUD_LANE.paymentChain),
    chainId: z.literal(PARTNER_CLOUD_LANE.chainId),
    network: z.string(),
    asset: z.literal(PARTNER_CLOUD_LANE.asset),
    assetAddress: z.string(),
    assetDecimals: z.literal(PARTNER_CLOUD_LANE.assetDecimals),
    endpointCount: z.number().int(),
    endpoints: z.array(z.object({ name: z.string(), family: partnerCloudEndpointFamilySchema, mirrors: z.string() })),
    usedFor: z.string(),
  }),
  facilitator: z.object({
    provider: z.literal(FACILITATOR_LANE.provider),
    label: z.string(),
    status: facilitatorStateSchema,
    paymentChain: z.literal(FACILITATOR_LANE.paymentChain),
    chainId: z.literal(FACILITATOR_LANE.chainId),
    network: z.string(),
    v1Network: z.string(),
    asset: z.literal(FACILITATOR_LANE.asset),
    assetAddress: z.string(),
    assetDecimals: z.literal(FACILITATOR_LANE.assetDecimals),
    mainnetOnly: z.literal(true),
    testnetLane: z.literal(false),
    payToPinned: z.boolean(),
    payTo: z.string().nullable(),
    facilitatorAddress: z.string().nullable(),
    blockers: z.array(z.string()),
    usedFor: z.string(),
  }),
  selfHosted: z.object({
    provider: z.literal(SELF_HOSTED_LANE.provider),
    label: z.string(),
    status: z.literal(SELF_HOSTED_LANE.status),
    paymentChain: z.null(),
    asset: z.null(),
    usedFor: z.string(),
  }),
});

/** The three providers, the facilitator's as configured now (states and setting names, never values). */
export function providerDirectory(state: FacilitatorLaneState): z.infer<typeof providerDirectorySchema> {
  return {
    partnerCloud: {
      provider: PARTNER_CLOUD_LANE.provider,
      label: PARTNER_CLOUD_LANE.label,
      status: 'live',
      ...lanePaymentTerms(PARTNER_CLOUD_LANE),
      endpointCount: PARTNER_CLOUD_ENDPOINTS.length,
      endpoints: [...PARTNER_CLOUD_ENDPOINTS],
      usedFor: 'tooling and autonomy services; vault-service scaffolds',
    },
    facilitator: {
      provider: FACILITATOR_LANE.provider,
      label: FACILITATOR_LANE.label,
      status: state.state,
      ...lanePaymentTerms(FACILITATOR_LANE),
      v1Network: FACILITATOR_LANE.v1Network,
      mainnetOnly: FACILITATOR_LANE.mainnetOnly,
      testnetLane: false,
      payToPinned: state.payTo !== null,
      payTo: state.payTo,
      facilitatorAddress: state.facilitatorAddress,
      blockers: state.blockers,
      usedFor: 'vault x402 services when enabled and configured',
    },
    selfHosted: {
      provider: SELF_HOSTED_LANE.provider,
      label: SELF_HOSTED_LANE.label,
      status: SELF_HOSTED_LANE.status,
      paymentChain: SELF_HOSTED_LANE.paymentChain,
      asset: SELF_HOSTED_LANE.asset,
      usedFor: 'research candidate only',
    },
  };
}

export const LANE_SELECTION_RULE =
  'Vault services use the facilitator lane when FACILITATOR_ENABLED=true and the server-only FACILITATOR_API_KEY is set; otherwise the partner-cloud lane. The chosen lane is always labelled with provider, chain and reason; there is no silent downgrade.';

export const laneSelectionPreviewSchema = z.object({
  rule: z.string(),
  vaultServices: z.array(z.object({ service: z.string(), price: priceSchema, lane: laneSelectionSchema })),
});

export function laneSelectionPreview(
  services: readonly PaidVaultService[],
  lane: LaneSelection,
): z.infer<typeof laneSelectionPreviewSchema> {
  return { rule: LANE_SELECTION_RULE, vaultServices: services.map((s) => ({ service: s.name, price: priceOf(s, lane), lane })) };
}

export const facilitatorLaneConstantsSchema = z.object({
  network: z.string(),
  v1Network: z.string(),
  chainId: z.literal(FACILITATOR_LANE.chainId),
  asset: z.literal(FACILITATOR_LANE.asset),
  assetAddress: z.string(),
  assetDecimals: z.literal(FACILITATOR_LANE.assetDecimals),
  eip712: z.object({ name: z.string(), version: z.string() }),
  mainnetOnly: z.literal(true),
  scheme: z.literal(X402_SCHEME),
  settleRoute: z.string(),
  supportedRoute: z.string(),
  verifyRouteUsed: z.literal(false),
  maxTimeoutSeconds: z.number().int(),
  settlementMarginSeconds: z.number().int(),
});

/** The facilitator lane's fixed facts as the status route shows them. */
export function facilitatorLaneConstants(): z.infer<typeof facilitatorLaneConstantsSchema> {
  return {
    network: FACILITATOR_LANE.network,
    v1Network: FACILITATOR_LANE.v1Network,
    chainId: FACILITATOR_LANE.chainId,
    asset: FACILITATOR_LANE.asset,
    assetAddress: FACILITATOR_LANE.assetAddress,
    assetDecimals: FACILITATOR_LANE.assetDecimals,
    eip712: { ...FACILITATOR_LANE.eip712 },
    mainnetOnly: FACILITATOR_LANE.mainnetOnly,
    scheme: X402_SCHEME,
    settleRoute: FACILITATOR_LANE.settleRoute,
    supportedRoute: FACILITATOR_LANE.supportedRoute,
    verifyRouteUsed: FACILITATOR_LANE.verifyRouteUsed,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    settlementMarginSeconds: SETTLEMENT_MARGIN_SECONDS,
  };
}

/** `not_checked` plus every state the supported-networks check can end in (facilitator-client.ts). */
export const reachabilityStateSchema = z.enum([
  'not_checked',
  'reachable',
  'unauthorized',
  'http_error',
  'timeout',
  'unreachable',
  'invalid_answer',
]);

export const reachabilitySchema = z.object({
  checked: z.boolean(),
  state: reachabilityStateSchema,
  httpStatus: z.number().int().nullable(),
  supportsLane: z.boolean().nullable(),
  reportedPayTo: z.string().nullable(),
  payToMatchesPinned: z.boolean().nullable(),
  signers: z.array(z.string()),
  note: z.string(),
});
export type Reachability = z.infer<typeof reachabilitySchema>;

/**
 * The live reachability of the facilitator: asked only when the key is set and the URL is
 * usable (`state.urlUsable`, decided by the lane check, not read from a blocker's words), and
 * classified by the client where the call ended (fetch failure or timeout vs HTTP status).
 */
export async function facilitatorReachability(
  settings: FacilitatorSettings,
  client: Pick<FacilitatorClient, 'supported'>,
): Promise<Reachability> {
  const state = facilitatorLaneState(settings);
  const unchecked = {
    checked: false,
    state: 'not_checked',
    httpStatus: null,
    supportsLane: null,
    reportedPayTo: null,
    payToMatchesPinned: null,
  } as const;
  if (!settings.apiKeyPresent)
    return { ...unchecked, signers: [], note: 'FACILITATOR_API_KEY is not set, so the facilitator is not contacted' };
  if (!state.urlUsable) {
    const note = settings.url
      ? 'FACILITATOR_URL is not an http(s) URL, so there is nothing to reach'
      : 'FACILITATOR_URL is not set, so there is nothing to reach';
    return { ...unchecked, signers: [], note };
  }
  const check = await client.supported();
  if (check.state !== 'reachable') {
    return {
      checked: true,
      state: check.state,
      httpStatus: 'httpStatus' in check ? check.httpStatus : null,
      supportsLane: null,
      reportedPayTo: null,
      payToMatchesPinned: null,
      signers: [],
      note: 'The supported-networks route did not give a usable answer.',
    };
  }
  const laneKinds = check.kinds.filter(
    (k) => k.scheme === X402_SCHEME && (k.network === FACILITATOR_LANE.network || k.network === FACILITATOR_LANE.v1Network),
  );
  const reportedPayTo = laneKinds.map((k) => k.payTo).find((p) => p !== null) ?? null;
  return {
    checked: true,
    state: 'reachable',
    httpStatus: 200,
    supportsLane: laneKinds.length > 0,
    reportedPayTo,
    payToMatchesPinned: reportedPayTo === null || state.payTo === null ? null : reportedPayTo.toLowerCase() === state.payTo.toLowerCase(),
    signers: check.signers,
    note:
      laneKinds.length > 0
        ? 'The facilitator lists the exact scheme on the broker chain.'
        : 'The facilitator answered but does not list the exact scheme on the broker chain.',
  };
}
