/**
 * How a procedure reads and saves the caller's Coils and receipts: every read goes through the
 * caller's visibility (docs/visibility.md), every save under the caller's wallet. Shared by the
 * tools, strategist, receipt-log and autonomy families.
 */
import { scoreCoil } from '../../coil/health';
import type { Coil } from '../../coil/manifest';
import { recordCoilClaim } from '../../db/coil-claim-repository';
import { readingsOf, saveCoilReading, type KeptReading } from '../../db/coil-reading-repository';
import { saveCoilWithReceipt, storedCoilsVisibleTo, type StoredCoils } from '../../db/coil-repository';
import { claimTokenHashOf, ensureClaimTokenHash } from '../../cookies/claim-cookie';
import { COIL_FORK_PATHS, resolveForkParent, type ForkReference, type ForkReferencePaths } from '../../receipts/lineage';
import { logReasonOf, receiptLogStatus, type ReceiptLogStatus } from '../../receipts/log-policy';
import { buildReceipt, type Receipt, type ReceiptKind } from '../../receipts/receipt';
import { signIssued, type Issued, type ReceiptSignatureBlock } from '../../receipts/signature';
import { serviceSigner } from '../../signing-key';
import type { ReadingViewer } from '../../receipts/visibility';
import type { RequestContext } from '../context';

/**
 * The stored Coils and receipts this call may read: those saved under no wallet and the
 * caller's own wallet's (receipts/visibility.ts, docs/visibility.md). Every procedure that
 * reads a stored Coil or receipt reads it through here, so the caller's session decides.
 */
export async function storedCoilsOf(ctx: RequestContext): Promise<StoredCoils> {
  return storedCoilsVisibleTo((await ctx.getSession())?.address ?? null);
}

/**
 * The parent manifest hash of a fork reference, resolved from the receipts the caller may
 * see (src/lib/server/receipts/lineage.ts): the one resolution every receipt-issuing route,
 * the strategist and verification use.
 */
export async function forkParentFor(
  ctx: RequestContext,
  ref: ForkReference,
  paths: ForkReferencePaths = COIL_FORK_PATHS,
): Promise<string | undefined> {
  if (!ref.forkOf) return ref.parentManifestHash ?? undefined;
  return resolveForkParent(ref, (await storedCoilsOf(ctx)).forkParents, paths);
}

/** The Coil with its fork's parent resolved and stamped (unchanged when it is not a fork). */
export async function withForkParent(ctx: RequestContext, coil: Coil, paths?: ForkReferencePaths): Promise<Coil> {
  if (!coil.forkOf) return coil;
  const parentManifestHash = await forkParentFor(ctx, coil, paths);
  return parentManifestHash === coil.parentManifestHash ? coil : { ...coil, parentManifestHash };
}

export interface PersistOptions {
  /** The strategist that coiled it (`mock`, `partner`), or null for a caller-supplied Coil. */
  agentId?: string | null;
  /**
   * The share card's explicit act of sharing: the pair is also saved under no wallet, so the
   * Coil and the card are public by their content addresses (docs/visibility.md#sharing),
   * without naming the wallet. That public copy is not logged (the wallet's row is).
   */
  shared?: boolean;
  /** The call asked to keep the receipt (receipts/log-policy.ts): it is logged even without a session. */
  asked?: 'generated_coil' | 'explicit_receipt';
}

/** A Coil receipt as the service issued and signed it. */
export type SignedReceipt = Receipt & { signature: ReceiptSignatureBlock };

/**
 * Saves a Coil and its receipt under the caller's wallet when signed in (else under no
 * wallet: the store still keeps them for lineage, provenance and passports), appending the
 * row to the receipt log when someone asked to keep it (receipts/log-policy.ts). The receipt is
 * signed here, once, at the server's clock, and each row stores the signature it was signed
 * with (its block says whether that row is logged); reads serve the stored signature (issue
 * 36 item 3). Answers the caller's row's receipt, signed, and what the log did with it.
 */
export async function persistReceipt(
  ctx: RequestContext,
  coil: Coil,
  receipt: Issued<Receipt>,
  options: PersistOptions = {},
): Promise<{ receipt: SignedReceipt; receiptLog: ReceiptLogStatus }> {
  const owner = (await ctx.getSession())?.address ?? null;
  const signer = serviceSigner(ctx.config);
  const saveUnder = (ownerAddress: string | null, logged: boolean): SignedReceipt => {
    const signed = signIssued(receipt, signer, ctx.serverTime, logged);
    saves.push(
      saveCoilWithReceipt({
        coil,
        manifestHash: receipt.manifestHash,
        ownerAddress,
        agentId: options.agentId ?? null,
        score: scoreCoil(coil).total,
        storedAt: ctx.serverTime,
        receipt: signed,
        logged,
      }),
    );
    return signed;
  };
  const saves: Promise<void>[] = [];
  const reason = logReasonOf(options.asked, owner);
  const logged = reason !== 'not_requested';
  const signed = saveUnder(owner, logged);
  if (options.shared && owner !== null) saveUnder(null, options.asked !== undefined);
  await Promise.all(saves);
  return { receipt: signed, receiptLog: receiptLogStatus(reason, receipt.receiptId) };
}

/**
 * Builds the receipt of a Coil at the request's clock, saves both and returns the receipt with
 * what the log did with it. `coil` has passed `withForkParent` (every tool resolves a fork's
 * parent before any work).
 */
export async function issueReceipt(
  ctx: RequestContext,
  coil: Coil,
  kind: ReceiptKind,
  options: Omit<PersistOptions, 'shared'> = {},
): Promise<{ receipt: SignedReceipt; receiptLog: ReceiptLogStatus }> {
  return persistReceipt(ctx, coil, buildReceipt(coil, kind, ctx.answerTime), options);
}

/**
 * A claim ticket for a Coil the web app built without a wallet session, so that this browser
 * can claim it for a wallet after signing in, explicitly (docs/visibility.md#claiming). Nothing
 * for a signed-in build (already the wallet's) or outside the web app's door.
 */
export async function ticketBuiltCoil(ctx: RequestContext, receipt: Receipt): Promise<void> {
  if (await ctx.getSession()) return;
  const tokenHash = ensureClaimTokenHash(ctx);
  if (tokenHash) await recordCoilClaim(tokenHash, receipt.manifestHash, receipt.receiptId, ctx.serverTime);
}

/** Who reads a thesis in this call: the session's wallet and the browser's claim token (receipts/visibility.ts `mayReadThesis`). */
export async function readingViewerOf(ctx: RequestContext): Promise<ReadingViewer> {
  return { wallet: (await ctx.getSession())?.address ?? null, builderTokenHash: claimTokenHashOf(ctx) };
}

/** The caller's own readings of a stored Coil, newest first (docs/visibility.md#the-thesis-and-its-reading). */
export async function readingsOfCaller(ctx: RequestContext, manifestHash: string): Promise<KeptReading[]> {
  return readingsOf(manifestHash, await readingViewerOf(ctx));
}

/**
 * Keeps the thesis and its reading with the generation's receipt, under the session's wallet,
 * or, without one, under the building browser's claim token (the web app's door). A call with
 * neither (REST or MCP without a session) keeps nothing: nobody could ever read it back, and
 * its answer already holds the reading.
 */
export async function keepReading(ctx: RequestContext, receipt: Receipt, kept: Omit<KeptReading, 'receiptId'>): Promise<void> {
  const owner = (await ctx.getSession())?.address ?? null;
  const builderTokenHash = owner === null ? (ensureClaimTokenHash(ctx) ?? null) : null;
  if (owner === null && builderTokenHash === null) return;
  await saveCoilReading({
    ...kept,
    receiptId: receipt.receiptId,
    manifestHash: receipt.manifestHash,
    ownerAddress: owner,
    builderTokenHash,
    sharedAs: null,
    storedAt: ctx.serverTime,
  });
}
