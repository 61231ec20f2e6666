/**
 * Whether a signature proves that the message's address signed the exact message text.
 * Externally owned accounts are checked locally (ECDSA recovery, no network). When the
 * broker chain's RPC is configured, a signature that does not recover to the address is
 * also tried as a contract wallet's (ERC-1271, or ERC-6492 for a wallet not deployed yet)
 * through read-only calls on chain 4663 (`eth_getCode`, then viem's ERC-6492 universal
 * validator in an `eth_call`, which also covers deployed ERC-1271 wallets). A chain that does
 * not answer is reported as such (503), not as a bad signature.
 */
import { verifyMessage, type Hex } from 'viem';
import { isErc6492Signature } from 'viem/utils';
import type { BrokerChainClient } from '../chain-client';
import { BROKER_CHAIN_ID } from '../registry';
import { SvcError } from '../errors';
import { AUTH_CODES } from './errors';

export interface SignatureCheck {
  address: `0x${string}`;
  message: string;
  signature: Hex;
  chainId: number;
}

export interface SignatureOptions {
  /** The client of chain 4663 (null or absent when BROKER_CHAIN_RPC_URL is unset: EOAs only). */
  chain?: BrokerChainClient | null;
}

/** The RPC URL is secret: the transport error is not passed on. */
function unavailable(): never {
  throw new SvcError(
    AUTH_CODES.SIWE_SIGNATURE_CHECK_UNAVAILABLE,
    'The contract-wallet signature could not be checked: chain 4663 did not answer',
    {
      issues: [
        { code: AUTH_CODES.SIWE_SIGNATURE_CHECK_UNAVAILABLE, message: 'chain 4663 RPC unavailable; try again later', path: 'signature' },
      ],
    },
  );
}

function invalid(): never {
  throw new SvcError(AUTH_CODES.SIWE_SIGNATURE_INVALID, "The signature was not made by the message's address for this exact message", {
    issues: [{ code: AUTH_CODES.SIWE_SIGNATURE_INVALID, message: 'signature does not verify', path: 'signature' }],
  });
}

export async function verifySignInSignature(check: SignatureCheck, options: SignatureOptions = {}): Promise<void> {
  let eoaValid: boolean;
  try {
    eoaValid = await verifyMessage({ address: check.address, message: check.message, signature: check.signature });
  } catch {
    eoaValid = false;
  }
  if (eoaValid) return;

  // A contract wallet lives on one chain; only the broker chain has an RPC here.
  const client = options.chain;
  if (!client || check.chainId !== BROKER_CHAIN_ID) invalid();
  let code: Hex | undefined;
  try {
    code = await client.getCode({ address: check.address });
  } catch {
    unavailable();
  }
  // No code and no ERC-6492 wrapper (which carries the deployment): an EOA whose signature
  // did not recover above.
  if (!code && !isErc6492Signature(check.signature)) invalid();

  let contractValid: boolean;
  try {
    contractValid = await client.verifyMessage({ address: check.address, message: check.message, signature: check.signature });
  } catch {
    unavailable();
  }
  if (!contractValid) invalid();
}
