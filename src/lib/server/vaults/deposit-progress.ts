/**
 * What the deposit page needs to move a person from one step to the next only on proof:
 * the wallet's USDG balance and its allowance for the vault (live reads, or unknown with the
 * reason, never zero), and whether an approval transaction is proven on chain (a confirmed
 * transaction to the USDG token whose own Approval event lets the vault spend at least the
 * amount, from the depositor). The deposit itself is proven by `verifyVaultDeposit`
 * (completion.ts); an approval is never reported as "not a vault deposit" there, because the
 * page asks this function about it instead.
 */
import { decodeEventLog, getAddress, parseAbi, parseAbiItem, toEventSelector, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { formatUsdgUnits } from './amount';
import { checkChain, classifyChainError, READ_FAILURE_TEXT, type ChainReader, type ReadFailureReason } from './chain';
import { txStatusSchema, type TxStatus } from './completion';
import { address0x, bytes32_0x } from './pack-shapes';
import type { RailAVault } from './registry';

const ERC20_READS_ABI = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
]);
const APPROVAL_EVENT = parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)');
const APPROVAL_TOPIC = toEventSelector(APPROVAL_EVENT);

/** A USDG amount read from the chain, or unknown with the reason (never 0 for a failed read). */
export const usdgReadingSchema = z
  .discriminatedUnion('state', [
    z.object({ state: z.literal('live'), units: z.string(), usdg: z.string() }),
    z.object({ state: z.literal('unknown'), reasonCode: z.string(), reason: z.string() }),
  ])
  .meta({
    id: 'WalletUsdgReading',
    description: 'live: read from the USDG token on chain 4663 (units: 6-decimal integer); unknown: not read, with why',
  });
export type UsdgReading = z.infer<typeof usdgReadingSchema>;

export const depositAccountSchema = z.object({
  owner: address0x,
  vaultAddress: address0x,
  usdgAddress: address0x,
  /** The server's clock when the chain was read. */
  checkedAt: z.string(),
  chainIdVerified: z.boolean(),
  /** The owner's USDG balance (balanceOf). */
  balance: usdgReadingSchema,
  /** What the vault may spend of the owner's USDG (allowance(owner, vault)). */
  allowance: usdgReadingSchema,
});
export type DepositAccount = z.infer<typeof depositAccountSchema>;

function unknownReading(reason: ReadFailureReason): UsdgReading {
  return { state: 'unknown', reasonCode: reason, reason: READ_FAILURE_TEXT[reason] };
}

function liveReading(units: bigint): UsdgReading {
  return { state: 'live', units: units.toString(), usdg: formatUsdgUnits(units) };
}

async function readUnits(reader: ChainReader, read: () => Promise<bigint>): Promise<UsdgReading> {
  try {
    return liveReading(await read());
  } catch (error) {
    return unknownReading(classifyChainError(error));
  }
}

/** The owner's USDG balance and allowance for the vault, read live (chain id first). Never throws for chain trouble. */
export async function readDepositAccount(
  reader: ChainReader | null,
  vault: RailAVault,
  owner: Address,
  now: Date,
): Promise<DepositAccount> {
  const head = { owner, vaultAddress: vault.address, usdgAddress: vault.assetAddress, checkedAt: now.toISOString() };
  const chain = await checkChain(reader);
  if (!chain.ok) return { ...head, chainIdVerified: false, balance: unknownReading(chain.reason), allowance: unknownReading(chain.reason) };
  const token = { address: vault.assetAddress, abi: ERC20_READS_ABI } as const;
  const [balance, allowance] = await Promise.all([
    readUnits(reader!, () => reader!.readContract<bigint>({ ...token, functionName: 'balanceOf', args: [owner] })),
    readUnits(reader!, () => reader!.readContract<bigint>({ ...token, functionName: 'allowance', args: [owner, vault.address] })),
  ]);
  return { ...head, chainIdVerified: true, balance, allowance };
}

export const approvalVerificationSchema = z
  .object({
    txHash: bytes32_0x,
    checkedAt: z.string(),
    chainIdVerified: z.boolean(),
    found: z.boolean(),
    txStatus: txStatusSchema,
    blockNumber: z.string().nullable(),
    expectedOwner: address0x,
    spender: address0x.describe('the vault'),
    token: address0x.describe('the USDG token'),
    expectedAmountUnits: z.string(),
    approvedUnits: z.string().nullable().describe("the value of the token's Approval event for owner → vault in this transaction"),
    confirmedApproval: z.boolean(),
    reason: z.string(),
  })
  .meta({
    id: 'ApprovalVerification',
    description:
      "Re-read on chain at every call (chain id first). confirmedApproval: a confirmed transaction to the USDG token emitted the token's Approval event letting the vault spend at least the amount of the owner's USDG",
  });
export type ApprovalVerification = z.infer<typeof approvalVerificationSchema>;

/**
 * Judges one transaction hash as the approval of a deposit: confirmed, sent to the USDG token,
 * with the token's own Approval event from `owner` to the vault for at least `amountUnits`.
 * Never throws for chain trouble: it says what it could not read.
 */
export async function verifyDepositApproval(
  reader: ChainReader | null,
  txHash: Hex,
  expected: { vault: RailAVault; owner: Address; amountUnits: bigint },
  now: Date,
): Promise<ApprovalVerification> {
  const token = expected.vault.assetAddress;
  const base: ApprovalVerification = {
    txHash,
    checkedAt: now.toISOString(),
    chainIdVerified: false,
    found: false,
    txStatus: 'unknown',
    blockNumber: null,
    expectedOwner: expected.owner,
    spender: expected.vault.address,
    token,
    expectedAmountUnits: expected.amountUnits.toString(),
    approvedUnits: null,
    confirmedApproval: false,
    reason: '',
  };
  const notRead = (reason: ReadFailureReason): ApprovalVerification => ({
    ...base,
    reason: `Not verified: ${READ_FAILURE_TEXT[reason]}. The approval counts only once the chain proves it.`,
  });
  const chain = await checkChain(reader);
  if (!chain.ok) return notRead(chain.reason);
  const v = { ...base, chainIdVerified: true };
  let receipt;
  try {
    receipt = await reader!.getTransactionReceipt(txHash);
    if (!receipt) {
      const tx = await reader!.getTransaction(txHash);
      return tx
        ? {
            ...v,
            found: true,
            txStatus: 'pending',
            reason: 'The approval is known but not yet in a block: wait for it before the deposit.',
          }
        : { ...v, txStatus: 'not_found', reason: 'No transaction with this hash is known on chain 4663 yet.' };
    }
  } catch (error) {
    return notRead(classifyChainError(error));
  }
  const status: TxStatus = receipt.status === 'success' ? 'success' : 'reverted';
  const mined = { ...v, found: true, txStatus: status, blockNumber: receipt.blockNumber.toString() };
  if (status !== 'success') return { ...mined, reason: 'The approval reverted (receipt status 0x0): nothing was approved.' };
  if (!receipt.to || getAddress(receipt.to) !== token) {
    return { ...mined, reason: 'The transaction was not sent to the USDG token: it is not the approval.' };
  }
  let approved: bigint | null = null;
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== token || log.topics[0]?.toLowerCase() !== APPROVAL_TOPIC) continue;
    try {
      const { args } = decodeEventLog({ abi: [APPROVAL_EVENT], data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      if (getAddress(args.owner) === expected.owner && getAddress(args.spender) === expected.vault.address) approved = args.value;
    } catch {
      // A log that does not decode as the Approval event is not one.
    }
  }
  if (approved === null) {
    return { ...mined, reason: 'The transaction emitted no Approval of your USDG to the vault: the vault may not spend it.' };
  }
  const enough = approved >= expected.amountUnits;
  return {
    ...mined,
    approvedUnits: approved.toString(),
    confirmedApproval: enough,
    reason: enough
      ? `Approved on chain in block ${mined.blockNumber}: the vault may spend ${formatUsdgUnits(approved)} USDG of yours.`
      : `The approval lets the vault spend ${formatUsdgUnits(approved)} USDG, less than the ${formatUsdgUnits(expected.amountUnits)} USDG to deposit.`,
  };
}
