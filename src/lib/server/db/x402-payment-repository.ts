/**
 * Persistence of x402 authorizations (the nonce replay guard) and payment receipts, on SQLite
 * or PostgreSQL. The unique (network, asset, payer, nonce) key is enforced by the database,
 * so two server instances can never both reserve one authorization.
 */
import { authorizationStatusSchema, type AuthorizationKey, type AuthorizationStore, type StoredAuthorization } from '../x402/settlement';
import { canonicalJson } from '../canonical';
import type { ServerTime } from '../clock';
import type { PaymentReceipt } from '../x402/receipts';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

function toStored(row: {
  id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  serviceName: string;
  amountUnits: string;
  payTo: string;
  x402Version: number;
  status: string;
  facilitatorReason: string | null;
  transaction: string | null;
  receiptId: string | null;
}): StoredAuthorization {
  // Parsed, not cast: a status column holding anything else is a bug to surface, not to pass on.
  return { ...row, status: authorizationStatusSchema.parse(row.status) };
}

export const x402AuthorizationStore: AuthorizationStore = {
  async find(key: AuthorizationKey) {
    const row = await getDb().x402Authorization.findUnique({
      where: { network_asset_payer_nonce: { network: key.network, asset: key.asset, payer: key.payer, nonce: key.nonce } },
    });
    return row ? toStored(row) : null;
  },

  async reserve(row: StoredAuthorization, at: ServerTime) {
    try {
      await getDb().x402Authorization.create({
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
    await getDb().x402Authorization.update({ where: { id }, data: { status, facilitatorReason, transaction, updatedAt: at } });
  },

  async recordSettled(id, receipt, at) {
    const db = getDb();
    await db.$transaction([
      db.x402Authorization.update({
        where: { id },
        data: {
          status: 'settled',
          transaction: receipt.facilitatorTransaction,
          receiptId: receipt.receiptId,
          facilitatorReason: null,
          updatedAt: at,
        },
      }),
      db.x402PaymentReceipt.create({
        data: {
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
  },
};

export async function findPaymentReceipt(receiptId: string): Promise<PaymentReceipt | null> {
  const row = await getDb().x402PaymentReceipt.findUnique({ where: { receiptId } });
  return row ? (JSON.parse(row.receiptJson) as PaymentReceipt) : null;
}

export async function findAuthorization(key: AuthorizationKey): Promise<StoredAuthorization | null> {
  return x402AuthorizationStore.find(key);
}
