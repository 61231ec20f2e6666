/**
 * Mode B vault deposit jobs over the database (SQLite or PostgreSQL). Documents are stored
 * as canonical JSON text so both providers return byte-identical content. The deposit that
 * proves a job is its `ProofBinding` (db/proof-binding-repository.ts); the first sight of each
 * pack is a `DepositPackSighting`.
 */
import { canonicalJson } from '../canonical';
import { storedServerTime, type ServerTime } from '../clock';
import { ProofTransactionTakenError, type ProofBinding } from '../proof/rule';
import type { DepositPack } from '../vaults/deposit-pack';
import type { JobSubmitState, PackSightingStore, VaultDepositJobRecord, VaultDepositJobStore } from '../vaults/mode-b';
import type { VaultDepositJob } from '$generated/prisma-sqlite/client';
import { getDb } from './client';
import { bindProofWithin, proofHolderOf, releaseWeakerClaimWithin } from './proof-binding-repository';
import { isUniqueViolation } from './unique-violation';

type Row = VaultDepositJob & { proof: { txHash: string; binding: string } | null };
const WITH_PROOF = { proof: true } as const;

function toRecord(row: Row): VaultDepositJobRecord {
  const { txHashesJson, packJson, proof, createdAt, updatedAt, ...columns } = row;
  return {
    ...columns,
    submitState: columns.submitState as JobSubmitState,
    txHashes: JSON.parse(txHashesJson) as string[],
    pack: JSON.parse(packJson) as DepositPack,
    createdAt: storedServerTime(createdAt),
    updatedAt: storedServerTime(updatedAt),
    proof: proof ? { txHash: proof.txHash, binding: proof.binding as ProofBinding } : null,
  };
}

export const vaultDepositJobRepository: VaultDepositJobStore = {
  async findById(id) {
    const row = await getDb().vaultDepositJob.findUnique({ where: { id }, include: WITH_PROOF });
    return row ? toRecord(row) : null;
  },

  async findByPlanHash(planHash) {
    // Jobs stored before plan hashes carried `0x` hold the bare hex of the same plan.
    const forms = [planHash, planHash.replace(/^0x/, '')];
    const row = await getDb().vaultDepositJob.findFirst({ where: { planHash: { in: forms } }, include: WITH_PROOF });
    return row ? toRecord(row) : null;
  },

  async reserve(job) {
    try {
      const { txHashes, pack, proof: _proof, ...columns } = job;
      await getDb().vaultDepositJob.create({ data: { ...columns, txHashesJson: canonicalJson(txHashes), packJson: canonicalJson(pack) } });
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

  holderOf(txHash) {
    return proofHolderOf(txHash);
  },

  async bindProof({ jobId, txHash, binding, at, takeOverFrom }) {
    const subject = { lane: 'vault_deposit_job' as const, id: jobId };
    try {
      await getDb().$transaction(async (tx) => {
        if (takeOverFrom) await releaseWeakerClaimWithin(tx, txHash, { lane: 'vault_deposit_job', id: takeOverFrom }, 'partner_job');
        await bindProofWithin(tx, { subject, txHash, binding, at });
      });
      return true;
    } catch (error) {
      if (error instanceof ProofTransactionTakenError || isUniqueViolation(error)) return false;
      throw error;
    }
  },
};

export const depositPackSightings: PackSightingStore = {
  async firstSight(planHash: string, at: ServerTime): Promise<ServerTime> {
    const db = getDb();
    try {
      await db.depositPackSighting.create({ data: { planHash, firstSeenAt: at } });
      return at;
    } catch (error) {
      // Seen before (or by a concurrent request): the first sight stored is the one that counts.
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db.depositPackSighting.findUnique({ where: { planHash } });
    if (!row) throw new Error('a pack sighting disappeared');
    return storedServerTime(row.firstSeenAt);
  },
};
