/**
 * The architecture object of spec 2.11, value by value. It is embedded in the vault schema
 * and served by the x402 schema: it states which chain holds the vaults, which chains take
 * x402 payments, and that the service neither uses a brokerage MCP for vault execution nor
 * stores brokerage credentials nor places orders.
 */
import { getAddress, isAddress, type Address } from 'viem';
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { BROKER_CHAIN_NAME } from '../registry/data';

export interface ArchitectureConfig {
  /** FACILITATOR_ADDRESS (public, not a secret); null when not configured. */
  facilitatorAddress?: string;
}

export function architectureObject(cfg: ArchitectureConfig) {
  const facilitator: Address | null = cfg.facilitatorAddress && isAddress(cfg.facilitatorAddress, { strict: false }) ? getAddress(cfg.facilitatorAddress) : null;
  return {
    vaultChain: BROKER_CHAIN_NAME as 'broker_chain',
    vaultChainId: BROKER_CHAIN_ID,
    baseAsset: 'USDG' as const,
    baseAssetAddress: getAddress(USDG.address),
    x402Providers: {
      partnerCloud: {
        status: 'live_or_configured' as const,
        paymentChain: 'base' as const,
        label: 'Partner cloud x402 lane: USDC on base, a payment rail only (never a vault chain)',
      },
      facilitator: {
        status: 'configured_or_live_or_blocked' as const,
        paymentChain: BROKER_CHAIN_NAME as 'broker_chain',
        chainId: BROKER_CHAIN_ID,
        asset: 'USDG' as const,
        facilitator,
        label: facilitator
          ? 'Facilitator x402 lane: USDG on the broker chain (4663), mainnet only, settled by the facilitator'
          : 'Facilitator x402 lane: USDG on the broker chain (4663), mainnet only; the facilitator address is not configured (FACILITATOR_ADDRESS), so the lane is blocked',
      },
    },
    brokerMcpUsedForVaultExecution: false as const,
    svcStoresBrokerCredentials: false as const,
    svcPlacesOrders: false as const,
  };
}

export type ArchitectureObject = ReturnType<typeof architectureObject>;
