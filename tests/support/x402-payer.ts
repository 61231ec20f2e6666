/**
 * A buyer's side of x402 for tests: signs an EIP-3009 TransferWithAuthorization with a viem
 * local account over the USDG EIP-712 domain and wraps it as a v1 `X-PAYMENT` or a v2
 * `PAYMENT-SIGNATURE` header value.
 */
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { getAddress, toHex, type Hex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { USDG } from '../../src/lib/server/registry';

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface AuthorizationTerms {
  to: string;
  value: bigint | string;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  /** Sign over another domain (to prove the server checks it). */
  domain?: { name?: string; version?: string; chainId?: number; verifyingContract?: Hex };
}

export function randomNonce(): Hex {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

export function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

export interface SignedAuthorization {
  signature: Hex;
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: Hex };
}

export async function signAuthorization(account: LocalAccount, terms: AuthorizationTerms): Promise<SignedAuthorization> {
  const message = {
    from: account.address,
    to: getAddress(terms.to),
    value: BigInt(terms.value),
    validAfter: terms.validAfter ?? 0n,
    validBefore: terms.validBefore ?? nowSeconds() + 600n,
    nonce: terms.nonce ?? randomNonce(),
  };
  const signature = await account.signTypedData({
    domain: {
      name: terms.domain?.name ?? USDG.name,
      version: terms.domain?.version ?? '1',
      chainId: terms.domain?.chainId ?? 4663,
      verifyingContract: terms.domain?.verifyingContract ?? (USDG.address as Hex),
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
  return {
    signature,
    authorization: {
      from: message.from,
      to: message.to,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
  };
}

/** A v1 `X-PAYMENT` header value. */
export function v1PaymentHeader(signed: SignedAuthorization, network = 'broker'): string {
  return Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact', network, payload: signed })).toString('base64');
}

/** A v2 `PAYMENT-SIGNATURE` header value accepting the given requirement. */
export function v2PaymentHeader(signed: SignedAuthorization, accepted: object, resource?: object): string {
  return encodePaymentSignatureHeader({
    x402Version: 2,
    ...(resource ? { resource: resource as never } : {}),
    accepted: accepted as never,
    payload: signed as never,
  });
}

export function decodeBase64Json(value: string | null): any {
  if (value === null) return null;
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
}
