/**
 * Deposit and withdraw intents for a Rail A vault, gated by deposit readiness (interface 4.1).
 * Inputs are validated first; then the public deposit gate is read live; a closed or
 * unknown gate refuses with DEPOSIT_GATE_CLOSED and the failing checks. An intent is
 * calldata at the PREPARATION stage: nothing is signed or sent.
 */
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { SvcError } from '../errors';
import { V1_VAULT_ABI } from './abi';
import type { ChainReader } from './chain';
import { evaluateDepositGate, type DepositGate } from './deposit-gate';
import {
  buildDepositPack,
  validatePackRequest,
  validateReceiver,
  type DepositPackDeps,
  type DepositPackRequest,
  type DepositPackResult,
} from './deposit-pack';
import { resolveRailAVault } from './registry';

export const INTENT_VERSION = 'svc-vault-intent-1.0.0';

function gateClosed(gate: DepositGate, what: 'deposit' | 'withdraw'): never {
  throw new SvcError(
    'DEPOSIT_GATE_CLOSED',
    `The vault's deposit gate is ${gate.state}: no ${what} intent is prepared while it is closed (GET /api/vaults/readiness shows every check)`,
    {
      issues: gate.checks
        .filter((c) => c.result !== 'pass')
        .map((c) => ({ code: `GATE_${c.name.toUpperCase()}_${c.result.toUpperCase()}`, message: c.reason })),
    },
  );
}

export async function createDepositIntent(
  request: DepositPackRequest,
  deps: DepositPackDeps,
): Promise<{
  intent: {
    intentVersion: string;
    kind: 'deposit';
    stage: 'PREPARATION';
    liveTransactionSent: false;
    vaultSlug: string;
    vaultAddress: Address;
    planHash: string;
    calls: Array<{ step: number; to: Address; data: Hex; description: string }>;
  };
  gate: DepositGate;
  result: DepositPackResult;
}> {
  validatePackRequest(request);
  const vault = resolveRailAVault(request.vaultId);
  const gate = await evaluateDepositGate(vault, deps.chain, deps.now);
  if (!gate.open) gateClosed(gate, 'deposit');
  const result = await buildDepositPack(request, deps);
  const { pack } = result;
  return {
    intent: {
      intentVersion: INTENT_VERSION,
      kind: 'deposit',
      stage: 'PREPARATION',
      liveTransactionSent: false,
      vaultSlug: vault.slug,
      vaultAddress: vault.address,
      planHash: pack.planHash,
      calls: [
        {
          step: 1,
          to: pack.assetAddress,
          data: pack.approveCalldata,
          description: `approve(vault, ${pack.amountUnits}) on USDG, signed in your own wallet`,
        },
        {
          step: 2,
          to: pack.vaultAddress,
          data: pack.depositCalldata,
          description: `depositWithAcks(${pack.amountUnits}, receiver, riskAck, jurisdictionAck) on the vault, signed in your own wallet`,
        },
      ],
    },
    gate,
    result,
  };
}

export interface WithdrawIntentRequest {
  vaultId?: string;
  shares: string;
  receiver: unknown;
}

function parseShares(value: string): bigint {
  if (!/^\d+$/.test(value)) {
    throw new SvcError('SHARES_MALFORMED', 'shares must be an integer string of share units', {
      issues: [{ code: 'SHARES_MALFORMED', message: 'digits only', path: 'shares' }],
    });
  }
  const shares = BigInt(value);
  if (shares === 0n) {
    throw new SvcError('SHARES_NOT_POSITIVE', 'shares must be greater than zero', {
      issues: [{ code: 'SHARES_NOT_POSITIVE', message: 'greater than zero', path: 'shares' }],
    });
  }
  return shares;
}

export async function createWithdrawIntent(request: WithdrawIntentRequest, deps: { now: Date; chain: ChainReader | null }) {
  const vault = resolveRailAVault(request.vaultId);
  const shares = parseShares(request.shares);
  // Shares are redeemed from the signer's own balance to the signer's own wallet.
  const receiver = validateReceiver(request.receiver, vault);
  const gate = await evaluateDepositGate(vault, deps.chain, deps.now);
  if (!gate.open) gateClosed(gate, 'withdraw');
  return {
    intent: {
      intentVersion: INTENT_VERSION,
      kind: 'withdraw' as const,
      stage: 'PREPARATION' as const,
      liveTransactionSent: false as const,
      vaultSlug: vault.slug,
      vaultAddress: vault.address,
      shares: shares.toString(),
      receiver,
      owner: receiver,
      function: 'redeem(uint256,address,address)',
      calls: [
        {
          step: 1,
          to: vault.address,
          data: encodeFunctionData({ abi: V1_VAULT_ABI, functionName: 'redeem', args: [shares, receiver, receiver] }),
          description: `redeem(${shares}, receiver, owner) on the vault, signed in your own wallet (receiver and owner are your address)`,
        },
      ],
      generatedAt: deps.now.toISOString(),
    },
    gate,
  };
}
