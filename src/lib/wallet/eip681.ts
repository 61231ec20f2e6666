/**
 * EIP-681 payment-request links a phone wallet can scan when the page has no browser wallet.
 * Hand-written: EIP-681 is a URI grammar of a few lines, and no maintained package builds it
 * for arbitrary contract calls; viem has no EIP-681 encoder. The grammar:
 * `ethereum:<target>@<chain_id>/<function_name>?<type>=<value>&...` (parameters in the
 * function's order, numbers as plain decimal integers, which every reader accepts).
 */
import { BROKER_CHAIN_ID } from './chain';

export type Eip681Parameter = readonly [type: 'address' | 'uint256' | 'bytes32', value: string];

/** A contract call on chain 4663 as an EIP-681 link. */
export function eip681Call(target: string, functionName: string, parameters: readonly Eip681Parameter[]): string {
  const query = parameters.map(([type, value]) => `${type}=${encodeURIComponent(value)}`).join('&');
  return `ethereum:${target}@${BROKER_CHAIN_ID}/${functionName}${query ? `?${query}` : ''}`;
}

/** ERC-20 `approve(spender, units)` on the token. */
export function eip681Approve(token: string, spender: string, units: string): string {
  return eip681Call(token, 'approve', [
    ['address', spender],
    ['uint256', units],
  ]);
}

/** The V1 vault's `depositWithAcks(units, receiver, riskAck, jurisdictionAck)`. */
export function eip681DepositWithAcks(vault: string, units: string, receiver: string, riskAck: string, jurisdictionAck: string): string {
  return eip681Call(vault, 'depositWithAcks', [
    ['uint256', units],
    ['address', receiver],
    ['bytes32', riskAck],
    ['bytes32', jurisdictionAck],
  ]);
}
