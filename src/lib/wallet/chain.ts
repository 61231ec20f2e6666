/**
 * The one guard every wallet action passes before a signature or a transaction: the wallet
 * must be on the broker chain (4663). The page asks the wallet to switch
 * (`wallet_switchEthereumChain`), asks it to add the chain when it does not know it
 * (`wallet_addEthereumChain`, EIP-3085, error 4902), reads the chain id again, and refuses
 * to go on otherwise. Nothing is signed or sent on another chain.
 */
import { env } from '$env/dynamic/public';
import { isUserRejection, type Eip1193Provider } from './eip1193';

export const BROKER_CHAIN_ID = 4663;
export const BROKER_CHAIN_ID_HEX = `0x${BROKER_CHAIN_ID.toString(16)}` as const;

/** EIP-1193 / EIP-3085: the wallet does not know the requested chain. */
const UNRECOGNIZED_CHAIN = 4902;

/** A refusal of the guard: its `code` is stable and shown with the message. */
export class WalletChainError extends Error {
  constructor(
    readonly code: 'WALLET_CHAIN_SWITCH_DECLINED' | 'WALLET_CHAIN_UNKNOWN' | 'WALLET_CHAIN_NOT_SWITCHED',
    message: string,
  ) {
    super(message);
    this.name = 'WalletChainError';
  }
}

export interface AddChainParameters {
  chainId: string;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
}

/**
 * The EIP-3085 parameters of the broker chain, from the deployment's public settings
 * (`PUBLIC_BROKER_CHAIN_RPC_URL`, optional `PUBLIC_BROKER_CHAIN_EXPLORER_URL`). Without a
 * public RPC address there is nothing to offer the wallet: undefined.
 */
export function brokerChainParameters(): AddChainParameters | undefined {
  const rpc = env.PUBLIC_BROKER_CHAIN_RPC_URL?.trim();
  if (!rpc) return undefined;
  const explorer = env.PUBLIC_BROKER_CHAIN_EXPLORER_URL?.trim();
  return {
    chainId: BROKER_CHAIN_ID_HEX,
    chainName: 'Broker chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: [rpc],
    ...(explorer ? { blockExplorerUrls: [explorer] } : {}),
  };
}

function errorCode(error: unknown): number | undefined {
  const e = error as { code?: unknown; data?: { originalError?: { code?: unknown } } } | null;
  if (typeof e?.code === 'number') return e.code;
  const nested = e?.data?.originalError?.code;
  return typeof nested === 'number' ? nested : undefined;
}

export async function walletChainId(provider: Eip1193Provider): Promise<number> {
  return Number.parseInt(String(await provider.request({ method: 'eth_chainId' })), 16);
}

/**
 * Makes sure the wallet is on chain 4663, asking it to switch (and to add the chain) when it
 * is not. Resolves with 4663; throws WalletChainError when the wallet stays elsewhere.
 */
export async function ensureBrokerChain(
  provider: Eip1193Provider,
  parameters: AddChainParameters | undefined = brokerChainParameters(),
): Promise<number> {
  if ((await walletChainId(provider)) === BROKER_CHAIN_ID) return BROKER_CHAIN_ID;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: BROKER_CHAIN_ID_HEX }] });
  } catch (error) {
    if (isUserRejection(error))
      throw new WalletChainError(
        'WALLET_CHAIN_SWITCH_DECLINED',
        `You declined to switch your wallet to chain ${BROKER_CHAIN_ID}; nothing was signed or sent.`,
      );
    if (errorCode(error) !== UNRECOGNIZED_CHAIN) {
      throw new WalletChainError(
        'WALLET_CHAIN_NOT_SWITCHED',
        `Your wallet did not switch to chain ${BROKER_CHAIN_ID}; nothing was signed or sent.`,
      );
    }
    if (!parameters) {
      throw new WalletChainError(
        'WALLET_CHAIN_UNKNOWN',
        `Your wallet does not know chain ${BROKER_CHAIN_ID}. Add it in your wallet, then try again; nothing was signed or sent.`,
      );
    }
    try {
      await provider.request({ method: 'wallet_addEthereumChain', params: [parameters] });
    } catch (addError) {
      if (isUserRejection(addError))
        throw new WalletChainError(
          'WALLET_CHAIN_SWITCH_DECLINED',
          `You declined to add chain ${BROKER_CHAIN_ID} to your wallet; nothing was signed or sent.`,
        );
      throw new WalletChainError('WALLET_CHAIN_UNKNOWN', `Your wallet could not add chain ${BROKER_CHAIN_ID}; nothing was signed or sent.`);
    }
  }
  // Trust the wallet's own answer, not the absence of an error.
  if ((await walletChainId(provider)) !== BROKER_CHAIN_ID) {
    throw new WalletChainError(
      'WALLET_CHAIN_NOT_SWITCHED',
      `Your wallet is still on another chain than ${BROKER_CHAIN_ID}; nothing was signed or sent.`,
    );
  }
  return BROKER_CHAIN_ID;
}

/** eth_sendTransaction, only after the wallet is on chain 4663 (and with the chain id in the call). */
export async function sendTransactionOnBrokerChain(
  provider: Eip1193Provider,
  tx: { from: string; to: string; data: string },
): Promise<string> {
  await ensureBrokerChain(provider);
  return (await provider.request({ method: 'eth_sendTransaction', params: [{ ...tx, chainId: BROKER_CHAIN_ID_HEX }] })) as string;
}
