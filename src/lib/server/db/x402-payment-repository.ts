/**
 * Persistence of x402 authorizations (the nonce replay guard, with the answer each one pays for)
 * and payment receipts, on SQLite or PostgreSQL. The unique (network, asset, payer, nonce) key
 * is enforced by the database, so two server instances can never both reserve one
 * authorization; a payer's payment identifier is unique the same way.
 */
import type { X402Authorization as AuthorizationRow } from '$generated/prisma-sqlite/client';
import { canonicalJson } from '../canonical';
import type { ServerTime } from '../clock';
import type { PaymentReceipt } from '../x402/receipts';
import {
  authorizationStatusSchema,
  type AuthorizationKey,
  type AuthorizationStore,
  type SignedAuthorization,
  type StoredAuthorization,
} from '../x402/settlement';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

function toStored(row: AuthorizationRow): StoredAuthorization {
  const { paymentJson, answerJson, createdAt: _createdAt, ...rest } = row;
  return {
    ...rest,
    // Parsed, not cast: a status column holding anything else is a bug to surface, not to pass on.
    status: authorizationStatusSchema.parse(row.status),
    signed: paymentJson === null ? null : (JSON.parse(paymentJson) as SignedAuthorization),
    answer: answerJson === null ? null : (JSON.parse(answerJson) as unknown),
  };
}

const UNPAID_STATUSES = new Set(['refused', 'expired_unused', 'used_without_payment']);

export const x402AuthorizationStore: AuthorizationStore = {
  async find(key: AuthorizationKey) {
    const row = await getDb().x402Authorization.findUnique({
      where: { network_asset_payer_nonce: { network: key.network, asset: key.asset, payer: key.payer, nonce: key.nonce } },
    });
    return row ? toStored(row) : null;
  },

  async findByPaymentIdentifier(payer: string, paymentIdentifier: string) {
    const row = await getDb().x402Authorization.findUnique({ where: { payer_paymentIdentifier: { payer, paymentIdentifier } } });
    return row ? toStored(row) : null;
  },

  async reserve(row: StoredAuthorization, at: ServerTime) {
    const db = getDb();
    // Settled answers past their keeping time are dropped here, on the one write every paid call makes.
    await db.x402Authorization.updateMany({ where: { answerKeptUntil: { lt: at } }, data: { answerJson: null, answerKeptUntil: null } });
    try {
      await db.x402Authorization.create({
        data: {
          id: row.id,
          network: row.network,
          asset: row.asset,
          payer: row.payer,
          nonce: row.nonce,
          serviceName: row.serviceName,
          amountUnits: row.amountUnits,
          payTo: row.payTo,
          x402Version: row.x402Version,
          status: 'settling',
          requestHash: row.requestHash,
          paymentIdentifier: row.paymentIdentifier,
          paymentJson: row.signed === null ? null : canonicalJson(row.signed),
          answerJson: row.answer === null || row.answer === undefined ? null : canonicalJson(row.answer),
          createdAt: at,
          updatedAt: at,
        },
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  },

  async finish(id, status, facilitatorReason, transaction, at) {
    // Nothing was paid for an answer refused for good: it is not kept.
    const dropAnswer = UNPAID_STATUSES.has(status) ? { answerJson: null, answerKeptUntil: null } : {};
    await getDb().x402Authorization.update({
      where: { id },
      data: { status, facilitatorReason, transaction, updatedAt: at, ...dropAnswer },
    });
  },

  async claim(id, seen, at) {
    const { count } = await getDb().x402Authorization.updateMany({
      where: { id, status: seen.status, updatedAt: seen.updatedAt },
      data: { status: 'settling', updatedAt: at },
    });
    return count === 1;
  },

  async recordSettled(id, receipt, at, answerKeptUntil) {
    const db = getDb();
    const [, stored] = await db.$transaction([
      db.x402Authorization.update({
        where: { id },
        data: {
          status: 'settled',
          transaction: receipt.facilitatorTransaction,
          receiptId: receipt.receiptId,
          facilitatorReason: null,
          answerKeptUntil,
          updatedAt: at,
        },
      }),
      // A receipt already stored for this payment (two retries proving it at once) is kept as it is.
      db.x402PaymentReceipt.upsert({
        where: { receiptId: receipt.receiptId },
        update: {},
        create: {
          receiptId: receipt.receiptId,
          authorizationId: id,
          serviceName: receipt.serviceName,
          payer: receipt.payer,
          payTo: receipt.payTo,
          amountUnits: receipt.amountUnits,
          network: receipt.network,
          transaction: receipt.facilitatorTransaction,
          receiptHash: receipt.receiptHash,
          receiptJson: canonicalJson(receipt),
          createdAt: at,
        },
      }),
    ]);
    return JSON.parse(stored.receiptJson) as PaymentReceipt;
  },

  findReceipt: (receiptId: string) => findPaymentReceipt(receiptId),
};

export async function findPaymentReceipt(receiptId: string): Promise<PaymentReceipt | null> {
  const row = await getDb().x402PaymentReceipt.findUnique({ where: { receiptId } });
  return row ? (JSON.parse(row.receiptJson) as PaymentReceipt) : null;
}

export async function findAuthorization(key: AuthorizationKey): Promise<StoredAuthorization | null> {
  return x402AuthorizationStore.find(key);
}
