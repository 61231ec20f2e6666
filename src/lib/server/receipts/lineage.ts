/**
 * The parent of a fork (interface 2.3 `forkOf`, 2.5 `parentManifestHash`). A Coil that names a
 * parent slug is a fork: its parent is resolved from the receipts this service stored, among
 * those the caller may see (rows under no wallet, and the caller's own wallet's), so a fork is
 * never silently stamped as a root and never claims a parent the store does not hold:
 *
 *   - no `parentManifestHash`: the parent is the newest visible receipt of that slug (newest by
 *     the time this server stored it, never by a pinned `nowIso`), and its hash is stamped;
 *   - a `parentManifestHash`: it must be the manifest of a visible receipt of that slug (any
 *     version of it, so a fork of an older version stays valid after the parent is saved
 *     again), else 422 `FORK_PARENT_MISMATCH`;
 *   - no visible receipt of that slug at all: 422 `FORK_PARENT_NOT_FOUND`.
 *
 * Every route that issues a receipt, the strategist and receipt verification go through
 * `resolveForkParent`, so they cannot disagree about a fork's parent.
 */
import { SvcError } from '../errors';

export const LINEAGE_ERROR = {
  FORK_PARENT_NOT_FOUND: 'FORK_PARENT_NOT_FOUND',
  FORK_PARENT_MISMATCH: 'FORK_PARENT_MISMATCH',
} as const;

/** What the resolution reads from the receipt store, already limited to what the caller may see. */
export interface ForkParentStore {
  /** The manifest hash of the newest visible stored receipt of `slug`. */
  latestManifestHash(slug: string): Promise<string | undefined>;
  /** Whether a visible stored receipt of `slug` has this manifest hash. */
  hasManifest(slug: string, manifestHash: string): Promise<boolean>;
}

export interface ForkReference {
  forkOf?: string | null;
  parentManifestHash?: string | null;
}

/** Where the two fields sit in the caller's request, for the issues of a refusal. */
export interface ForkReferencePaths {
  forkOf: string;
  parentManifestHash: string;
}

export const COIL_FORK_PATHS: ForkReferencePaths = { forkOf: 'coil.forkOf', parentManifestHash: 'coil.parentManifestHash' };

/**
 * The parent manifest hash of a fork, resolved from the store (see the module comment); the
 * supplied hash unchanged when the reference is not a fork (`forkOf` empty).
 */
export async function resolveForkParent(
  ref: ForkReference,
  store: ForkParentStore,
  paths: ForkReferencePaths = COIL_FORK_PATHS,
): Promise<string | undefined> {
  const supplied = ref.parentManifestHash ?? undefined;
  if (!ref.forkOf) return supplied;
  if (supplied) {
    if (await store.hasManifest(ref.forkOf, supplied)) return supplied;
    const exists = (await store.latestManifestHash(ref.forkOf)) !== undefined;
    if (!exists) throw parentNotFound(paths);
    throw new SvcError(
      LINEAGE_ERROR.FORK_PARENT_MISMATCH,
      'parentManifestHash is not the manifest of any stored receipt of the forkOf slug that you may see; a fork may only name a parent this service holds',
      {
        issues: [
          {
            code: LINEAGE_ERROR.FORK_PARENT_MISMATCH,
            message: 'send the manifestHash of a receipt of the parent slug, or leave parentManifestHash out to fork the newest one',
            path: paths.parentManifestHash,
          },
        ],
      },
    );
  }
  const latest = await store.latestManifestHash(ref.forkOf);
  if (!latest) throw parentNotFound(paths);
  return latest;
}

// The slug is the caller's text and is never echoed (a message is scanned by the output guard).
function parentNotFound(paths: ForkReferencePaths): SvcError {
  return new SvcError(
    LINEAGE_ERROR.FORK_PARENT_NOT_FOUND,
    "No stored receipt of the forkOf slug is visible to you, so the fork's parent cannot be resolved; it is not made a root",
    {
      issues: [
        {
          code: LINEAGE_ERROR.FORK_PARENT_NOT_FOUND,
          message: 'issue a receipt of the parent first (any tool), or set forkOf to null for a root',
          path: paths.forkOf,
        },
      ],
    },
  );
}
