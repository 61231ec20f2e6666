/**
 * The public deposit gate of a Rail A vault: a strict AND of live reads, closed on anything
 * unknown. Deposit and withdraw intents are refused while it is closed (interface 4.1).
 *
 *   1. the vault accepts public deposits      (vault.acceptingPublicDeposits())
 *   2. the deposit-readiness registry says ready (candidate, terms, audit, not blocked)
 *   3. live pricing is usable                 (vault.totalAssets() does not revert)
 *   4. the vault is not paused                (vault.paused())
 */
import { z } from 'zod';
import { DEPOSIT_READINESS_ABI, V1_VAULT_ABI } from './abi';
import { checkChain, classifyChainError, READ_FAILURE_TEXT, type ChainReader } from './chain';
import { addressShape } from './pack-shapes';
import type { RailAVault } from './registry';

/** Declared once: the routes' output schema, with the domain types inferred from it. */
export const gateStateSchema = z.enum(['OPEN', 'PAUSED', 'BLOCKED', 'ORACLE_UNAVAILABLE', 'UNKNOWN']);
export type GateState = z.infer<typeof gateStateSchema>;

export const gateCheckSchema = z.object({
  name: z.enum(['accepting_public_deposits', 'deposit_readiness', 'live_pricing', 'not_paused']),
  contract: z.string(),
  call: z.string(),
  result: z.enum(['pass', 'fail', 'unknown']),
  reason: z.string(),
});
export type GateCheck = z.infer<typeof gateCheckSchema>;

export const depositReadinessFlagsSchema = z.object({
  candidate: z.boolean(),
  depositTermsReady: z.boolean(),
  auditReady: z.boolean(),
  blocked: z.boolean(),
});
export type DepositReadinessFlags = z.infer<typeof depositReadinessFlagsSchema>;

export const depositGateSchema = z
  .object({
    vaultSlug: z.string(),
    vaultAddress: addressShape,
    state: gateStateSchema,
    open: z.boolean(),
    source: z.enum(['onchain_eth_call', 'none']),
    checkedAt: z.string(),
    checks: z.array(gateCheckSchema),
    readiness: depositReadinessFlagsSchema.nullable(),
    reason: z.string(),
  })
  .meta({ id: 'DepositGate' });
export type DepositGate = z.infer<typeof depositGateSchema>;

type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, reason: READ_FAILURE_TEXT[classifyChainError(error)] };
  }
}

export async function evaluateDepositGate(vault: RailAVault, reader: ChainReader | null, now: Date): Promise<DepositGate> {
  const head = { vaultSlug: vault.slug, vaultAddress: vault.address, checkedAt: now.toISOString() };
  const chain = await checkChain(reader);
  if (!chain.ok) {
    const reason = READ_FAILURE_TEXT[chain.reason];
    const unknown = (name: GateCheck['name'], contract: string, call: string): GateCheck => ({
      name,
      contract,
      call,
      result: 'unknown',
      reason,
    });
    return {
      ...head,
      state: 'UNKNOWN',
      open: false,
      source: 'none',
      checks: [
        unknown('accepting_public_deposits', vault.address, 'acceptingPublicDeposits()'),
        unknown('deposit_readiness', vault.depositReadinessRegistryAddress, 'getDepositReadiness(vault)'),
        unknown('live_pricing', vault.address, 'totalAssets()'),
        unknown('not_paused', vault.address, 'paused()'),
      ],
      readiness: null,
      reason: `The gate is closed because it could not be evaluated: ${reason}. An unknown gate is never open.`,
    };
  }
  const r = reader!;
  const [accepting, readiness, pricing, paused] = await Promise.all([
    attempt(() => r.readContract<boolean>({ address: vault.address, abi: V1_VAULT_ABI, functionName: 'acceptingPublicDeposits' })),
    attempt(() =>
      r.readContract<DepositReadinessFlags>({
        address: vault.depositReadinessRegistryAddress,
        abi: DEPOSIT_READINESS_ABI,
        functionName: 'getDepositReadiness',
        args: [vault.address],
      }),
    ),
    attempt(() => r.readContract<bigint>({ address: vault.address, abi: V1_VAULT_ABI, functionName: 'totalAssets' })),
    attempt(() => r.readContract<boolean>({ address: vault.address, abi: V1_VAULT_ABI, functionName: 'paused' })),
  ]);

  const flags = readiness.ok
    ? {
        candidate: readiness.value.candidate,
        depositTermsReady: readiness.value.depositTermsReady,
        auditReady: readiness.value.auditReady,
        blocked: readiness.value.blocked,
      }
    : null;
  const ready = flags ? flags.candidate && flags.depositTermsReady && flags.auditReady && !flags.blocked : undefined;

  const checks: GateCheck[] = [
    {
      name: 'accepting_public_deposits',
      contract: vault.address,
      call: 'acceptingPublicDeposits()',
      result: accepting.ok ? (accepting.value ? 'pass' : 'fail') : 'unknown',
      reason: accepting.ok
        ? accepting.value
          ? 'the vault accepts public deposits'
          : 'the vault does not accept public deposits'
        : accepting.reason,
    },
    {
      name: 'deposit_readiness',
      contract: vault.depositReadinessRegistryAddress,
      call: 'getDepositReadiness(vault)',
      result: flags ? (ready ? 'pass' : 'fail') : 'unknown',
      reason: flags
        ? ready
          ? 'candidate, deposit terms ready, audit ready and not blocked'
          : `not deposit-ready: ${[
              !flags.candidate && 'not a candidate',
              !flags.depositTermsReady && 'deposit terms not ready',
              !flags.auditReady && 'audit not ready',
              flags.blocked && 'blocked',
            ]
              .filter(Boolean)
              .join(', ')}`
        : (readiness as { reason: string }).reason,
    },
    {
      name: 'live_pricing',
      contract: vault.address,
      call: 'totalAssets()',
      result: pricing.ok ? 'pass' : 'fail',
      reason: pricing.ok ? 'the vault values its assets (totalAssets() answers)' : `live pricing is not usable: ${pricing.reason}`,
    },
    {
      name: 'not_paused',
      contract: vault.address,
      call: 'paused()',
      result: paused.ok ? (paused.value ? 'fail' : 'pass') : 'unknown',
      reason: paused.ok ? (paused.value ? 'the vault is paused' : 'the vault is not paused') : paused.reason,
    },
  ];

  let state: GateState;
  if (paused.ok && paused.value) state = 'PAUSED';
  else if ((flags && !ready) || (accepting.ok && !accepting.value)) state = 'BLOCKED';
  else if (!pricing.ok) state = 'ORACLE_UNAVAILABLE';
  else if (checks.some((c) => c.result !== 'pass')) state = 'UNKNOWN';
  else state = 'OPEN';
  const open = state === 'OPEN';
  const failing = checks.filter((c) => c.result !== 'pass').map((c) => `${c.name}: ${c.reason}`);
  return {
    ...head,
    state,
    open,
    source: 'onchain_eth_call',
    checks,
    readiness: flags,
    reason: open ? 'Every check passed on chain 4663 (chain id verified first).' : `The gate is closed (${state}): ${failing.join('; ')}.`,
  };
}
