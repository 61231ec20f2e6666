/**
 * Mode B vault deposit jobs over the database (SQLite or PostgreSQL). Documents are stored
 * as canonical JSON text so both providers return byte-identical content.
 */
import { canonicalJson } from '../canonical';
import type { DepositPack } from '../vaults/deposit-pack';
import type { JobSubmitState, VaultDepositJobRecord, VaultDepositJobStore } from '../vaults/mode-b';
import type { VaultDepositJob as Row } from '$generated/prisma-sqlite/client';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

function toRecord(row: Row): VaultDepositJobRecord {
  return {
    id: row.id,
    planHash: row.planHash,
    vaultSlug: row.vaultSlug,
    vaultAddress: row.vaultAddress,
    receiver: row.receiver,
    amount: row.amount,
    amountUnits: row.amountUnits,
    submitState: row.submitState as JobSubmitState,
    failureCode: row.failureCode,
    partnerJobId: row.partnerJobId,
    txHashes: JSON.parse(row.txHashesJson) as string[],
    pack: JSON.parse(row.packJson) as DepositPack,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const vaultDepositJobRepository: VaultDepositJobStore = {
  async findById(id) {
    const row = await getDb().vaultDepositJob.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  },

  async findByPlanHash(planHash) {
    // Jobs stored before plan hashes carried `0x` hold the bare hex of the same plan.
    const forms = [planHash, planHash.replace(/^0x/, '')];
    const row = await getDb().vaultDepositJob.findFirst({ where: { planHash: { in: forms } } });
    return row ? toRecord(row) : null;
  },

  async reserve(job) {
    try {
      await getDb().vaultDepositJob.create({
        data: {
          id: job.id,
          planHash: job.planHash,
          vaultSlug: job.vaultSlug,
          vaultAddress: job.vaultAddress,
          receiver: job.receiver,
          amount: job.amount,
          amountUnits: job.amountUnits,
          submitState: job.submitState,
          failureCode: job.failureCode,
          partnerJobId: job.partnerJobId,
          txHashesJson: canonicalJson(job.txHashes),
          packJson: canonicalJson(job.pack),
          createdAt: job.createdAt,
          updatedAt: job.updatedAt,
        },
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  },

  async markSubmitted(id, partnerJobId, at) {
    await getDb().vaultDepositJob.update({ where: { id }, data: { submitState: 'submitted', partnerJobId, updatedAt: at } });
  },

  async markFailed(id, failureCode, at) {
    await getDb().vaultDepositJob.update({ where: { id }, data: { submitState: 'submit_failed', failureCode, updatedAt: at } });
  },

  async addTxHashes(id, hashes, at) {
    const db = getDb();
    await db.$transaction(async (tx) => {
      const row = await tx.vaultDepositJob.findUnique({ where: { id } });
      if (!row) return;
      const merged = [...new Set([...(JSON.parse(row.txHashesJson) as string[]), ...hashes])];
      await tx.vaultDepositJob.update({ where: { id }, data: { txHashesJson: canonicalJson(merged), updatedAt: at } });
    });
  },
};
