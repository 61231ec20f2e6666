/**
 * Who may read a stored Coil or receipt: the one rule every read of those rows goes by
 * (docs/visibility.md). A row saved with a wallet session belongs to that wallet and is read
 * only with that wallet's session; to anyone else it does not exist (the same answer as a row
 * nobody stored). A row saved without a session belongs to no wallet and is public: anyone
 * who knows its content address (manifest hash, receipt id) may read it.
 *
 * The rule is the list of owners a viewer may read: the repositories turn it into their
 * queries (db/coil-repository.ts), so no query spells it a second time.
 */

/** The wallet address of the caller's session, or null for a caller without one (an MCP tool call, a visitor). */
export type StoredRowViewer = string | null;

/** The owners whose rows `viewer` may read: no wallet, and the viewer's own wallet. */
export function readableOwners(viewer: StoredRowViewer): readonly (string | null)[] {
  return viewer === null ? [null] : [null, viewer];
}

/** Whether `viewer` may read a row saved under `owner` (null: saved without a wallet). */
export function mayRead(owner: string | null, viewer: StoredRowViewer): boolean {
  return readableOwners(viewer).includes(owner);
}

/**
 * Who is reading a thesis and its reading (docs/visibility.md#the-thesis-and-its-reading): the
 * wallet of the caller's session, and the hash of the browser's claim token when the caller
 * holds one (the web app's cookie). A thesis is a person's own words, so it is stricter than a
 * receipt: a row saved without a wallet is not public, it is the building browser's.
 */
export interface ReadingViewer {
  wallet: StoredRowViewer;
  builderTokenHash?: string;
}

/** Whether `viewer` may read a thesis saved by that wallet or that browser (a shared copy is read by naming its card instead). */
export function mayReadThesis(row: { ownerAddress: string | null; builderTokenHash: string | null }, viewer: ReadingViewer): boolean {
  if (row.ownerAddress !== null) return row.ownerAddress === viewer.wallet;
  return row.builderTokenHash !== null && row.builderTokenHash === viewer.builderTokenHash;
}
