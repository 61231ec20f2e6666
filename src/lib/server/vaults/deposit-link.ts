/**
 * The deposit link of a Rail A vault (`GET /api/vaults/{slug}/deposit-link`): the vault's
 * identity, the ack texts with their hashes and the deposit widget link. With both an amount
 * and a receiver it is a full Mode A pack, built and checked exactly as prepare-command builds
 * it; with an amount alone the link carries the amount, checked like a pack's.
 */
import { parseUsdgAmount } from './amount';
import { buildDepositPack, depositLinkUrl, type DepositPackDeps, type DepositPackResult } from './deposit-pack';
import { ackTextList, listVaults, resolveRailAVault } from './registry';

export interface DepositLinkRequest {
  slug: string;
  amount?: string;
  receiver?: string;
}

export interface DepositLink {
  vault: ReturnType<typeof listVaults>[number];
  ackTexts: ReturnType<typeof ackTextList>;
  depositFunction: string;
  depositLinkUrl: string;
  full: boolean;
  /** The full pack when the request named an amount and a receiver, else null. */
  prepared: DepositPackResult | null;
}

export async function buildDepositLink(request: DepositLinkRequest, deps: DepositPackDeps): Promise<DepositLink> {
  const vault = resolveRailAVault(request.slug);
  const listing = listVaults().find((v) => v.slug === vault.slug)!;
  const amount = request.amount === undefined ? undefined : parseUsdgAmount(request.amount, 'amount').amount;
  const prepared =
    request.amount !== undefined && request.receiver !== undefined
      ? await buildDepositPack({ vaultId: vault.slug, amountUsdg: request.amount, receiver: request.receiver }, deps)
      : null;
  return {
    vault: listing,
    ackTexts: ackTextList(),
    depositFunction: vault.depositFunction,
    depositLinkUrl: prepared ? prepared.depositLinkUrl : depositLinkUrl(deps.appOrigin, vault, amount),
    full: prepared !== null,
    prepared,
  };
}
