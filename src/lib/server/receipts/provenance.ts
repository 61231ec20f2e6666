/**
 * Provenance: the root-first chain of a manifest's ancestors and its fork depth, rendered
 * from lineage nodes that the repository reads from stored receipts. A fork carries its
 * parent's manifest hash; the root has none.
 */

export interface LineageNode {
  manifestHash: string;
  parentManifestHash: string | null;
  slug: string | null;
  receiptIds: string[];
}

export interface ProvenanceLink {
  manifestHash: string;
  parentManifestHash: string | null;
  slug: string | null;
  /** Whether any receipt of this manifest is stored (an unknown ancestor is named but not stored). */
  stored: boolean;
  receiptIds: string[];
  depth: number;
}

export interface Provenance {
  manifestHash: string;
  rootManifestHash: string;
  /** Root first; the last link is the manifest asked about. */
  chain: ProvenanceLink[];
  /** 0 for a root, 1 for a fork of a root, and so on. */
  forkDepth: number;
  /** True when the walk stopped at an ancestor whose own receipts are not stored. */
  rootUnresolved: boolean;
  cycleDetected: boolean;
}

export const MAX_LINEAGE_DEPTH = 256;

/** Walks parent links from `manifestHash` up to the root; `lookup` returns a stored node or undefined. */
export function renderProvenance(manifestHash: string, lookup: (hash: string) => LineageNode | undefined): Provenance {
  const upward: ProvenanceLink[] = [];
  const seen = new Set<string>();
  let current: string | null = manifestHash;
  let cycleDetected = false;
  while (current !== null && upward.length < MAX_LINEAGE_DEPTH) {
    if (seen.has(current)) {
      cycleDetected = true;
      break;
    }
    seen.add(current);
    const node = lookup(current);
    upward.push({
      manifestHash: current,
      parentManifestHash: node?.parentManifestHash ?? null,
      slug: node?.slug ?? null,
      stored: node !== undefined,
      receiptIds: node ? [...node.receiptIds].sort() : [],
      depth: 0,
    });
    current = node?.parentManifestHash ?? null;
  }
  const chain = upward.reverse().map((link, i) => ({ ...link, depth: i }));
  return {
    manifestHash,
    rootManifestHash: chain[0]!.manifestHash,
    chain,
    forkDepth: chain.length - 1,
    rootUnresolved: !chain[0]!.stored,
    cycleDetected,
  };
}
