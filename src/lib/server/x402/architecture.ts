/**
 * The architecture object of interface 2.11, value by value. It is served by
 * `GET /api/x402/schema` and embedded in the vault schemas, so it is built in one place.
 *
 * The status strings are the spec's literal values: they name the states a lane can be in
 * (the live state of each lane is reported beside it by the providers and status routes).
 */
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { BROKER_CHAIN_NAME } from '../registry/data';
import { FACILITATOR_LANE, PARTNER_CLOUD_LANE } from './constants';

export interface X402Architecture {
  vaultChain: 'broker_chain';
  vaultChainId: 4663;
  baseAsset: 'USDG';
  baseAssetAddress: string;
  x402Providers: {
    partnerCloud: { status: 'live_or_configured'; paymentChain: 'base'; label: string };
    facilitator: {
      status: 'configured_or_live_or_blocked';
      paymentChain: 'broker_chain';
      chainId: 4663;
      asset: 'USDG';
      /** The facilitator's address (FACILITATOR_ADDRESS), or null until it is configured. */
      facilitator: string | null;
      label: string;
    };
  };
  brokerMcpUsedForVaultExecution: false;
  svcStoresBrokerCredentials: false;
  svcPlacesOrders: false;
}

/**
 * The architecture object. `facilitatorAddress` is the checksummed FACILITATOR_ADDRESS;
 * an address that is not configured is null, never a made-up or zero address.
 */
export function x402Architecture(facilitatorAddress: string | null): X402Architecture {
  return {
    vaultChain: BROKER_CHAIN_NAME as 'broker_chain',
    vaultChainId: BROKER_CHAIN_ID,
    baseAsset: 'USDG',
    baseAssetAddress: USDG.address,
    x402Providers: {
      partnerCloud: {
        status: 'live_or_configured',
        paymentChain: PARTNER_CLOUD_LANE.paymentChain,
        label: PARTNER_CLOUD_LANE.label,
      },
      facilitator: {
        status: 'configured_or_live_or_blocked',
        paymentChain: FACILITATOR_LANE.paymentChain as 'broker_chain',
        chainId: FACILITATOR_LANE.chainId,
        asset: FACILITATOR_LANE.asset,
        facilitator: facilitatorAddress,
        label: FACILITATOR_LANE.label,
      },
    },
    brokerMcpUsedForVaultExecution: false,
    svcStoresBrokerCredentials: false,
    svcPlacesOrders: false,
  };
}

/** The architecture object for the service configuration (FACILITATOR_ADDRESS, checksummed; null when unset or invalid). */
export function x402ArchitectureFromConfig(facilitator: { address?: string }): X402Architecture {
  const address = facilitator.address && isAddress(facilitator.address, { strict: false }) ? getAddress(facilitator.address) : null;
  return x402Architecture(address);
}

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** The output schema of the architecture object, for every route that embeds it. */
export const x402ArchitectureSchema = z
  .object({
    vaultChain: z.literal('broker_chain'),
    vaultChainId: z.literal(4663),
    baseAsset: z.literal('USDG'),
    baseAssetAddress: hexAddress,
    x402Providers: z.object({
      partnerCloud: z.object({ status: z.literal('live_or_configured'), paymentChain: z.literal('base'), label: z.string() }),
      facilitator: z.object({
        status: z.literal('configured_or_live_or_blocked'),
        paymentChain: z.literal('broker_chain'),
        chainId: z.literal(4663),
        asset: z.literal('USDG'),
        facilitator: hexAddress.nullable(),
        label: z.string(),
      }),
    }),
    brokerMcpUsedForVaultExecution: z.literal(false),
    svcStoresBrokerCredentials: z.literal(false),
    svcPlacesOrders: z.literal(false),
  })
  .meta({
    id: 'X402Architecture',
    description:
      'The architecture object, built by one function and embedded identically in GET /api/x402/schema and GET /api/vaults/schema: the vault chain, the x402 providers (payment rails, never vault chains) and the three negative guarantees.',
  });
