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
