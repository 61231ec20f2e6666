/**
 * Storage of sign-in nonces, wallet users and sessions (Prisma; SQLite or PostgreSQL).
 * Implements the `AuthStore` the auth domain functions take.
 */
import type { AuthStore, StoredNonce, StoredSession } from '../auth/sign-in';
import type { ServerTime } from '../clock';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

export async function saveNonce(nonce: { nonce: string; issuedAt: ServerTime; expiresAt: ServerTime }): Promise<void> {
  await getDb().authNonce.create({ data: { nonce: nonce.nonce, createdAt: nonce.issuedAt, expiresAt: nonce.expiresAt } });
}

/** Removes nonces that expired before `before` (spent or not). */
export async function sweepNonces(before: ServerTime): Promise<number> {
  const { count } = await getDb().authNonce.deleteMany({ where: { expiresAt: { lt: before } } });
  return count;
}

export const authStore: AuthStore = {
  async findNonce(nonce: string): Promise<StoredNonce | null> {
    return getDb().authNonce.findUnique({ where: { nonce }, select: { expiresAt: true, usedAt: true } });
  },

  async burnNonce(nonce: string, now: ServerTime): Promise<boolean> {
    // One UPDATE ... WHERE usedAt IS NULL AND expiresAt > now: SQLite serialises writers and
    // PostgreSQL re-checks the WHERE on the row a concurrent transaction just changed, so
    // exactly one caller sees count 1.
    const { count } = await getDb().authNonce.updateMany({
      where: { nonce, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    return count === 1;
  },

  async createSession(session): Promise<void> {
    const db = getDb();
    try {
      await db.walletUser.upsert({
        where: { address: session.address },
        create: { address: session.address, createdAt: session.createdAt },
        update: {},
      });
    } catch (error) {
      // Two first sign-ins of one wallet at once: the other created the user; fine.
      if (!isUniqueViolation(error)) throw error;
    }
    await db.session.create({
      data: {
        id: session.id,
        address: session.address,
        chainId: session.chainId,
        expiresAt: session.expiresAt,
        createdAt: session.createdAt,
      },
    });
  },

  async findSession(id: string): Promise<StoredSession | null> {
    return getDb().session.findUnique({ where: { id }, select: { address: true, chainId: true, expiresAt: true } });
  },

  async setSessionExpiry(id: string, expiresAt: ServerTime): Promise<void> {
    await getDb().session.updateMany({ where: { id }, data: { expiresAt } });
  },

  async deleteSession(id: string): Promise<void> {
    await getDb().session.deleteMany({ where: { id } });
  },
};
