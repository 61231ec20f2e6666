/**
 * Proof bindings over the database (model `ProofBinding`, src/lib/server/proof/rule.ts): which
 * subject, of any lane, holds a transaction as its proof. The transaction hash is the key, so
 * of two writers binding one transaction to two subjects the database lets exactly one through
 * (SQLite and PostgreSQL alike); a takeover is a conditional delete of the weaker binding in
 * the same transaction as the new one.
 */
import type { Prisma } from '$generated/prisma-sqlite/client';
import type { ServerTime } from '../clock';
import {
  bindingOutranks,
  bindingsWeakerThan,
  ProofTransactionTakenError,
  type ProofBinding,
  type ProofHolder,
  type SubjectRef,
} from '../proof/rule';
import { getDb } from './client';

type Tx = Prisma.TransactionClient;

const subjectColumn = (subject: SubjectRef) =>
  subject.lane === 'stock_plan' ? { stockReceiptId: subject.id } : { vaultDepositJobId: subject.id };

function holderOfRow(row: { binding: string; stockReceiptId: string | null; vaultDepositJobId: string | null }): ProofHolder {
  const binding = row.binding as ProofBinding;
  return row.stockReceiptId !== null
    ? { lane: 'stock_plan', id: row.stockReceiptId, binding }
    : { lane: 'vault_deposit_job', id: row.vaultDepositJobId!, binding };
}

export async function proofHolderOf(txHash: string, db: Tx = getDb()): Promise<ProofHolder | null> {
  const row = await db.proofBinding.findUnique({ where: { txHash } });
  return row ? holderOfRow(row) : null;
}

export interface BindRequest {
  subject: SubjectRef;
  txHash: string;
  binding: ProofBinding;
  at: ServerTime;
}

/**
 * Inside the caller's transaction: removes `holder`'s claim on `txHash` when `challenger`
 * outranks it, the first step of a takeover (proof/rule.ts `claimStanding`). Throws
 * `ProofTransactionTakenError` when no such claim is there any more (another writer moved it).
 */
export async function releaseWeakerClaimWithin(tx: Tx, txHash: string, holder: SubjectRef, challenger: ProofBinding): Promise<void> {
  const released = await tx.proofBinding.deleteMany({
    where: { txHash, ...subjectColumn(holder), binding: { in: bindingsWeakerThan(challenger) } },
  });
  if (released.count !== 1) throw new ProofTransactionTakenError(txHash);
}

/**
 * Makes `subject` hold `txHash`, inside the caller's transaction: releases the subject's other
 * transaction (a subject holds one), strengthens the subject's own binding when it already
 * holds the transaction (never weakens it), and otherwise inserts. Throws `ProofTransactionTakenError` when
 * another subject holds it (read here, or the insert's unique key when a concurrent writer won);
 * the caller's transaction then rolls back.
 */
export async function bindProofWithin(tx: Tx, request: BindRequest): Promise<void> {
  const { subject, txHash, binding, at } = request;
  const own = subjectColumn(subject);
  await tx.proofBinding.deleteMany({ where: { ...own, NOT: { txHash } } });
  const held = await tx.proofBinding.findUnique({ where: { txHash } });
  if (held) {
    const holder = holderOfRow(held);
    if (holder.lane !== subject.lane || holder.id !== subject.id) throw new ProofTransactionTakenError(txHash);
    if (bindingOutranks(binding, held.binding as ProofBinding)) await tx.proofBinding.update({ where: { txHash }, data: { binding } });
    return;
  }
  // The unique key decides a race: a concurrent insert of the same hash fails here.
  await tx.proofBinding.create({ data: { txHash, binding, ...own, boundAt: at } });
}
