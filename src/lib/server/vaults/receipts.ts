/**
 * Vault receipts: deterministic, content-addressed fingerprints of a vault artifact (a
 * manifest, a deposit pack) or of a deposit's on-chain proof. A receipt's stage follows
 * interface 3.2: PREPARATION for anything not proven on chain, SETTLEMENT only for a deposit the
 * chain proves (the V1 vault settles a deposit in the same transaction, so there is no
 * queued SUBMISSION stage on this rail). The receipt itself is not anchored on chain.
 */
import { hashCanonical } from '../canonical';
import type { Hex } from 'viem';
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID, ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../registry';
import type { ChainReader } from './chain';
import { verifyVaultDeposit, type DepositVerification } from './completion';
import { computePlanHash, normalizePlanHash, type DepositPack } from './deposit-pack';
import { validateVaultManifest, vaultManifestHash, type VaultManifest } from './manifest';
import { resolveRailAVault, V1_VAULT, VAULT_REGISTRY_VERSION } from './registry';
import { z } from 'zod';

export const VAULT_RECEIPT_VERSION = 'svc-vault-receipt-1.0.0';

/** Declared once: the receipt route's output schema, and the domain type inferred from it. */
export const vaultReceiptKindSchema = z.enum(['vault_manifest', 'deposit_pack', 'deposit_settlement']);
export type VaultReceiptKind = z.infer<typeof vaultReceiptKindSchema>;
export const vaultReceiptStatusSchema = z.enum(['paper', 'onchain_confirmed', 'onchain_reverted', 'unverified']);
export type VaultReceiptStatus = z.infer<typeof vaultReceiptStatusSchema>;

export const vaultReceiptSchema = z
  .object({
    receiptVersion: z.string(),
    receiptId: z.string(),
    kind: vaultReceiptKindSchema,
    vaultSlug: z.string(),
    vaultAddress: z.string(),
    chainId: z.number().int(),
    subjectHash: z.string(),
    stage: z.enum(['PREPARATION', 'SETTLEMENT']),
    status: vaultReceiptStatusSchema,
    validationStatus: z.enum(['valid', 'valid-with-warnings', 'invalid']).nullable(),
    txHash: z.string().nullable(),
    blockNumber: z.string().nullable(),
    registryVersion: z.string(),
    oraclePolicyVersion: z.string(),
    vaultRegistryVersion: z.string(),
    anchoring: z.literal('paper'),
    observedAt: z.string(),
    receiptHash: z.string(),
  })
  .meta({ id: 'VaultReceipt' });
export type VaultReceipt = z.infer<typeof vaultReceiptSchema>;

function seal(content: Omit<VaultReceipt, 'receiptId' | 'receiptHash'>): VaultReceipt {
  const receiptId = `vrcpt_${hashCanonical({ kind: content.kind, subjectHash: content.subjectHash, stage: content.stage, status: content.status, txHash: content.txHash, observedAt: content.observedAt }).slice(0, 24)}`;
  const withId = { ...content, receiptId };
  return { ...withId, receiptHash: hashCanonical(withId) };
}

const common = (now: Date) => ({
  receiptVersion: VAULT_RECEIPT_VERSION,
  chainId: BROKER_CHAIN_ID as number,
  registryVersion: REGISTRY_VERSION,
  oraclePolicyVersion: ORACLE_POLICY_VERSION,
  vaultRegistryVersion: VAULT_REGISTRY_VERSION,
  anchoring: 'paper' as const,
  observedAt: now.toISOString(),
});

export function manifestReceipt(manifest: VaultManifest, now: Date): VaultReceipt {
  const validation = validateVaultManifest(manifest);
  return seal({
    ...common(now),
    kind: 'vault_manifest',
    vaultSlug: manifest.slug,
    vaultAddress: '',
    subjectHash: vaultManifestHash(manifest),
    stage: 'PREPARATION',
    status: 'paper',
    validationStatus: validation.status,
    txHash: null,
    blockNumber: null,
  });
}

/** A pack's receipt; the pack must still hash to its own planHash (no edited packs). */
export function packReceipt(pack: DepositPack, now: Date): VaultReceipt {
  if (computePlanHash(pack) !== normalizePlanHash(pack.planHash)) {
    throw new SvcError('PACK_HASH_MISMATCH', 'The pack does not hash to its planHash: it was altered after it was built', {
      issues: [{ code: 'PACK_HASH_MISMATCH', message: 'recomputed planHash differs', path: 'pack.planHash' }],
    });
  }
  const vault = resolveRailAVault(pack.vaultSlug);
  return seal({
    ...common(now),
    kind: 'deposit_pack',
    vaultSlug: vault.slug,
    vaultAddress: vault.address,
    subjectHash: computePlanHash(pack),
    stage: 'PREPARATION',
    status: 'paper',
    validationStatus: null,
    txHash: null,
    blockNumber: null,
  });
}

export async function settlementReceipt(
  input: { txHash: Hex; vaultId?: string; receiver?: `0x${string}`; amountUnits?: bigint },
  reader: ChainReader | null,
  now: Date,
): Promise<{ receipt: VaultReceipt; verification: DepositVerification }> {
  const vault = input.vaultId ? resolveRailAVault(input.vaultId) : V1_VAULT;
  const verification = await verifyVaultDeposit(
    reader,
    input.txHash,
    { vault, receiver: input.receiver, amountUnits: input.amountUnits },
    now,
  );
  const status: VaultReceiptStatus = verification.confirmedVaultDeposit
    ? 'onchain_confirmed'
    : verification.txStatus === 'reverted'
      ? 'onchain_reverted'
      : 'unverified';
  const receipt = seal({
    ...common(now),
    kind: 'deposit_settlement',
    vaultSlug: vault.slug,
    vaultAddress: vault.address,
    subjectHash: input.txHash.toLowerCase(),
    stage: verification.confirmedVaultDeposit ? 'SETTLEMENT' : 'PREPARATION',
    status,
    validationStatus: null,
    txHash: input.txHash.toLowerCase(),
    blockNumber: verification.confirmedVaultDeposit ? verification.blockNumber : null,
  });
  return { receipt, verification };
}
