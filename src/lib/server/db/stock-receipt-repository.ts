/**
 * Prisma persistence of stock-lane receipts and their history (the StockReceiptStore of
 * src/lib/server/stocks/store.ts). One row per plan hash (unique), one event per state change
 * (unique per receipt and sequence number); every change is a compare-and-set on `version`.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerJobStatus, ReceiptStatus } from '../stocks/status';
import {
  ProofTransactionTakenError,
  type NewPreparedReceipt,
  type ReceiptChange,
  type ReceiptEventInput,
  type ReceiptTrigger,
  type StockReceiptRecord,
  type StockReceiptStore,
} from '../stocks/store';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

const WITH_EVENTS = { events: { orderBy: { seq: 'asc' as const } } };

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
};

function toRecord(row: Row): StockReceiptRecord {
  return {
    id: row.id,
    planHash: row.planHash,
    status: row.status as ReceiptStatus,
    statusReason: row.statusReason,
    intentJson: row.intentJson,
    generatedAt: row.generatedAt,
    firstPreparedAt: row.firstPreparedAt,
    targetSymbol: row.targetSymbol,
    targetTokenAddress: row.targetTokenAddress,
    jobId: row.jobId,
    partnerJobStatus: row.partnerJobStatus as PartnerJobStatus | null,
    txHash: row.txHash,
    blockNumber: row.blockNumber,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
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
      at: e.at,
    })),
  };
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
      const existing = await this.findByPlanHash(receipt.planHash);
      if (!existing) throw error;
      return { record: existing, created: false };
    }
  }

  async claimSubmission(planHash: string, now: Date, leaseMs: number): Promise<boolean> {
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
  ): Promise<StockReceiptRecord | null> {
    const db = getDb();
    const write = db.$transaction(async (tx) => {
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
      if (result.count !== 1) return false;
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
      return true;
    });
    let updated: boolean;
    try {
      updated = await write;
    } catch (error) {
      // The unique txHash: another receipt recorded this transaction as its proof first.
      if (change.txHash && isUniqueViolation(error)) throw new ProofTransactionTakenError(change.txHash);
      throw error;
    }
    if (!updated) return null;
    const row = await db.stockReceipt.findUnique({ where: { id }, include: WITH_EVENTS });
    return row ? toRecord(row) : null;
  }
}

let store: PrismaStockReceiptStore | undefined;

export function stockReceiptStore(): PrismaStockReceiptStore {
  store ??= new PrismaStockReceiptStore();
  return store;
}
