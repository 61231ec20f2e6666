/**
 * Paying for one paid answer from the browser wallet (x402 v2, the `exact` EVM scheme): the
 * wallet must be on chain 4663 (the one guard every wallet action passes), then x402's own
 * client scheme builds the EIP-3009 TransferWithAuthorization for exactly the server's
 * requirement and has the wallet sign it (viem sends `eth_signTypedData_v4`), and x402's own
 * encoder wraps it as the `PAYMENT-SIGNATURE` header value. Nothing is sent to the chain here:
 * the facilitator settles, and only after the server has the answer ready.
 */
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequirements, ResourceInfo } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createWalletClient, custom, getAddress, type TypedDataDefinition } from 'viem';
import { ensureBrokerChain } from './chain';
import type { Eip1193Provider } from './eip1193';

export interface SignedPayment {
  /** The PAYMENT-SIGNATURE header value. */
  header: string;
  payer: string;
  nonce: string;
}

export async function signPayment(
  provider: Eip1193Provider,
  account: string,
  accepted: PaymentRequirements,
  resource: ResourceInfo | undefined,
): Promise<SignedPayment> {
  await ensureBrokerChain(provider);
  const address = getAddress(account);
  const wallet = createWalletClient({ account: address, transport: custom(provider) });
  const signer = {
    address,
    signTypedData: (typed: {
      domain: Record<string, unknown>;
      types: Record<string, unknown>;
      primaryType: string;
      message: Record<string, unknown>;
    }) => wallet.signTypedData({ account: address, ...(typed as unknown as TypedDataDefinition) }),
  };
  const { payload } = await new ExactEvmScheme(signer).createPaymentPayload(2, accepted);
  const authorization = (payload as { authorization: { nonce: string } }).authorization;
  return {
    header: encodePaymentSignatureHeader({ x402Version: 2, ...(resource ? { resource } : {}), accepted, payload }),
    payer: address,
    nonce: authorization.nonce,
  };
}
