/**
 * Acknowledgment-hash verification (interface 2.10). The pack builder recomputes both hashes from
 * the canonical texts and compares them with the values the vault pins on chain: a deposit
 * whose acks differ would revert, so such a pack is refused, never built.
 *
 * With an RPC the pins are read with eth_call: first the vault's own view functions, then,
 * for a vault without them, the access policy of the operator's published interface
 * (`getVaultPolicy(vault)`). Without an RPC the registry's pinned copy is used and the result
 * says so; it never claims the chain was read.
 */
import type { Address, Hex } from 'viem';
import { SvcError } from '../errors';
import { ACCESS_POLICY_ABI, VAULT_ACK_VIEWS_ABI } from './abi';
import { checkChain, classifyChainError, READ_FAILURE_TEXT, type ChainReader, type ReadFailureReason } from './chain';
import { ACK_TEXTS, ackHash, type AckSlot, type RailAVault } from './registry';

export type AckSource = 'onchain_eth_call' | 'registry_pinned_copy';
export type AckPinLocation = 'vault_ack_views' | 'access_policy_get_vault_policy' | 'vault_registry_copy';

export interface AckVerification {
  source: AckSource;
  readFrom: AckPinLocation;
  /** The contract whose values were compared (the registry copy has none). */
  readAddress: Address | null;
  chainRead: boolean;
  matches: true;
  recomputed: Record<AckSlot, Hex>;
  pinned: Record<AckSlot, Hex>;
  checkedAt: string;
  note: string;
}

/** Both hashes recomputed from the canonical texts. */
export function recomputeAckHashes(): Record<AckSlot, Hex> {
  return { risk: ackHash(ACK_TEXTS.risk), jurisdiction: ackHash(ACK_TEXTS.jurisdiction) };
}

function unverifiable(reason: ReadFailureReason): never {
  throw new SvcError(
    'ACK_PIN_UNVERIFIABLE',
    `The vault's pinned acknowledgment hashes could not be read from the chain (${READ_FAILURE_TEXT[reason]}); no pack is built from an unverified pin`,
    { issues: [{ code: reason.toUpperCase(), message: READ_FAILURE_TEXT[reason] }] },
  );
}

function compare(recomputed: Record<AckSlot, Hex>, pinned: Record<AckSlot, Hex>, where: string): void {
  const differing = (Object.keys(recomputed) as AckSlot[]).filter((slot) => recomputed[slot].toLowerCase() !== pinned[slot].toLowerCase());
  if (differing.length === 0) return;
  throw new SvcError(
    'ACK_HASH_MISMATCH',
    `The acknowledgment hashes differ from the values pinned by ${where}: a deposit with them would revert, so no pack is built`,
    {
      issues: differing.map((slot) => ({
        code: 'ACK_HASH_MISMATCH',
        message: `${slot}: recomputed ${recomputed[slot]} from "${ACK_TEXTS[slot]}", pinned ${pinned[slot]}`,
        path: `ackHashes.${slot}`,
      })),
    },
  );
}

async function readVaultViews(reader: ChainReader, vault: Address): Promise<Record<AckSlot, Hex>> {
  const [risk, jurisdiction] = await Promise.all([
    reader.readContract<Hex>({ address: vault, abi: VAULT_ACK_VIEWS_ABI, functionName: 'requiredRiskAckHash' }),
    reader.readContract<Hex>({ address: vault, abi: VAULT_ACK_VIEWS_ABI, functionName: 'requiredJurisdictionAckHash' }),
  ]);
  return { risk, jurisdiction };
}

async function readAccessPolicy(reader: ChainReader, policy: Address, vault: Address): Promise<Record<AckSlot, Hex> | undefined> {
  const p = await reader.readContract<{ requiredRiskAckHash: Hex; requiredJurisdictionAckHash: Hex; exists: boolean }>({
    address: policy,
    abi: ACCESS_POLICY_ABI,
    functionName: 'getVaultPolicy',
    args: [vault],
  });
  return p.exists ? { risk: p.requiredRiskAckHash, jurisdiction: p.requiredJurisdictionAckHash } : undefined;
}

const CALL_LEVEL: ReadonlySet<ReadFailureReason> = new Set(['call_reverted', 'call_returned_no_data', 'decode_failed']);

/**
 * Verifies the pack's ack hashes against the vault's pins. Throws ACK_HASH_MISMATCH (409) on
 * a difference and ACK_PIN_UNVERIFIABLE (503) when an RPC is configured but the pins cannot
 * be read (an unreadable pin is unknown, never a match).
 */
export async function verifyAckPins(vault: RailAVault, reader: ChainReader | null, now: Date): Promise<AckVerification> {
  const recomputed = recomputeAckHashes();
  const checkedAt = now.toISOString();
  if (!reader) {
    compare(recomputed, vault.pinnedAckHashes, "the vault registry's pinned copy");
    return {
      source: 'registry_pinned_copy',
      readFrom: 'vault_registry_copy',
      readAddress: null,
      chainRead: false,
      matches: true,
      recomputed,
      pinned: { ...vault.pinnedAckHashes },
      checkedAt,
      note: "No RPC is configured: the hashes were compared with the vault registry's pinned copy. The chain was not read; configure BROKER_CHAIN_RPC_URL to verify against the vault's on-chain values.",
    };
  }
  const chain = await checkChain(reader);
  if (!chain.ok) unverifiable(chain.reason);

  let pinned: Record<AckSlot, Hex> | undefined;
  let readFrom: AckPinLocation = 'vault_ack_views';
  let readAddress: Address = vault.address;
  try {
    pinned = await readVaultViews(reader, vault.address);
  } catch (error) {
    const reason = classifyChainError(error);
    if (!CALL_LEVEL.has(reason)) unverifiable(reason);
    // The vault has no ack views of its own: the published interface keeps them in the access policy.
    readFrom = 'access_policy_get_vault_policy';
    readAddress = vault.accessPolicyAddress;
    try {
      pinned = await readAccessPolicy(reader, vault.accessPolicyAddress, vault.address);
    } catch (policyError) {
      unverifiable(classifyChainError(policyError));
    }
    if (!pinned) unverifiable('call_returned_no_data');
  }
  compare(recomputed, pinned, readFrom === 'vault_ack_views' ? "the vault's on-chain ack views" : "the vault's on-chain access policy");
  return {
    source: 'onchain_eth_call',
    readFrom,
    readAddress,
    chainRead: true,
    matches: true,
    recomputed,
    pinned,
    checkedAt,
    note:
      readFrom === 'vault_ack_views'
        ? "Read with eth_call from the vault's own view functions on chain 4663 (chain id verified first)."
        : "Read with eth_call from the access policy's getVaultPolicy(vault) on chain 4663 (chain id verified first); the vault has no ack views of its own.",
  };
}
