/**
 * Prisma persistence of stock-lane receipts and their history (the StockReceiptStore of
 * src/lib/server/stocks/store.ts). One row per plan hash (unique), one event per state change
 * (unique per receipt and sequence number); every change is a compare-and-set on `version`.
 * The transaction a receipt holds as proof is bound in `ProofBinding` in the same write
 * (db/proof-binding-repository.ts), so one transaction proves one subject of any lane.
 */
import { randomUUID } from 'node:crypto';
import type { Prisma } from '$generated/prisma-sqlite/client';
import { storedServerTime, type ServerTime } from '../clock';
import { bindingsWeakerThan, type ProofBinding } from '../proof/rule';
import type { PartnerJobStatus, ReceiptStatus } from '../stocks/status';
import {
  ProofTransactionTakenError,
  type NewPreparedReceipt,
  type ProofTakeOver,
  type ReceiptChange,
  type ReceiptEventInput,
  type ReceiptTrigger,
  type StockReceiptRecord,
  type StockReceiptStore,
} from '../stocks/store';
import { getDb } from './client';
import { bindProofWithin, proofHolderOf, releaseWeakerClaimWithin } from './proof-binding-repository';
import { isUniqueViolation } from './unique-violation';

const WITH_EVENTS = { events: { orderBy: { seq: 'asc' as const } }, proof: true };

type Tx = Prisma.TransactionClient;

/** The receipt moved between the read and the write: the whole write is rolled back. */
class StaleReceipt extends Error {}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof getDb>['stockReceipt']['findUnique']>>> & {
  events: Array<{
    seq: number;
    trigger: string;
    fromStatus: string | null;
    toStatus: string;
    reason: string | null;
    jobId: string | null;
    partnerJobStatus: string | null;
    txHash: string | null;
    blockNumber: string | null;
    chainId: number | null;
    at: Date;
  }>;
  proof: { binding: string } | null;
};

function toRecord(row: Row): StockReceiptRecord {
  return {
    id: row.id,
    planHash: row.planHash,
    status: row.status as ReceiptStatus,
    statusReason: row.statusReason,
    intentJson: row.intentJson,
    generatedAt: row.generatedAt,
    firstPreparedAt: storedServerTime(row.firstPreparedAt),
    targetSymbol: row.targetSymbol,
    targetTokenAddress: row.targetTokenAddress,
    jobId: row.jobId,
    partnerJobStatus: row.partnerJobStatus as PartnerJobStatus | null,
    txHash: row.txHash,
    blockNumber: row.blockNumber,
    proofBinding: (row.proof?.binding as ProofBinding | undefined) ?? null,
    sessionWallet: row.sessionWallet,
    partnerWallet: row.partnerWallet,
    version: row.version,
    createdAt: storedServerTime(row.createdAt),
    updatedAt: storedServerTime(row.updatedAt),
    events: row.events.map((e) => ({
      seq: e.seq,
      trigger: e.trigger as ReceiptTrigger,
      fromStatus: e.fromStatus as ReceiptStatus | null,
      toStatus: e.toStatus as ReceiptStatus,
      reason: e.reason,
      jobId: e.jobId,
      partnerJobStatus: e.partnerJobStatus as PartnerJobStatus | null,
      txHash: e.txHash,
      blockNumber: e.blockNumber,
      chainId: e.chainId,
      at: storedServerTime(e.at),
    })),
  };
}

/** Writes one change and its event at `expectedVersion`, binding the change's transaction; throws StaleReceipt when moved. */
async function writeChange(tx: Tx, id: string, expectedVersion: number, change: ReceiptChange, event: ReceiptEventInput): Promise<void> {
  const result = await tx.stockReceipt.updateMany({
    where: { id, version: expectedVersion },
    data: {
      status: change.status,
      statusReason: change.statusReason,
      ...(change.jobId !== undefined ? { jobId: change.jobId } : {}),
      ...(change.partnerJobStatus !== undefined ? { partnerJobStatus: change.partnerJobStatus } : {}),
      ...(change.txHash !== undefined ? { txHash: change.txHash } : {}),
      ...(change.blockNumber !== undefined ? { blockNumber: change.blockNumber } : {}),
      ...(change.releaseSubmitClaim ? { submitClaimedAt: null } : {}),
      version: expectedVersion + 1,
      updatedAt: event.at,
    },
  });
  if (result.count !== 1) throw new StaleReceipt();
  await tx.stockReceiptEvent.create({
    data: {
      id: randomUUID(),
      receiptId: id,
      seq: expectedVersion + 1,
      trigger: event.trigger,
      fromStatus: event.fromStatus ?? null,
      toStatus: change.status,
      reason: event.reason,
      jobId: event.jobId,
      partnerJobStatus: event.partnerJobStatus,
      txHash: event.txHash,
      blockNumber: event.blockNumber,
      chainId: event.chainId,
      at: event.at,
    },
  });
  // A receipt that lets go of its transaction (`txHash: null`) releases its binding.
  if (change.txHash === null) await tx.proofBinding.deleteMany({ where: { stockReceiptId: id } });
}

export class PrismaStockReceiptStore implements StockReceiptStore {
  async findByPlanHash(planHash: string): Promise<StockReceiptRecord | null> {
    const row = await getDb().stockReceipt.findUnique({ where: { planHash }, include: WITH_EVENTS });
    return row ? toRecord(row) : null;
  }

  async findByJobId(jobId: string): Promise<StockReceiptRecord | null> {
    const row = await getDb().stockReceipt.findUnique({ where: { jobId }, include: WITH_EVENTS });
    return row ? toRecord(row) : null;
  }

  async findByTxHash(txHash: string): Promise<StockReceiptRecord | null> {
    const row = await getDb().stockReceipt.findUnique({ where: { txHash }, include: WITH_EVENTS });
    return row ? toRecord(row) : null;
  }

  async ensurePrepared(receipt: NewPreparedReceipt): Promise<{ record: StockReceiptRecord; created: boolean }> {
    try {
      const row = await getDb().stockReceipt.create({
        data: {
          id: receipt.id,
          planHash: receipt.planHash,
          status: 'prepared',
          intentJson: receipt.intentJson,
          generatedAt: receipt.generatedAt,
          firstPreparedAt: receipt.firstPreparedAt,
          targetSymbol: receipt.targetSymbol,
          targetTokenAddress: receipt.targetTokenAddress,
          sessionWallet: receipt.sessionWallet ?? null,
          version: 1,
          createdAt: receipt.at,
          updatedAt: receipt.at,
          events: {
            create: { id: randomUUID(), seq: 1, trigger: 'prepare', fromStatus: null, toStatus: 'prepared', at: receipt.at },
          },
        },
        include: WITH_EVENTS,
      });
      return { record: toRecord(row), created: true };
    } catch (error) {
      // Another request created the same plan first: the unique plan hash makes it one receipt.
      if (!isUniqueViolation(error)) throw error;
      if (receipt.sessionWallet) {
        // A plan's executor, once known, is never replaced: only a receipt without one takes it.
        await getDb().stockReceipt.updateMany({
          where: { planHash: receipt.planHash, sessionWallet: null },
          data: { sessionWallet: receipt.sessionWallet },
        });
      }
      const existing = await this.findByPlanHash(receipt.planHash);
      if (!existing) throw error;
      return { record: existing, created: false };
    }
  }

  async claimSubmission(planHash: string, now: ServerTime, leaseMs: number): Promise<boolean> {
    const result = await getDb().stockReceipt.updateMany({
      where: {
        planHash,
        jobId: null,
        status: 'prepared',
        OR: [{ submitClaimedAt: null }, { submitClaimedAt: { lt: new Date(now.getTime() - leaseMs) } }],
      },
      data: { submitClaimedAt: now },
    });
    return result.count === 1;
  }

  async releaseSubmission(planHash: string): Promise<void> {
    await getDb().stockReceipt.updateMany({ where: { planHash, jobId: null }, data: { submitClaimedAt: null } });
  }

  async applyChange(
    id: string,
    expectedVersion: number,
    change: ReceiptChange,
    event: ReceiptEventInput,
    takeOver?: ProofTakeOver,
  ): Promise<StockReceiptRecord | null> {
    const db = getDb();
    try {
      await db.$transaction(async (tx) => {
        if (takeOver && change.txHash) {
          // The plan that held the transaction by a weaker claim lets go of it first: its
          // receipt still names the transaction, whose hash is unique among receipts.
          await releaseWeakerClaimWithin(tx, change.txHash, { lane: 'stock_plan', id: takeOver.receiptId }, takeOver.by);
          const loserRow = await tx.stockReceipt.findUnique({ where: { id: takeOver.receiptId }, include: WITH_EVENTS });
          if (!loserRow || loserRow.txHash !== change.txHash) throw new ProofTransactionTakenError(change.txHash);
          const loser = toRecord(loserRow);
          const lost = takeOver.changeFor(loser);
          await writeChange(tx, loser.id, loser.version, lost.change, { ...lost.event, fromStatus: loser.status });
        }
        await writeChange(tx, id, expectedVersion, change, event);
        if (change.txHash) {
          await bindProofWithin(tx, {
            subject: { lane: 'stock_plan', id },
            txHash: change.txHash,
            binding: change.proofBinding ?? 'caller_claim',
            at: event.at,
          });
        }
      });
    } catch (error) {
      if (error instanceof StaleReceipt) return null;
      // The unique txHash: another subject recorded this transaction as its proof first.
      if (change.txHash && isUniqueViolation(error)) throw new ProofTransactionTakenError(change.txHash);
      throw error;
    }
    const row = await db.stockReceipt.findUnique({ where: { id }, include: WITH_EVENTS });
    return row ? toRecord(row) : null;
  }

  async strengthenProofBinding(id: string, txHash: string, binding: ProofBinding): Promise<void> {
    await getDb().proofBinding.updateMany({
      where: { txHash, stockReceiptId: id, binding: { in: bindingsWeakerThan(binding) } },
      data: { binding },
    });
  }

  async recordPartnerWallet(id: string, wallet: string): Promise<void> {
    await getDb().stockReceipt.updateMany({ where: { id, partnerWallet: null }, data: { partnerWallet: wallet } });
  }

  holderOf(txHash: string) {
    return proofHolderOf(txHash);
  }
}

let store: PrismaStockReceiptStore | undefined;

export function stockReceiptStore(): PrismaStockReceiptStore {
  store ??= new PrismaStockReceiptStore();
  return store;
}
