/**
 * A vault's size and share price as its own view functions give them, for the vault pages:
 * totalAssets() (USDG), totalSupply() and decimals() of its shares; the share price is
 * totalAssets / totalSupply at the shares' decimals. Each value is a live reading or unknown
 * with the reason, never 0 for a read that failed (an empty vault has no share price: unknown,
 * said so). What a deposit would get is the vault's own preview only: neither vault's interface
 * this service is built on has one (no previewDeposit / convertToShares), so the answer says
 * so instead of computing a number the vault never promised.
 */
import { parseAbi, type Address } from 'viem';
import { z } from 'zod';
import { formatUsdgUnits } from './amount';
import { checkChain, classifyChainError, READ_FAILURE_TEXT, type ChainReader, type ReadFailureReason } from './chain';
import { usdgReadingSchema, type UsdgReading } from './deposit-progress';
import { address0x } from './pack-shapes';

const FIGURE_READS_ABI = parseAbi([
  'function totalAssets() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

export const sharePriceSchema = z
  .discriminatedUnion('state', [
    z.object({
      state: z.literal('live'),
      usdgPerShare: z.string().describe('USDG for one whole share, at most 6 decimals, rounded down'),
      shareDecimals: z.number().int(),
      source: z.string(),
    }),
    z.object({ state: z.literal('unknown'), reasonCode: z.string(), reason: z.string() }),
  ])
  .meta({ id: 'VaultSharePrice' });

export const vaultFiguresSchema = z
  .object({
    vaultAddress: address0x,
    generation: z.enum(['v1', 'v2']),
    checkedAt: z.string().describe("the server's clock when the chain was read"),
    chainIdVerified: z.boolean(),
    totalAssets: usdgReadingSchema.describe('totalAssets() of the vault, in USDG'),
    sharePrice: sharePriceSchema,
    depositPreview: z
      .object({ available: z.literal(false), reason: z.string() })
      .describe("what a deposit would get, from the vault's own preview function: none of these vaults has one"),
  })
  .meta({ id: 'VaultFigures' });
export type VaultFigures = z.infer<typeof vaultFiguresSchema>;

export const NO_PREVIEW_REASON: Record<'v1' | 'v2', string> = {
  v1: 'The V1 vault has no preview function (no previewDeposit or convertToShares in its interface): the shares a deposit mints are known only from its Deposit event, after the deposit.',
  v2: 'The V2 vault settles deposits in batches through its request queue, and its interface has no preview function: the shares are known only when the batch settles.',
};

type Read<T> = { ok: true; value: T } | { ok: false; reason: ReadFailureReason };

async function attempt<T>(read: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, reason: classifyChainError(error) };
  }
}

const unknown = (reason: ReadFailureReason, what: string) => ({
  state: 'unknown' as const,
  reasonCode: reason,
  reason: `${what}: ${READ_FAILURE_TEXT[reason]}`,
});

/** Reads the vault's figures live (chain id first). Never throws for chain trouble. */
export async function readVaultFigures(
  reader: ChainReader | null,
  vault: { address: Address; generation: 'v1' | 'v2' },
  now: Date,
): Promise<VaultFigures> {
  const head = {
    vaultAddress: vault.address,
    generation: vault.generation,
    checkedAt: now.toISOString(),
    depositPreview: { available: false as const, reason: NO_PREVIEW_REASON[vault.generation] },
  };
  const chain = await checkChain(reader);
  if (!chain.ok)
    return {
      ...head,
      chainIdVerified: false,
      totalAssets: { state: 'unknown', reasonCode: chain.reason, reason: READ_FAILURE_TEXT[chain.reason] },
      sharePrice: unknown(chain.reason, 'not read'),
    };
  const at = { address: vault.address, abi: FIGURE_READS_ABI } as const;
  const [assets, supply, decimals] = await Promise.all([
    attempt(() => reader!.readContract<bigint>({ ...at, functionName: 'totalAssets' })),
    attempt(() => reader!.readContract<bigint>({ ...at, functionName: 'totalSupply' })),
    attempt(() => reader!.readContract<number>({ ...at, functionName: 'decimals' })),
  ]);
  const totalAssets: UsdgReading = assets.ok
    ? { state: 'live', units: assets.value.toString(), usdg: formatUsdgUnits(assets.value) }
    : { state: 'unknown', reasonCode: assets.reason, reason: READ_FAILURE_TEXT[assets.reason] };
  return { ...head, chainIdVerified: true, totalAssets, sharePrice: sharePrice(assets, supply, decimals) };
}

function sharePrice(assets: Read<bigint>, supply: Read<bigint>, decimals: Read<number>): VaultFigures['sharePrice'] {
  if (!assets.ok) return unknown(assets.reason, 'totalAssets() was not read');
  if (!supply.ok) return unknown(supply.reason, 'totalSupply() was not read');
  if (!decimals.ok) return unknown(decimals.reason, "decimals() of the vault's shares was not read");
  if (supply.value === 0n)
    return { state: 'unknown', reasonCode: 'no_shares', reason: 'the vault has issued no shares yet, so there is no price per share' };
  // USDG units per whole share, rounded down (a displayed price never overstates).
  const units = (assets.value * 10n ** BigInt(decimals.value)) / supply.value;
  return {
    state: 'live',
    usdgPerShare: formatUsdgUnits(units),
    shareDecimals: decimals.value,
    source: 'totalAssets() / totalSupply() at decimals(), read on chain 4663',
  };
}
