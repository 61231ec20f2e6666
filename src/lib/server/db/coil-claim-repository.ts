/**
 * Claim tickets of Coils built in a browser without a wallet session (docs/visibility.md#claiming).
 * The browser holds a random token (an HttpOnly cookie); a ticket row holds its SHA-256, the
 * Coil's manifest hash and the receipt of the build. Claiming copies that Coil, that receipt and
 * the browser's theses of it (coil-reading-repository.ts) under the wallet (the public rows stay:
 * they were public from the start), then uses the ticket.
 */
import { hashCanonical } from '../canonical';
import type { ServerTime } from '../clock';
import { coilSchema } from '../coil/manifest';
import { scoreCoil } from '../coil/health';
import type { Receipt } from '../receipts/receipt';
import { issued, type Issued, type ReceiptSignatureBlock } from '../receipts/signature';
import { getDb } from './client';
import { claimReadings } from './coil-reading-repository';
import { saveCoilWithReceipt } from './coil-repository';

export interface ClaimableCoil {
  manifestHash: string;
  slug: string;
  name: string;
  assetCount: number;
  builtAt: string;
}

const claimId = (tokenHash: string, manifestHash: string) => hashCanonical(['coil-claim', tokenHash, manifestHash]);

/** Records the ticket of a build; the same Coil built again in the same browser keeps its first ticket. */
export async function recordCoilClaim(tokenHash: string, manifestHash: string, receiptId: string, at: ServerTime): Promise<void> {
  const id = claimId(tokenHash, manifestHash);
  await getDb().coilClaim.upsert({ where: { id }, create: { id, tokenHash, manifestHash, receiptId, createdAt: at }, update: {} });
}

/** The public Coil row a ticket names (saved under no wallet when it was built). */
async function publicCoilRow(manifestHash: string) {
  return getDb().coil.findFirst({ where: { manifestHash, ownerAddress: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** The browser's unused tickets, newest first, at most `limit`. */
export async function listClaimableCoils(tokenHash: string, limit: number): Promise<ClaimableCoil[]> {
  const tickets = await getDb().coilClaim.findMany({
    where: { tokenHash, claimedBy: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  const out: ClaimableCoil[] = [];
  for (const ticket of tickets) {
    const row = await publicCoilRow(ticket.manifestHash);
    const coil = row ? coilSchema.safeParse(JSON.parse(row.manifestJson)) : undefined;
    if (!coil?.success) continue;
    out.push({
      manifestHash: ticket.manifestHash,
      slug: coil.data.slug,
      name: coil.data.name,
      assetCount: coil.data.assets.length,
      builtAt: ticket.createdAt.toISOString(),
    });
  }
  return out;
}

export type ClaimOutcome = { manifestHash: string; claimed: true } | { manifestHash: string; claimed: false; reason: 'NO_CLAIM_TICKET' };

/**
 * Claims each named Coil for `owner` when this browser holds an unused ticket for it; a Coil
 * without one (never built here, already claimed, or built in another browser) is refused by
 * name and nothing of it is copied. The ticket is used only after the copy is committed: a copy
 * that fails (the database refused it) leaves the ticket unused, so the browser can claim again
 * (it was used first, and a failed copy lost the Coil for good, issue 34). The copy and the
 * ticket live on two connections (the Coil and receipt rows on the row store's own,
 * db/coil-row-store.ts), so they cannot share one transaction; the copy is idempotent instead
 * (row ids from manifest hash and owner, inserts that skip an existing row, one log entry per
 * row), so two concurrent claims of one ticket by one wallet store the Coil once. Two wallets
 * signed in one after the other in the same browser, claiming the same ticket at the same
 * instant, may both get the copy of this public Coil; the ticket names the first.
 */
export async function claimCoils(
  tokenHash: string,
  manifestHashes: string[],
  owner: string,
  at: ServerTime,
  /** Signs the wallet's copy of the receipt (logged): the procedure holds the service's key. */
  sign: (receipt: Issued<Receipt>) => Receipt & { signature: ReceiptSignatureBlock },
): Promise<ClaimOutcome[]> {
  const outcomes: ClaimOutcome[] = [];
  for (const manifestHash of manifestHashes) {
    const id = claimId(tokenHash, manifestHash);
    const ticket = await getDb().coilClaim.findFirst({ where: { id, claimedBy: null } });
    const row = ticket ? await publicCoilRow(manifestHash) : null;
    const receiptRow = ticket ? await getDb().receipt.findFirst({ where: { receiptId: ticket.receiptId, ownerAddress: null } }) : null;
    const coil = row ? coilSchema.safeParse(JSON.parse(row.manifestJson)) : undefined;
    if (!ticket || !row || !receiptRow || !coil?.success) {
      outcomes.push({ manifestHash, claimed: false, reason: 'NO_CLAIM_TICKET' });
      continue;
    }
    await saveCoilWithReceipt({
      coil: coil.data,
      manifestHash,
      ownerAddress: owner,
      agentId: row.agentId,
      score: scoreCoil(coil.data).total,
      storedAt: at,
      // A claim is a wallet's save of its own build: logged under the wallet, with its own salt.
      logged: true,
      // The service's own row, issued by it: the wallet's copy is a new issuance, signed now.
      receipt: sign(issued(JSON.parse(receiptRow.receiptJson) as Receipt)),
    });
    await claimReadings(tokenHash, manifestHash, owner, at);
    await getDb().coilClaim.updateMany({ where: { id, claimedBy: null }, data: { claimedBy: owner, claimedAt: at } });
    outcomes.push({ manifestHash, claimed: true });
  }
  return outcomes;
}
