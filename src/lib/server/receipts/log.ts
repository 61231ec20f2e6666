/**
 * The append-only receipt log (issue 26, docs/trust-model.md#the-receipt-log): every stored
 * Coil receipt is a leaf of an RFC 9162 Merkle tree (receipts/merkle.ts), in the order the
 * database appended it. The service signs the tree head; a client that keeps a signed head can
 * ask for the inclusion proof of a receipt and for the consistency proof between its head and
 * a later one, and so catch a service that drops, reorders or rewrites a logged receipt.
 *
 *   leaf entry = JCS(receipt without "signature")   (the bytes the receipt's signature covers)
 *   tree head  = { logVersion, treeSize, rootHash, timestamp } + signature block
 *
 * `timestamp` is the server's clock when the head was signed (never a caller's nowIso): a
 * head says "at this time the log's first treeSize entries had this root".
 * Pure: the tree (receipts/merkle.ts's MerkleTree, kept up to date by
 * db/receipt-log-repository.ts, which reads the tiles an answer needs: `tilesOf…` below), keys
 * and times are passed in.
 */
import { leafHashOf, verifyConsistency, verifyInclusion, type ReadonlyMerkleTree, type TiledMerkleTree } from './merkle';
import {
  checkSignature,
  signDocument,
  signedPayload,
  type PublishedKey,
  type SignatureBlock,
  type SignatureCheck,
  type Signer,
} from './signature';

export const LOG_VERSION = 'svc-receipt-log-1.0.0' as const;

export interface TreeHead {
  logVersion: typeof LOG_VERSION;
  treeSize: number;
  rootHash: string;
  timestamp: string;
}

export type SignedTreeHead = TreeHead & { signature: SignatureBlock };

export interface InclusionAnswer {
  receiptId: string;
  leafIndex: number;
  leafHash: string;
  treeSize: number;
  auditPath: string[];
  head: SignedTreeHead;
}

export interface ConsistencyAnswer {
  first: number;
  second: number;
  proof: string[];
  firstHead: SignedTreeHead;
  secondHead: SignedTreeHead;
}

/** The leaf hash of a receipt: over the bytes its signature covers, so a signed and an unsigned copy log alike. */
export function receiptLeafHash(receipt: object): string {
  return leafHashOf(signedPayload(receipt));
}

/** The signed head of the tree of the first `treeSize` leaves. */
export function signedTreeHead(tree: ReadonlyMerkleTree, treeSize: number, timestamp: Date, signer: Signer): SignedTreeHead {
  const head: TreeHead = {
    logVersion: LOG_VERSION,
    treeSize,
    rootHash: tree.root(treeSize),
    timestamp: timestamp.toISOString(),
  };
  return signDocument(head, signer);
}

const union = (...lists: number[][]) => [...new Set(lists.flat())].sort((a, b) => a - b);

/** The tiles, besides those the tree holds, the signed head of `treeSize` needs. */
export function tilesOfHead(tree: TiledMerkleTree, treeSize: number): number[] {
  return tree.tilesNeededForRoot(treeSize);
}

/** The tiles, besides those the tree holds, inclusionAnswer needs: the leaf, its audit path and the head. */
export function tilesOfInclusionAnswer(tree: TiledMerkleTree, leafIndex: number, treeSize: number): number[] {
  return union(tree.tilesNeededForInclusion(leafIndex, treeSize), tree.tilesNeededForRoot(treeSize));
}

/** The tiles, besides those the tree holds, consistencyAnswer needs: the proof and both heads. */
export function tilesOfConsistencyAnswer(tree: TiledMerkleTree, first: number, second: number): number[] {
  return union(tree.tilesNeededForConsistency(first, second), tree.tilesNeededForRoot(first), tree.tilesNeededForRoot(second));
}

export function inclusionAnswer(
  tree: ReadonlyMerkleTree,
  leafIndex: number,
  treeSize: number,
  receiptId: string,
  timestamp: Date,
  signer: Signer,
): InclusionAnswer {
  return {
    receiptId,
    leafIndex,
    leafHash: tree.leafHash(leafIndex),
    treeSize,
    auditPath: tree.inclusionProof(leafIndex, treeSize),
    head: signedTreeHead(tree, treeSize, timestamp, signer),
  };
}

export function consistencyAnswer(
  tree: ReadonlyMerkleTree,
  first: number,
  second: number,
  timestamp: Date,
  signer: Signer,
): ConsistencyAnswer {
  return {
    first,
    second,
    proof: tree.consistencyProof(first, second),
    firstHead: signedTreeHead(tree, first, timestamp, signer),
    secondHead: signedTreeHead(tree, second, timestamp, signer),
  };
}

export interface HeadCheck {
  ok: boolean;
  signature: SignatureCheck;
  /** The head's fields are of the right shape and version. */
  wellFormed: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Checks a head someone sent: its shape and its signature against the key set. */
export function checkTreeHead(head: unknown, keys: readonly PublishedKey[]): HeadCheck {
  if (!isRecord(head))
    return { ok: false, wellFormed: false, signature: { status: 'absent', keyId: null, key: null, signedAt: null, logged: null } };
  const wellFormed =
    head.logVersion === LOG_VERSION &&
    Number.isInteger(head.treeSize) &&
    (head.treeSize as number) >= 0 &&
    typeof head.rootHash === 'string' &&
    /^[0-9a-f]{64}$/.test(head.rootHash) &&
    typeof head.timestamp === 'string';
  const signature = checkSignature(head, keys);
  return { ok: wellFormed && signature.status === 'valid', wellFormed, signature };
}

export interface InclusionCheck {
  ok: boolean;
  /** What failed, in words a person and a program can read; empty when ok. */
  failures: string[];
  head: HeadCheck;
}

/** Whether a receipt is in the log, per an inclusion answer whose head the service signed. */
export function checkInclusion(receipt: object, inclusion: unknown, keys: readonly PublishedKey[]): InclusionCheck {
  const failures: string[] = [];
  if (!isRecord(inclusion)) return { ok: false, failures: ['INCLUSION_MALFORMED'], head: checkTreeHead(undefined, keys) };
  const head = checkTreeHead(inclusion.head, keys);
  if (!head.wellFormed) failures.push('HEAD_MALFORMED');
  else if (head.signature.status !== 'valid') failures.push(`HEAD_SIGNATURE_${head.signature.status.toUpperCase()}`);
  let leafHash: string | null = null;
  try {
    leafHash = receiptLeafHash(receipt);
  } catch {
    failures.push('RECEIPT_NOT_JSON');
  }
  if (leafHash !== null && inclusion.leafHash !== undefined && inclusion.leafHash !== leafHash) failures.push('LEAF_HASH_MISMATCH');
  const h = isRecord(inclusion.head) ? inclusion.head : {};
  if (inclusion.treeSize !== h.treeSize) failures.push('TREE_SIZE_MISMATCH');
  if (
    leafHash !== null &&
    head.wellFormed &&
    !verifyInclusion(leafHash, inclusion.leafIndex as number, h.treeSize as number, inclusion.auditPath, h.rootHash as string)
  )
    failures.push('INCLUSION_PROOF_INVALID');
  return { ok: failures.length === 0, failures, head };
}

export interface ConsistencyCheck {
  ok: boolean;
  failures: string[];
  firstHead: HeadCheck;
  secondHead: HeadCheck;
}

/**
 * Whether the log only grew between a head the client kept (`pinned`) and a later one, per a
 * consistency answer. The pinned head is the client's own copy: the answer's `firstHead` is not
 * trusted for the old root (a service that rewrote history would sign a new first head).
 */
export function checkConsistency(pinned: unknown, answer: unknown, keys: readonly PublishedKey[]): ConsistencyCheck {
  const firstHead = checkTreeHead(pinned, keys);
  const failures: string[] = [];
  if (!isRecord(answer)) return { ok: false, failures: ['CONSISTENCY_MALFORMED'], firstHead, secondHead: checkTreeHead(undefined, keys) };
  const secondHead = checkTreeHead(answer.secondHead, keys);
  for (const [name, check] of [
    ['PINNED_HEAD', firstHead],
    ['SECOND_HEAD', secondHead],
  ] as const) {
    if (!check.wellFormed) failures.push(`${name}_MALFORMED`);
    else if (check.signature.status !== 'valid') failures.push(`${name}_SIGNATURE_${check.signature.status.toUpperCase()}`);
  }
  if (firstHead.wellFormed && secondHead.wellFormed) {
    const a = pinned as TreeHead;
    const b = answer.secondHead as TreeHead;
    if (answer.first !== a.treeSize || answer.second !== b.treeSize) failures.push('TREE_SIZE_MISMATCH');
    else if (a.treeSize > b.treeSize) failures.push('LOG_SHRANK');
    else if (!verifyConsistency(a.treeSize, b.treeSize, a.rootHash, b.rootHash, answer.proof)) failures.push('CONSISTENCY_PROOF_INVALID');
  }
  return { ok: failures.length === 0, failures, firstHead, secondHead };
}
